import Foundation

/// Where the AWS clients (DynamoDB, S3) get their credentials, region and endpoints from (docs/dynamodb.md, docs/pipeline.md#s3-sources).
///
/// Everything is read from the injected `variables` and `homeDirectory`, never from the process
/// directly, so tests need no real environment; `AWSEnvironment.current` reads the real one.
/// Empty or blank variables count as unset, as in the AWS SDKs.
public struct AWSEnvironment: Sendable {
    /// The environment variables to read (`AWS_ACCESS_KEY_ID`, `AWS_PROFILE`, `AWS_REGION`, …).
    public var variables: [String: String]
    /// The directory `~` stands for: the default credentials file is `<home>/.aws/credentials`.
    public var homeDirectory: String

    public init(variables: [String: String], homeDirectory: String) {
        self.variables = variables
        self.homeDirectory = homeDirectory
    }

    /// The process's own environment and the user's home directory.
    public static var current: AWSEnvironment {
        AWSEnvironment(
            variables: ProcessInfo.processInfo.environment,
            homeDirectory: FileManager.default.homeDirectoryForCurrentUser.path)
    }

    /// The profile used when `AWS_PROFILE` is unset.
    public static let defaultProfile = "default"

    // MARK: - Credentials

    /// `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY` (+ `AWS_SESSION_TOKEN`) when either key variable is set,
    /// else the profile `AWS_PROFILE` (default `default`) from the shared credentials file.
    public func credentials() throws(AWSConfigurationError) -> AWSCredentials {
        let accessKeyId = value(of: "AWS_ACCESS_KEY_ID")
        let secretAccessKey = value(of: "AWS_SECRET_ACCESS_KEY")
        switch (accessKeyId, secretAccessKey) {
        case let (accessKeyId?, secretAccessKey?):
            return AWSCredentials(
                accessKeyId: accessKeyId, secretAccessKey: secretAccessKey,
                sessionToken: value(of: "AWS_SESSION_TOKEN"))
        case (_?, nil):
            throw .incompleteEnvironmentCredentials(missing: "AWS_SECRET_ACCESS_KEY", present: "AWS_ACCESS_KEY_ID")
        case (nil, _?):
            throw .incompleteEnvironmentCredentials(missing: "AWS_ACCESS_KEY_ID", present: "AWS_SECRET_ACCESS_KEY")
        case (nil, nil):
            return try profileCredentials()
        }
    }

    /// The path of the shared credentials file: `AWS_SHARED_CREDENTIALS_FILE` (a leading `~/` expanded),
    /// else `<home>/.aws/credentials`.
    public var sharedCredentialsFile: String {
        guard let path = value(of: "AWS_SHARED_CREDENTIALS_FILE") else {
            return Self.join(homeDirectory, ".aws/credentials")
        }
        if path == "~" { return homeDirectory }
        if path.hasPrefix("~/") { return Self.join(homeDirectory, String(path.dropFirst(2))) }
        return path
    }

