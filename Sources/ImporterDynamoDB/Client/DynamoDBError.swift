import Foundation

/// A failed DynamoDB call: the service's error (`__type` / `x-amzn-errortype`, `message`), an
/// HTTP status without one, or a transport failure (connection refused or reset, timeout).
public struct DynamoDBError: Error, CustomStringConvertible, Sendable {
    /// The operation, e.g. `TransactWriteItems`.
    public let operation: String
    /// The HTTP status; nil when no response came back.
    public let status: Int?
    /// The exception's short name (`ConditionalCheckFailedException`), `HTTP <status>` when the
    /// response named none, or `transport` when no response came back.
    public let type: String
    public let message: String
    /// Per action of a cancelled transaction: the reason's code (`None`,
    /// `ConditionalCheckFailed`, `ValidationError`, `TransactionConflict`, …) and message.
    public let cancellationReasons: [(code: String, message: String?)]

    init(operation: String, status: Int?, type: String, message: String,
         cancellationReasons: [(code: String, message: String?)] = []) {
        self.operation = operation
        self.status = status
        self.type = type
        self.message = message
        self.cancellationReasons = cancellationReasons
    }

    /// Parses an error response: the type from the JSON `__type` (after its `#`) or the
    /// `x-amzn-errortype` header (before its `:`), the message from `message` or `Message`.
    init(operation: String, status: Int, errorTypeHeader: String?, body: [UInt8]) {
        let json = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        let text = String(decoding: body.prefix(2000), as: UTF8.self)
        var type = (json?["__type"] as? String).map { String($0.split(separator: "#").last ?? "") }
        if type?.isEmpty ?? true, let header = errorTypeHeader, !header.isEmpty {
            type = String(header.split(separator: ":").first ?? "")
        }
        if type?.isEmpty ?? true, let code = Self.xmlElement("Code", in: text) {
            type = code  // authentication errors of some servers (moto) come as XML
        }
        let message = json?["message"] as? String ?? json?["Message"] as? String ?? Self.xmlElement("Message", in: text)
            ?? String(text.prefix(300)).trimmingCharacters(in: .whitespacesAndNewlines)
        let reasons = (json?["CancellationReasons"] as? [[String: Any]] ?? []).map {
            (code: $0["Code"] as? String ?? "None", message: $0["Message"] as? String)
        }
        self.init(operation: operation, status: status, type: type ?? "HTTP \(status)", message: message,
                  cancellationReasons: reasons)
    }

    private static func xmlElement(_ name: String, in text: String) -> String? {
        guard let start = text.range(of: "<\(name)>"), let end = text.range(of: "</\(name)>", range: start.upperBound..<text.endIndex) else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }

    /// Throttling, transaction conflicts, server errors, 429 and transport failures: worth
    /// another try after a pause. Validation errors and failed conditions are not.
    public var isRetryable: Bool {
        if type == "transport" { return true }
        if Self.retryableTypes.contains(type) { return true }
        if let status, status >= 500 || status == 429 { return true }
        return false
    }

    static let retryableTypes: Set<String> = [
        "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded",
        "TransactionConflictException", "TransactionInProgressException", "InternalServerError",
        "ServiceUnavailable", "LimitExceededException",
    ]

    public var description: String {
        let status = self.status.map { " (HTTP \($0))" } ?? ""
        return "\(operation): \(type)\(status): \(message)"
    }
}
