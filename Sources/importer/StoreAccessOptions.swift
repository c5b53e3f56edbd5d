import ArgumentParser
import Foundation
import ImporterCore
import ImporterSQLite

/// How long a command waits for a SQLite store that another run holds (docs/writes.md#one-writer-per-store).
struct StoreAccessOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Wait up to this long for a SQLite store another importer process is using, then exit 2 (default 0: do not wait).",
            valueName: "SECONDS"))
    var wait: Double = 0

    func validate() throws {
        guard wait >= 0, wait.isFinite else {
            throw ValidationError("--wait expects a number of seconds ≥ 0, got \(wait)")
        }
    }
}

/// The lock a command asks for on a SQLite store, and who asks.
struct StoreLockRequest {
    let access: StoreLock.Access
    let holder: StoreLock.Holder
    let wait: Double

    init(_ access: StoreLock.Access, command: String, runId: String = UUID().uuidString.lowercased(), wait: Double) {
        self.access = access
        holder = StoreLock.Holder(command: command, runId: runId)
        self.wait = wait
    }

    /// Takes the lock on the store at `path`; `ConfigurationError` (exit 2) if it cannot.
    func take(_ path: String) throws -> StoreLock {
        do {
            return try StoreLock(store: path, access: access, holder: holder, wait: wait)
        } catch let error as StoreInUseError {
            throw ConfigurationError(file: path, error.message)
        } catch {
            throw ConfigurationError(file: path, "\(error)")
        }
    }
}