    private func profileCredentials() throws(AWSConfigurationError) -> AWSCredentials {
        let namedProfile = value(of: "AWS_PROFILE")
        let profile = namedProfile ?? Self.defaultProfile
        let path = sharedCredentialsFile

        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            // An explicitly named profile that cannot be found is a mistake worth naming; no setup at all is the common case.
            if namedProfile != nil { throw .profileNotFound(profile: profile, file: path, fileExists: false) }
            throw .noCredentials(profile: profile, file: path)
        }
        guard !isDirectory.boolValue,
            let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)
        else { throw .unreadableCredentialsFile(file: path) }

        let sections = try SharedCredentialsFile.parse(text, file: path)
        guard let keys = sections[profile] else {
            if namedProfile != nil { throw .profileNotFound(profile: profile, file: path, fileExists: true) }
            throw .noCredentials(profile: profile, file: path)
        }
        guard let accessKeyId = nonBlank(keys["aws_access_key_id"]) else {
            throw .incompleteProfile(profile: profile, file: path, missing: "aws_access_key_id")
        }
        guard let secretAccessKey = nonBlank(keys["aws_secret_access_key"]) else {
            throw .incompleteProfile(profile: profile, file: path, missing: "aws_secret_access_key")
        }
        return AWSCredentials(
            accessKeyId: accessKeyId, secretAccessKey: secretAccessKey,
            sessionToken: nonBlank(keys["aws_session_token"]))
    }

    // MARK: - Region and endpoint

    /// The pipeline's region when it gives one, else `AWS_REGION`, else `AWS_DEFAULT_REGION`.
    public func region(pipelineRegion: String? = nil) throws(AWSConfigurationError) -> String {
        if let region = nonBlank(pipelineRegion) ?? value(of: "AWS_REGION") ?? value(of: "AWS_DEFAULT_REGION") {
            return region
        }
        throw .noRegion
    }

    /// The pipeline's endpoint when it gives one, else the service's variable
    /// (`AWS_ENDPOINT_URL_DYNAMODB`, `AWS_ENDPOINT_URL_S3`), else `AWS_ENDPOINT_URL`, else the
    /// service's public endpoint for `region` (`https://dynamodb.<region>.amazonaws.com`,
    /// `.amazonaws.com.cn` for the `cn-` regions). An explicit endpoint must be an http or https URL with a host.
    public func endpoint(pipelineEndpoint: String? = nil, region: String, service: AWSService = .dynamodb)
        throws(AWSConfigurationError) -> URL
    {
        if let url = try explicitEndpoint(pipelineEndpoint: pipelineEndpoint, service: service) { return url }
        let isHostLabel = region.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
        }
        let domain = region.hasPrefix("cn-") ? "amazonaws.com.cn" : "amazonaws.com"
        guard isHostLabel, !region.isEmpty, let url = URL(string: "https://\(service.signingName).\(region).\(domain)")
        else {
            throw .invalidRegion(region)
        }
        return url
    }

    /// The endpoint the pipeline or the environment names (nil for the service's public one):
    /// S3 is addressed path-style at such an endpoint.
    public func explicitEndpoint(pipelineEndpoint: String? = nil, service: AWSService) throws(AWSConfigurationError)
        -> URL?
    {
        let candidates: [(source: String, value: String?)] = [
            ("the pipeline's endpoint", nonBlank(pipelineEndpoint)),
            (service.endpointVariable, value(of: service.endpointVariable)),
            ("AWS_ENDPOINT_URL", value(of: "AWS_ENDPOINT_URL")),
        ]
        guard let (source, text) = candidates.first(where: { $0.value != nil }).map({ ($0.source, $0.value ?? "") })
        else { return nil }
        guard let url = URL(string: text),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { throw .invalidEndpoint(source: source, value: SecretRedactor.display(text)) }
        return url
    }

    /// Credentials, region and endpoint together, as the store needs them.
    public func resolve(
        pipelineRegion: String? = nil, pipelineEndpoint: String? = nil, service: AWSService = .dynamodb
    ) throws(AWSConfigurationError) -> AWSResolvedConfiguration {
        let region = try region(pipelineRegion: pipelineRegion)
        return AWSResolvedConfiguration(
            credentials: try credentials(), region: region,
            endpoint: try endpoint(pipelineEndpoint: pipelineEndpoint, region: region, service: service))
    }

    // MARK: - Helpers

    private func value(of name: String) -> String? { nonBlank(variables[name]) }

    private func nonBlank(_ text: String?) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        return trimmed
    }
}

/// What `AWSEnvironment.resolve` found: everything a signed request to one service needs.
public struct AWSResolvedConfiguration: Sendable, Equatable {
    public var credentials: AWSCredentials
    public var region: String
    public var endpoint: URL

    public init(credentials: AWSCredentials, region: String, endpoint: URL) {
        self.credentials = credentials
        self.region = region
        self.endpoint = endpoint
    }
}

extension AWSEnvironment {
    /// `name` in `directory`.
    static func join(_ directory: String, _ name: String) -> String {
        if directory.isEmpty { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
