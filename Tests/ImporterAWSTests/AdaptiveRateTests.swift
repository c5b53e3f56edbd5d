import Synchronization
import XCTest
@testable import ImporterAWS

/// The adaptive rate's and the capacity budget's arithmetic, on made-up times (no sleeping).
final class AdaptiveRateTests: XCTestCase {
    /// Responses at 10 a second from `start` until before `end`, none throttled.
    private func succeed(_ rate: inout AdaptiveRate, from start: Double, to end: Double) {
        for step in 0..<Int(((end - start) * 10).rounded(.up)) {
            rate.record(throttled: false, now: start + Double(step) / 10)
        }
    }

    func testUnlimitedUntilTheFirstThrottleThenThrottlesCutTheRateBySeventyPercent() {
        var rate = AdaptiveRate(now: 0)
        succeed(&rate, from: 0, to: 2)
        XCTAssertFalse(rate.enabled)
        XCTAssertEqual((0..<100).map { _ in rate.reserve(now: 2) }.max(), 0, "no wait before a throttle")
        XCTAssertEqual(rate.measuredRate, 10, accuracy: 1.5, "smoothed over half-second buckets")

        rate.record(throttled: true, now: 2)
        XCTAssertTrue(rate.enabled)
        let measured = rate.measuredRate
        XCTAssertEqual(rate.fillRate, 0.7 * measured, accuracy: 1e-9, "the rate sent at, times beta")

        // Requests at one instant: once the bucket is empty, each waits 1/rate longer than the one before.
        let waits = (0..<20).map { _ in rate.reserve(now: 2) }
        let queued = waits.filter { $0 > 0 }
        XCTAssertGreaterThan(queued.count, 10)
        for (earlier, later) in zip(queued, queued.dropFirst()) {
            XCTAssertEqual(later - earlier, 1 / rate.fillRate, accuracy: 1e-9)
        }

        // A second throttle at once cuts again, from the lower rate.
        let before = rate.fillRate
        rate.record(throttled: true, now: 2.01)
        XCTAssertEqual(rate.fillRate, 0.7 * min(before, rate.measuredRate), accuracy: 1e-9)
    }

    func testSuccessesClimbBackAlongTheCubicToTheRateThrottledAtAndPastIt() {
        var rate = AdaptiveRate(now: 0)
        succeed(&rate, from: 0, to: 2)
        rate.record(throttled: true, now: 2)
        let throttledAt = rate.fillRate / 0.7
        let zeroPoint = cbrt(throttledAt * 0.3 / 0.4)

        var rates: [Double] = []
        var now = 2.1
        while now < 2 + zeroPoint {
            rate.record(throttled: false, now: now)
            rates.append(rate.fillRate)
            now += 0.1
        }
        XCTAssertEqual(rates, rates.sorted(), "the rate only climbs while successes come")
        XCTAssertLessThan(rates.last!, throttledAt)
        rate.record(throttled: false, now: 2 + zeroPoint)
        XCTAssertEqual(rate.fillRate, throttledAt, accuracy: 1e-9, "back at the rate throttled at after k seconds")
        succeed(&rate, from: 2 + zeroPoint + 0.1, to: 2 + zeroPoint + 1.5)
        XCTAssertGreaterThan(rate.fillRate, throttledAt, "then past it, probing for more")
        XCTAssertLessThanOrEqual(rate.fillRate, 2 * rate.measuredRate + 1e-9, "never more than twice the rate measured")
    }

    func testTheRateNeverFallsUnderHalfARequestASecond() {
        var rate = AdaptiveRate(now: 0)
        succeed(&rate, from: 0, to: 1)
        for i in 0..<50 { rate.record(throttled: true, now: 1 + Double(i) * 0.01) }
        XCTAssertEqual(rate.fillRate, 0.5)
        XCTAssertEqual(rate.throttles, 50)
    }

    func testTheBudgetPacesUnitsAndMakesLaterRequestsPayForUnitsConsumedBeyondTheEstimate() {
        let clock = TestClock()
        let budget = CapacityBudget(unitsPerSecond: 100, clock: clock.read)
        XCTAssertEqual(budget.reserve(25), 0)
        XCTAssertEqual(budget.reserve(25), 0.25, accuracy: 1e-12)
        XCTAssertEqual(budget.reserve(50), 0.5, accuracy: 1e-12)
        XCTAssertEqual(budget.reserve(10), 1.0, accuracy: 1e-12, "100 units reserved: the next goes after one second")
        clock.set(2)
        XCTAssertEqual(budget.reserve(10), 0, "an idle budget does not save up")
        budget.charge(30)
        XCTAssertEqual(budget.reserve(1), 0.4, accuracy: 1e-12, "the 10 reserved and 30 more consumed are paid first")
        budget.charge(-5)
        XCTAssertEqual(budget.reserve(1), 0.41, accuracy: 1e-12, "consuming less than reserved gives nothing back")
    }
}

/// A clock the test moves.
private final class TestClock: Sendable {
    private let now = Mutex(0.0)
    func set(_ seconds: Double) { now.withLock { $0 = seconds } }
    var read: SecondsClock { { [self] in now.withLock { $0 } } }
}
