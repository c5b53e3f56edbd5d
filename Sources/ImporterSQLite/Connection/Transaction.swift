import CSQLite

/// How a transaction takes its locks (SQLite's `BEGIN DEFERRED` / `BEGIN IMMEDIATE`).
enum TransactionKind {
    /// Reads take a shared lock when they start, a write the write lock: a read snapshot.
    case deferred
    /// Takes the write lock at once, so the transaction cannot fail later for lack of it.
    case immediate

    var sql: String {
        switch self {
        case .deferred: return "BEGIN DEFERRED"
        case .immediate: return "BEGIN IMMEDIATE"
        }
    }
}

/// What a transaction's body asks for when it returns.
enum TransactionCompletion {
    case commit, rollback
}

extension Database {
    /// Runs `body` in a transaction: commits when it returns `.commit`, rolls back when it
    /// returns `.rollback` or throws (then its error is rethrown). A failed COMMIT is rolled
    /// back too. Not for nesting: inside a transaction, BEGIN fails.
    ///
    ///     try database.inTransaction(.immediate) {
    ///         try database.execute(insert, [.string("a")])
    ///         return .commit
    ///     }
    func inTransaction(_ kind: TransactionKind = .immediate, _ body: () throws -> TransactionCompletion) throws {
        try begin(kind)
        let completion: TransactionCompletion
        do {
            completion = try body()
        } catch {
            rollBackQuietly()
            throw error
        }
        switch completion {
        case .commit:
            do {
                try commit()
            } catch {
                rollBackQuietly()
                throw error
            }
        case .rollback:
            try rollBack()
        }
    }

    /// Begins a transaction that spans several calls (a batch of the store); `commit` or
    /// `rollBack` ends it. Scoped work uses `inTransaction`.
    func begin(_ kind: TransactionKind) throws {
        try cached(kind.sql).execute()
    }

    func commit() throws {
        try cached("COMMIT").execute()
    }

    /// Rolls back the open transaction, if there is one (SQLite may have rolled it back already,
    /// after an error such as SQLITE_FULL).
    func rollBack() throws {
        guard !isAutocommit else { return }
        try cached("ROLLBACK").execute()
    }

    /// `rollBack` on a path that is already throwing another error: that error is the one to
    /// report. A rollback that fails leaves the transaction open, and the next BEGIN says so.
    func rollBackQuietly() {
        try? rollBack()
    }
}
