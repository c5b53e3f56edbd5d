/// A failure of the store as a whole, by kind: a run stops (exit 3; committed batches stay) and
/// a library call throws it with nothing of the call written (docs/library.md#errors).
///
/// Match on `kind` to tell a full disk from throttling from an item too large; `entity`, `key`
/// and `operation` say what was being done, `underlying` is the error the store got (a
/// `SQLiteError`, a `DynamoDBError`, a file system error).
///
///     catch let error as StoreError where error.kind == .throttled { … }
public struct StoreError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The storage failed or refused: SQLite's extended result code (`SQLITE_FULL`, 13, is a
        /// full disk; `SQLITE_IOERR`, 10, an I/O error), nil for a file of the store's own
        /// (a checkpoint, staged rows).
        case storage(resultCode: Int32?)
        /// The service refused for its rate or the table's capacity, past the retries.
        case throttled
        /// An item larger than the store takes (DynamoDB's 400 KB).
        case itemTooLarge
        /// The store holds another model, version or checksum than the one it is opened for.
        case modelMismatch(recorded: ModelIdentity, expected: ModelIdentity)
        /// Another writer changed what this one was writing, or holds the store.
        case conflictingWriter
        /// No answer came from the service (connection refused or reset, a timeout).
        case network
        /// The service refused the request for another reason: its error type
        /// (`ValidationException`, `HTTP 403`, …).
        case refused(type: String)
        /// More changes in one transaction than the store applies at once (DynamoDB's 100).
        case transactionTooLarge(limit: Int)
        /// The saved state of an interrupted run or migration (checkpoint, staged rows) is
        /// missing, unreadable or not this run's; the message says how to start over.
        case unusableCheckpoint
        /// A migration of the store is unfinished: finish it (`importer migrate`) first.
        case unfinishedMigration(to: Int)
        /// The store was not prepared for the model or entity it is asked about (`prepare`).
        case notPrepared
        /// The store did not become ready in time (a DynamoDB table still creating).
        case timedOut
        /// A table the model needs does not exist, and the store may not create it.
        case missingTable(String)
        /// A table exists with other keys than the model needs.
        case tableKeyMismatch(String)
        /// A setting the store cannot work with, by its name (`transactionSize`).
        case invalidSetting(String)
    }

    public let kind: Kind
    /// What happened, for people: the store's location first (a file, a table).
    public let message: String
    /// The entity whose write, read or table failed, when one did.
    public var entity: String?
    /// The key of the item concerned, when one is.
    public var key: Value?
    /// The store's operation that failed (`commit`, `TransactWriteItems`, …).
    public var operation: String?
    /// The error the store got, if any.
    public var underlying: (any Error)?

    public init(
        _ kind: Kind, _ message: String, entity: String? = nil, key: Value? = nil, operation: String? = nil,
        underlying: (any Error)? = nil
    ) {
        self.kind = kind
        self.message = message
        self.entity = entity
        self.key = key
        self.operation = operation
        self.underlying = underlying
    }

    public var description: String { message }

    /// The storage ran out of space (SQLite's `SQLITE_FULL`).
    public var isDiskFull: Bool {
        if case .storage(let code?) = kind { return code & 0xFF == 13 }
        return false
    }
}

extension StoreError.Kind {
    /// The kind's name without its values (`storage`, `throttled`, …), as report.json's
    /// `storeFailure` gives it.
    public var name: String {
        switch self {
        case .storage: "storage"
        case .throttled: "throttled"
        case .itemTooLarge: "itemTooLarge"
        case .modelMismatch: "modelMismatch"
        case .conflictingWriter: "conflictingWriter"
        case .network: "network"
        case .refused: "refused"
        case .transactionTooLarge: "transactionTooLarge"
        case .unusableCheckpoint: "unusableCheckpoint"
        case .unfinishedMigration: "unfinishedMigration"
        case .notPrepared: "notPrepared"
        case .timedOut: "timedOut"
        case .missingTable: "missingTable"
        case .tableKeyMismatch: "tableKeyMismatch"
        case .invalidSetting: "invalidSetting"
        }
    }
}
