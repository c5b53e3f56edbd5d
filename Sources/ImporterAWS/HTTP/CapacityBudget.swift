import Foundation
import Synchronization

/// A budget of units a second (`write.maxWCU`): each request reserves its units before it is
/// sent and goes when the budget reaches it, so over any span of t seconds at most
/// `unitsPerSecond × t` plus one request's units are spent. Requests are paced one after the
/// other (the next may start once the last one's units are paid for), in the order they ask.
package final class CapacityBudget: Sendable {
    package let unitsPerSecond: Double
    /// When the units reserved so far are paid for.
    private let paidUntil: Mutex<Double?>
    private let clock: SecondsClock

    package init(unitsPerSecond: Double, clock: @escaping SecondsClock = monotonicSeconds) {
        self.unitsPerSecond = unitsPerSecond
        self.clock = clock
        paidUntil = Mutex(nil)
    }

    /// Reserves `units`: the seconds to wait before spending them.
    package func reserve(_ units: Double) -> Double {
        let now = clock()
        return paidUntil.withLock { paid in
            let start = max(now, paid ?? now)
            paid = start + units / unitsPerSecond
            return start - now
        }
    }

    /// Reserves `units` and waits (suspended) until they may be spent.
    package func spend(_ units: Double) async throws {
        let wait = reserve(units)
        if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait * 1e9)) }
    }

    /// Units spent beyond what was reserved (the service counted more): later requests wait
    /// for them too.
    package func charge(_ units: Double) {
        guard units > 0 else { return }
        let now = clock()
        paidUntil.withLock { paid in paid = max(now, paid ?? now) + units / unitsPerSecond }
    }
}
