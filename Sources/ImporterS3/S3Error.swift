import Foundation
import ImporterAWS
import ImporterCore

/// A request S3 refused or could not answer: the operation, the object, S3's error code and
/// message, and what to check. Never carries a credential: S3's texts go through the client's
/// `SecretRedactor` (docs/dynamodb.md, "Secrets in messages").
package struct S3Error: Error, CustomStringConvertible, Sendable {
    package let operation: String
    package let location: String
    /// The HTTP status; nil when no response came back.
    package let status: Int?
    /// S3's error code (`NoSuchBucket`, `AccessDenied`, …), or nil without one.
    package let code: String?
    package let message: String

    package var description: String {
        var text = "\(location): \(operation) failed"
        if let status { text += " (HTTP \(status)\(code.map { ", \($0)" } ?? ""))" }
        if !message.isEmpty { text += ": \(message)" }
        if let hint = hint { text += "; \(hint)" }
        return text
    }

    /// What to check: an upload's refusal names the permissions an upload needs, a read's
    /// those a read needs.
    private var hint: String? {
        if code == "AccessDenied" && Self.uploadOperations.contains(operation) { return Self.uploadDeniedHint }
        return Self.hints[code ?? ""] ?? (status == 412 ? Self.changedHint : nil)
    }

    /// The requests of an upload (`export --out s3://…`).
    static let uploadOperations: Set<String> = [
        "PutObject", "CreateMultipartUpload", "UploadPart", "CompleteMultipartUpload", "AbortMultipartUpload",
    ]

    static let uploadDeniedHint =
        "the credentials in use may not write this object: an upload in parts needs s3:PutObject on the key (for CreateMultipartUpload, UploadPart and CompleteMultipartUpload) and s3:AbortMultipartUpload to clean up after a failure; check the IAM policy, the bucket policy and AWS_PROFILE"

    static let changedHint = "the object changed while it was read (its ETag is not the one listed); run again"

    /// What a user should check for each refusal.
    static let hints: [String: String] = [
        "NoSuchBucket": "check the bucket name in the path and the region (AWS_REGION) or endpoint",
        "NoSuchKey": "check the key in the path; keys are case-sensitive",
        "AccessDenied":
            "the credentials in use may not read this object: check the IAM policy (s3:GetObject, s3:ListBucket) and AWS_PROFILE",
        "InvalidAccessKeyId":
            "the access key is unknown to this endpoint: check AWS_ACCESS_KEY_ID or AWS_PROFILE, and the endpoint",
        "SignatureDoesNotMatch":
            "the secret key does not match the access key, or the region is wrong: check AWS_SECRET_ACCESS_KEY and AWS_REGION",
        "PermanentRedirect": "the bucket is in another region: set AWS_REGION to the bucket's region",
        "AuthorizationHeaderMalformed": "the region is wrong: set AWS_REGION to the bucket's region",
        "ExpiredToken": "the session token expired: refresh the credentials",
    ]

    /// The error a failed response carries (`<Error><Code>…</Code><Message>…</Message></Error>`).
    /// Its code and message through `redactor`: a server may echo the request's headers.
    init(operation: String, location: String, response: HTTPResponse, redactor: SecretRedactor) {
        self.operation = operation
        self.location = location
        status = response.status
        let xml = try? XMLElementNode.parse(Array(response.body), file: location)
        code = xml?.childText("Code").map(redactor.redact)
        message = xml?.childText("Message").map(redactor.redact) ?? ""
    }

    init(operation: String, location: String, status: Int?, code: String?, message: String) {
        self.operation = operation
        self.location = location
        self.status = status
        self.code = code
        self.message = message
    }

    /// Whether another attempt may succeed (throttling, server errors).
    var isRetryable: Bool { status == 429 || (status ?? 0) >= 500 || code == "SlowDown" || code == "RequestTimeout" }
}
