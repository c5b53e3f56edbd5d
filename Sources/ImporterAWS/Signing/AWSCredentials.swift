/// The keys a request is signed with. Printing, interpolating or dumping one never shows the
/// secret access key or the session token: only the first characters of the access key id.
public struct AWSCredentials: Sendable, Equatable {
    public var accessKeyId: String
    public var secretAccessKey: String
    /// Present for temporary credentials (STS, SSO, an instance role); sent as `x-amz-security-token`.
    public var sessionToken: String?

    public init(accessKeyId: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyId = accessKeyId
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }
}

extension AWSCredentials: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// For example `AWSCredentials(AKID…, secret hidden)`.
    public var description: String {
        let token = sessionToken == nil ? "" : ", session token hidden"
        return "AWSCredentials(\(accessKeyId.prefix(4))…, secret hidden\(token))"
    }

    public var debugDescription: String { description }

    /// What `dump` and debuggers show: the same redacted text, no stored properties.
    public var customMirror: Mirror { Mirror(self, children: ["redacted": description], displayStyle: .struct) }
}
