import Dispatch
import Synchronization

/// Checks an export's data files a few at a time (each check reads a whole file: from S3 it is
/// bound by the network, from disk by gunzip and MD5), and reports the failure of the first file
/// in manifest order, whichever failed first in time, so the message does not depend on timing.
package enum ExportChecks {
    /// Files checked at once.
    package static let width = 4

    /// Runs `check(index)` for every index below `count`, at most `width` at a time; rethrows
    /// the error of the lowest index that failed (the checks of later files still finish).
    package static func run(count: Int, width: Int = ExportChecks.width, _ check: @Sendable (Int) throws -> Void) throws
    {
        let next = Atomic<Int>(0)
        let failures = Mutex<[(index: Int, error: any Error)]>([])
        DispatchQueue.concurrentPerform(iterations: min(width, count)) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < count else { return }
                do { try check(index) } catch {
                    failures.withLock { $0.append((index, error)) }
                }
            }
        }
        if let first = failures.withLock({ $0.min { $0.index < $1.index } }) { throw first.error }
    }
}
