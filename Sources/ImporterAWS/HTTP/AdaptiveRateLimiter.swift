import Foundation
import Synchronization

/// Seconds on a monotonic clock; tests pass their own.
package typealias SecondsClock = @Sendable () -> Double

/// The system's monotonic clock, in seconds.
package let monotonicSeconds: SecondsClock = { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// The send rate of every request of a run (docs/dynamodb.md), as the AWS SDKs' adaptive retry mode
/// sets it: unlimited until a throttle, then a token bucket whose rate drops on each throttle
/// and climbs back on success (`AdaptiveRate`). Shared by all the tasks of a client.
package final class AdaptiveRateLimiter: Sendable {
    private let rate: Mutex<AdaptiveRate>
    private let clock: SecondsClock

    package init(clock: @escaping SecondsClock = monotonicSeconds) {
        self.clock = clock
        rate = Mutex(AdaptiveRate(now: clock()))
    }

    /// Waits (suspended) for the request's turn; returns at once while no throttle was met.
    package func acquire() async throws {
        let wait = rate.withLock { $0.reserve(now: clock()) }
        if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
    }

    /// A response came back: `throttled` when the service refused it for its rate.
    package func record(throttled: Bool) {
        rate.withLock { $0.record(throttled: throttled, now: clock()) }
    }

    /// Successful responses so far, to tell whether the run made progress.
    package var successes: Int { rate.withLock { $0.successes } }

    /// The state now (for tests and diagnostics).
    package var snapshot: AdaptiveRate { rate.withLock { $0 } }
}
