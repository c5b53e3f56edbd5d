import Foundation
import ImporterCore
import Logging
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// The lock a command holds on a SQLite store for its whole duration
/// (docs/writes.md#one-writer-per-store): `flock` on `<store>.lock` beside the store. A run, a
/// restore or a migration holds it alone; an export or a dry run shares it with other readers.
/// The operating system lets go of it when the process ends, however it ends, so a killed run
/// never leaves the store locked and its checkpoint can be resumed.
///
/// The library's `ItemStore` takes no such lock: it writes through SQLite's own locking, one
/// transaction at a time, beside a run.
package final class StoreLock: Sendable {
    package enum Access: Sendable {
        /// One holder, no readers: a run, a restore, a migration.
        case exclusive
        /// Any number of readers, no writer: an export, a dry run.
        case shared
    }

    /// Who holds the lock, as written into the lock file for those who find it taken.
    package struct Holder: Codable, Sendable, Equatable {
        /// `run`, `restore`, `migrate`, `export`, `validate`.
        package var command: String
        package var runId: String
        package var pid: Int32
        package var host: String
        package var since: Date

        /// This process, now.
        package init(command: String, runId: String) {
            self.command = command
            self.runId = runId
            pid = getpid()
            host = ProcessInfo.processInfo.hostName
            since = Date()
        }
    }

    /// The lock file beside the store at `storePath`.
    package static func lockPath(forStore storePath: String) -> String { storePath + ".lock" }

    private let descriptor: Mutex<Int32>

    /// Takes the lock on the store at `storePath`, waiting up to `wait` seconds while another
    /// process holds it; then throws `StoreInUseError`. Creates the store's folder if needed.
    /// Tells `logger` (a notice) when it starts to wait.
    package init(
        store storePath: String, access: Access, holder: Holder, wait: Double = 0,
        logger: Logger = Logger(label: "importer.sqlite")
    ) throws {
        let path = Self.lockPath(forStore: storePath)
        let folder = FilePaths.directory(of: storePath)
        if !folder.isEmpty {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else {
            throw StoreLockError(path: path, operation: "open", code: errno)
        }
        let deadline = Date().addingTimeInterval(max(0, wait))
        var announced = false
        while flock(fd, (access == .exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(fd)
                throw StoreLockError(path: path, operation: "flock", code: code)
            }
            guard Date() < deadline else {
                let holder = Self.currentHolder(fd)
                close(fd)
                throw StoreInUseError(store: storePath, holder: holder, waited: wait)
            }
            if !announced {
                announced = true
                let holder = Self.currentHolder(fd)
                let who = holder.map { "\($0.command) \($0.runId) (pid \($0.pid))" } ?? "another importer process"
                logger.notice("\(storePath) is in use by \(who); waiting up to \(Int(wait.rounded(.up))) s")
            }
            usleep(50_000)
        }
        Self.writeHolder(holder, to: fd)
        descriptor = Mutex(fd)
    }

    /// Lets go of the lock (also done when the process ends).
    package func release() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            close(fd)  // closing the only descriptor of the open file releases its flock
            fd = -1
        }
    }

    deinit { release() }

    private static func writeHolder(_ holder: Holder, to fd: Int32) {
        guard let data = try? encoder.encode(holder) else { return }
        _ = ftruncate(fd, 0)
        _ = data.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    /// The holder named in the lock file. A holder writes itself there just after it takes
    /// the lock, so the file may still name an earlier one, whose process has ended: read it
    /// again for a moment until it names a live process (on this host) or nobody.
    private static func currentHolder(_ fd: Int32) -> Holder? {
        let host = ProcessInfo.processInfo.hostName
        var holder = readHolder(fd)
        for _ in 0..<50 {
            if let named = holder, named.host != host || kill(named.pid, 0) == 0 || errno != ESRCH { return named }
            usleep(10_000)
            holder = readHolder(fd)
        }
        return nil
    }

    private static func readHolder(_ fd: Int32) -> Holder? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return try? decoder.decode(Holder.self, from: Data(buffer[..<count]))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

/// Another process holds the store's lock (exit 2: nothing was written).
package struct StoreInUseError: Error, CustomStringConvertible, Sendable {
    package let store: String
    /// Who holds it, as it wrote itself into the lock file (nil if unreadable).
    package let holder: StoreLock.Holder?
    package let waited: Double

    package var description: String { "\(store): \(message)" }

    /// What happened and what to do, without the store's path.
    package var message: String {
        let who =
            holder.map {
                "\($0.command) \($0.runId) (pid \($0.pid), host \($0.host)) since \(ISO8601DateFormatter().string(from: $0.since))"
            } ?? "another importer process"
        let waitedText = waited > 0 ? String(format: " after waiting %g s", waited) : ""
        return "store in use by \(who)\(waitedText); wait for it to finish, or pass --wait SECONDS to wait for it"
    }
}

/// The lock file could not be opened or locked.
package struct StoreLockError: Error, CustomStringConvertible, Sendable {
    package let path: String
    package let operation: String
    package let code: Int32

    package var description: String {
        let hint = code == ELOOP ? " (it is a symbolic link; remove it)" : ""
        return "\(path): cannot \(operation) the store's lock file: \(String(cString: strerror(code)))\(hint)"
    }
}
