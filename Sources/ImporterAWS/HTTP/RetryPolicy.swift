import Foundation
import Synchronization

/// Exponential backoff with full jitter (docs/writes.md): before attempt n+1 the caller sleeps a
/// random time in 0...min(maxDelay, baseDelay × 2ⁿ).
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first one included.
    public var maxAttempts: Int
    public var baseDelay: Double
    public var maxDelay: Double

    public init(maxAttempts: Int = 8, baseDelay: Double = 0.05, maxDelay: Double = 5) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// After failed attempt number `attempt`: false when no attempt is left; else counts a
    /// retry for `entity`, sleeps the backoff (suspending, not blocking) and moves `attempt` on.
    ///
    /// With `usingAnAttempt: false` (a throttle while the run makes progress, docs/dynamodb.md) the
    /// retry is counted and the backoff slept, but `attempt` stays: throttling slows a run,
    /// it does not end it.
    package func backOff(
        after attempt: inout Int, counting retries: RetryCounter?, entity: String,
        usingAnAttempt: Bool = true
    ) async throws -> Bool {
        guard !usingAnAttempt || attempt < maxAttempts else { return false }
        retries?.add(1, for: entity)
        let ceiling = min(maxDelay, baseDelay * pow(2, Double(min(attempt - 1, 30))))
        if ceiling > 0 { try await Task.sleep(nanoseconds: UInt64(Double.random(in: 0...ceiling) * 1e9)) }
        if usingAnAttempt { attempt += 1 }
        return true
    }
}

/// Retries counted across tasks, per entity, for the report.
package final class RetryCounter: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    package init() {}

    package func add(_ retries: Int, for entity: String) {
        guard retries > 0 else { return }
        counts.withLock { $0[entity, default: 0] += retries }
    }

    /// The retries counted for `entity` since the last call, and resets them.
    package func take(for entity: String) -> Int {
        counts.withLock { $0.removeValue(forKey: entity) ?? 0 }
    }
}
