import Foundation

/// Takes secrets out of text that came from a server (error bodies: DynamoDB's JSON, S3's XML,
/// a proxy's HTML page, which may echo the request) or from configuration (endpoint URLs),
/// before it goes into a message, a report or the output. What is redacted is listed in
/// docs/dynamodb.md ("Secrets in messages"); each becomes `[redacted]`:
///
/// - the access key id, secret access key and session token in use, and the endpoint's user,
///   password, query and query values, wherever they appear (as they are, JSON-escaped or
///   percent-encoded); values shorter than `minimumLength` are left to the rules below;
/// - the value of an `Authorization`, `Proxy-Authorization`, `X-Amz-Security-Token`,
///   `X-Amz-Credential` or `X-Amz-Signature` header or parameter, and of `Credential=` and
///   `Signature=`;
/// - the user and password of any URL, and the query of any URL but an `s3://` one (whose `?`
///   is a glob character).
package struct SecretRedactor: Sendable {
    /// What a secret is replaced by.
    package static let mark = "[redacted]"
    /// Shorter values are not searched for as they are: a key such as moto's `test` would blank
    /// out every word that contains it.
    package static let minimumLength = 6

    /// The values searched for, each in every form it may take, longest first.
    private let secrets: [String]

    /// A redactor of `credentials` (the keys requests are signed with) and of the user,
    /// password and query of `endpoint`; with neither, only the rules that need no value apply.
    package init(credentials: AWSCredentials? = nil, endpoint: URL? = nil) {
        var values = [credentials?.accessKeyId, credentials?.secretAccessKey, credentials?.sessionToken]
        if let endpoint, let parts = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) {
            values += [
                parts.user, parts.password, parts.percentEncodedUser, parts.percentEncodedPassword,
                parts.query, parts.percentEncodedQuery,
            ]
            values += (parts.queryItems ?? []).flatMap {
                [$0.value, $0.value?.addingPercentEncoding(withAllowedCharacters: .alphanumerics)]
            }
        }
        var forms = Set<String>()
        for case let value? in values where value.count >= Self.minimumLength {
            forms.insert(value)
            forms.insert(value.replacingOccurrences(of: "/", with: "\\/"))  // as JSON may escape it
            forms.insert(SigV4Signer.uriEncode(value))  // as a query or a signed path carries it
        }
        secrets = forms.sorted { $0.count > $1.count }
    }

    /// `text` with every secret replaced by `[redacted]`.
    package func redact(_ text: String) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: Self.mark)
        }
        for rule in Self.rules
        where rule.triggers.contains(where: { result.range(of: $0, options: .caseInsensitive) != nil }) {
            result = rule.regex.stringByReplacingMatches(
                in: result, range: NSRange(result.startIndex..., in: result), withTemplate: rule.template)
        }
        return result
    }

    /// An endpoint as messages and `inspect` show it: without its user, password, query and
    /// fragment (`http://user:pw@host:8000/?k=v` → `http://host:8000/`).
    package static func display(_ url: URL) -> String { display(url.absoluteString) }

    /// The same for text that may not parse as a URL (an invalid endpoint): the part before the
    /// first `?` or `#`, less anything up to an `@` before the first `/` of the host part.
    package static func display(_ text: String) -> String {
        let scheme = text.range(of: "://")
        let head = scheme.map { String(text[..<$0.upperBound]) } ?? ""
        var rest = scheme.map { text[$0.upperBound...] } ?? Substring(text)
        rest = rest.prefix { $0 != "?" && $0 != "#" }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        if let at = rest[..<authorityEnd].lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        return head + rest
    }

    /// A pattern, its replacement, and words of which one must be in the text for it to match
    /// (most error texts have none, and skip the pattern).
    private struct Rule: @unchecked Sendable {  // NSRegularExpression is immutable and safe to share
        let triggers: [String]
        let regex: NSRegularExpression
        let template: String

        init(_ triggers: [String], _ pattern: String, _ template: String) {
            self.triggers = triggers
            regex = try! NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
            self.template = template
        }
    }

    /// Applied in order, after the values.
    private static let rules: [Rule] = [
        // A header or parameter: `Authorization: …` up to the end of the line or a quote,
        // `"X-Amz-Security-Token": "…"`, `X-Amz-Credential=…` up to the next `&`.
        Rule(
            ["authorization", "x-amz-"],
            #"\b((?:proxy-)?authorization|x-amz-security-token|x-amz-credential|x-amz-signature)(["']?[ \t]*[:=][ \t]*["']?)[^"'\r\n<&]+"#,
            "$1$2\(mark)"),
        Rule(["credential=", "signature="], #"\b(credential|signature)=[^\s,;&"'<]+"#, "$1=\(mark)"),
        // A URL's user and password.
        Rule(["@"], #"\b([a-z][a-z0-9+.-]*://)[^\s/?#@"'<>]*@"#, "$1\(mark)@"),
        // A URL's query, but an s3:// one's.
        Rule(["?"], #"\b((?!s3://)[a-z][a-z0-9+.-]*://[^\s?#"'<>]*)\?[^\s#"'<>]+"#, "$1?\(mark)"),
    ]
}
