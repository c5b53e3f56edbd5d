import ImporterAWS
import Foundation

/// A failed DynamoDB call: the service's error (`__type` / `x-amzn-errortype`, `message`), an
/// HTTP status without one, or a transport failure (connection refused or reset, timeout).
/// The response is parsed once, here; callers match `code`.
public struct DynamoDBError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, from the error's type name.
    public enum Code: Hashable, Sendable {
        case conditionalCheckFailed
        /// A TransactWriteItems cancelled; `cancellationReasons` say why, per action.
        case transactionCanceled
        case validation
        case resourceNotFound
        case resourceInUse
        /// Throttling, transaction conflicts, internal errors: worth another try.
        case retryableService(String)
        /// Another exception of the service, by its short name.
        case service(String)
        /// An HTTP error status with no error type (an HTML page from a proxy, say).
        case http(Int)
        /// No response came back.
        case transport
        /// A 200 response that is not the JSON the operation answers.
        case invalidResponse

        init(type: String) {
            switch type {
            case "ConditionalCheckFailedException": self = .conditionalCheckFailed
            case "TransactionCanceledException": self = .transactionCanceled
            case "ValidationException": self = .validation
            case "ResourceNotFoundException": self = .resourceNotFound
            case "ResourceInUseException": self = .resourceInUse
            case _ where Self.retryableTypes.contains(type): self = .retryableService(type)
            default: self = .service(type)
            }
        }

        static let retryableTypes: Set<String> = [
            "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded",
            "TransactionConflictException", "TransactionInProgressException", "InternalServerError",
            "ServiceUnavailable", "LimitExceededException",
        ]
    }

    /// One action's reason in a cancelled transaction.
    public struct CancellationReason: Decodable, Sendable {
        /// `None`, `ConditionalCheckFailed`, `ValidationError`, `TransactionConflict`, …
        public let code: String
        public let message: String?

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            code = try container.decodeIfPresent(String.self, forKey: .code) ?? "None"
            message = try container.decodeIfPresent(String.self, forKey: .message)
        }
        enum CodingKeys: String, CodingKey { case code = "Code", message = "Message" }

        init(code: String, message: String?) {
            self.code = code
            self.message = message
        }

        /// The item itself was refused (a number out of range, an item too large): DynamoDB
        /// says `ValidationError`, some servers `ValidationException`.
        public var isValidation: Bool { code == "ValidationError" || code == "ValidationException" }

        /// The same reason, its texts through `redactor`.
        func redacted(by redactor: SecretRedactor) -> CancellationReason {
            CancellationReason(code: redactor.redact(code), message: message.map(redactor.redact))
        }
    }

    /// The operation, e.g. `TransactWriteItems`.
    public let operation: String
    /// The HTTP status; nil when no response came back.
    public let status: Int?
    public let code: Code
    /// The exception's short name (`ConditionalCheckFailedException`), `HTTP <status>` when the
    /// response named none, or `transport` when no response came back.
    public let type: String
    public let message: String
    public let cancellationReasons: [CancellationReason]

    init(
        operation: String, status: Int?, code: Code, type: String, message: String,
        cancellationReasons: [CancellationReason] = []
    ) {
        self.operation = operation
        self.status = status
        self.code = code
        self.type = type
        self.message = message
        self.cancellationReasons = cancellationReasons
    }

    static func transport(_ operation: String, _ message: String) -> DynamoDBError {
        DynamoDBError(operation: operation, status: nil, code: .transport, type: "transport", message: message)
    }

    /// The JSON members of an error body.
    private struct Body: Decodable {
        let type: String?
        let message: String?
        let reasons: [CancellationReason]?
        enum CodingKeys: String, CodingKey {
            case type = "__type", message, capitalMessage = "Message", reasons = "CancellationReasons"
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try? container.decodeIfPresent(String.self, forKey: .type)
            message =
                (try? container.decodeIfPresent(String.self, forKey: .message))
                ?? (try? container.decodeIfPresent(String.self, forKey: .capitalMessage))
            reasons = try? container.decodeIfPresent([CancellationReason].self, forKey: .reasons)
        }
    }

    /// Parses an error response: the type from the JSON `__type` (after its `#`), the
    /// `x-amzn-errortype` header (before its `:`) or an XML `<Code>`; the message from
    /// `message`/`Message`/`<Message>`. A body that is none of these (an HTML page from a proxy
    /// or load balancer) gives the status and a short excerpt of its text. Every text taken from
    /// the response goes through `redactor` first: a server may echo the request's headers
    /// (docs/dynamodb.md, "Secrets in messages").
    init(
        operation: String, status: Int, errorTypeHeader: String?, body: Data,
        redactor: SecretRedactor = SecretRedactor()
    ) {
        let json = try? JSONDecoder().decode(Body.self, from: body)
        var type = json?.type.map { String($0.split(separator: "#").last ?? "") }
        if type?.isEmpty ?? true, let header = errorTypeHeader, !header.isEmpty {
            type = String(header.split(separator: ":").first ?? "")
        }
        // Read as text only when it is not DynamoDB's JSON (XML, an HTML page).
        let text =
            json?.message != nil && !(type?.isEmpty ?? true)
            ? "" : redactor.redact(String(decoding: body.prefix(64 << 10), as: UTF8.self))
        if type?.isEmpty ?? true, let code = Self.xmlElement("Code", in: text) {
            type = code  // authentication errors of some servers (moto) come as XML
        }
        let message =
            json?.message.map(redactor.redact) ?? Self.xmlElement("Message", in: text)
            ?? Self.excerpt(String(text.prefix(4000)), status: status)
        if let type, !type.isEmpty {
            let reasons = (json?.reasons ?? []).map { $0.redacted(by: redactor) }
            self.init(
                operation: operation, status: status, code: Code(type: type), type: redactor.redact(type),
                message: message,
                cancellationReasons: reasons)
        } else {
            self.init(
                operation: operation, status: status, code: .http(status), type: "HTTP \(status)", message: message)
        }
    }

    private static func xmlElement(_ name: String, in text: String) -> String? {
        guard let start = text.range(of: "<\(name)>"),
            let end = text.range(of: "</\(name)>", range: start.upperBound..<text.endIndex)
        else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }

    /// A readable excerpt of a non-JSON body: an HTML page's title and text without its tags and
    /// scripts, whitespace collapsed, at most 200 characters.
    static func excerpt(_ text: String, status: Int) -> String {
        var plain = text
        for element in ["script", "style", "head"] {
            while let start = plain.range(of: "<\(element)", options: .caseInsensitive),
                let end = plain.range(
                    of: "</\(element)>", options: .caseInsensitive, range: start.upperBound..<plain.endIndex)
            {
                let title =
                    element == "head" ? xmlElement("title", in: String(plain[start.lowerBound..<end.upperBound])) : nil
                plain.replaceSubrange(start.lowerBound..<end.upperBound, with: title.map { " \($0): " } ?? " ")
            }
        }
        plain = plain.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression)
        let words = plain.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let short = words.count > 200 ? words.prefix(200) + "…" : Substring(words)
        return "the server answered HTTP \(status) with a non-JSON body" + (short.isEmpty ? "" : ": \(short)")
    }

    /// Throttling, transaction conflicts, server errors, 429 and transport failures: worth
    /// another try after a pause. Validation errors and failed conditions are not.
    public var isRetryable: Bool {
        switch code {
        case .transport, .retryableService: return true
        default: return status.map { $0 >= 500 || $0 == 429 } ?? false
        }
    }

    /// The service refused the request for its rate or the table's capacity: the throttling
    /// exceptions, HTTP 429, and HTTP 503 naming no other error. The adaptive rate slows the
    /// run on these (docs/dynamodb.md).
    public var isThrottling: Bool {
        switch code {
        case .retryableService(let type): return Self.throttlingTypes.contains(type)
        case .service(let type): return Self.throttlingTypes.contains(type)
        case .http(let status): return status == 429 || status == 503
        default: return status == 429
        }
    }

    /// The error types that mean "too fast" (botocore's list, DynamoDB's among them).
    static let throttlingTypes: Set<String> = [
        "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded", "Throttling",
        "ThrottledException", "RequestThrottledException", "TooManyRequestsException", "RequestThrottled",
        "SlowDown", "BandwidthLimitExceeded", "LimitExceededException", "TransactionInProgressException",
    ]

    public var description: String {
        let status = self.status.map { " (HTTP \($0))" } ?? ""
        return "\(operation): \(type)\(status): \(message)"
    }
}
