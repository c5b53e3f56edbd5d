import Foundation
import ImporterCore

extension StoreError {
    /// A failed DynamoDB call as a failure of the store at `table`, by what the service said:
    /// throttling, no answer (network), an item too large, a failed condition or transaction
    /// conflict (another writer), else refused with the service's error type.
    static func dynamoDB(
        _ error: DynamoDBError, at table: String, _ message: String? = nil, entity: String? = nil,
        key: Value? = nil
    ) -> StoreError {
        let text = [table, message, "\(error)"].compactMap { $0 }.joined(separator: ": ")
        return StoreError(
            kind(of: error), text, entity: entity, key: key, operation: error.operation, underlying: error)
    }

    /// The kind of failure a DynamoDB error is.
    static func kind(of error: DynamoDBError) -> Kind {
        if error.isThrottling { return .throttled }
        let reasons = error.cancellationReasons.map(\.code)
        switch error.code {
        case .transport: return .network
        case .conditionalCheckFailed: return .conflictingWriter
        case .transactionCanceled
        where reasons.contains("ThrottlingError") || reasons.contains("ProvisionedThroughputExceeded"):
            return .throttled
        case .transactionCanceled
        where reasons.contains("ConditionalCheckFailed") || reasons.contains("TransactionConflict"):
            return .conflictingWriter
        case .validation: return validationKind(error.message, type: error.type)
        default: return .refused(type: error.type)
        }
    }

    /// A validation error's kind by its message: DynamoDB's "Item size has exceeded …" is an
    /// item too large, anything else a refusal of `type`.
    static func validationKind(_ message: String, type: String) -> Kind {
        message.localizedCaseInsensitiveContains("item size") ? .itemTooLarge : .refused(type: type)
    }
}
