import Foundation

/// The arithmetic of the AWS SDKs' adaptive retry mode (botocore's `retries/adaptive.py`,
/// `bucket.py`, `throttling.py`), as a value with no clock of its own: every call is given
/// the time, so it is tested with made-up times. `AdaptiveRateLimiter` holds one under a lock.
///
/// - A token bucket of requests: `fillRate` tokens a second, at most `max(1, fillRate)` kept.
///   Off until the first throttle (an unthrottled run never waits); then each request takes a
///   token, waiting for it when the bucket is empty.
/// - The rate measured: responses a second, over half-second buckets, smoothed.
/// - CUBIC: a throttle sets the rate to 0.7 × the rate sent at (`beta`); successes raise it
///   along a cubic curve back to that rate within `k` seconds, then past it.
package struct AdaptiveRate: Sendable {
    static let beta = 0.7
    static let scale = 0.4
    /// Requests a second the rate never goes under.
    static let minRate = 0.5
    /// The rate is at most twice the measured one.
    static let maxRateAdjustScale = 2.0
    static let smoothing = 0.8
    static let measuringBucket = 0.5

    /// Requests are limited (a throttle was met).
    package private(set) var enabled = false
    /// Tokens (requests) a second while enabled.
    package private(set) var fillRate = 1.0
    /// Tokens now; negative while requests wait for theirs (each waiting request took one).
    package private(set) var tokens = 0.0
    /// The responses a second measured, smoothed.
    package private(set) var measuredRate = 0.0
    /// Successful responses so far: a throttled request whose run made progress since its last
    /// attempt does not use up an attempt.
    package private(set) var successes = 0
    package private(set) var throttles = 0

    private var capacity = 1.0
    private var lastRefill: Double?
    // CUBIC
    private var maxRateBeforeThrottle = 0.0
    private var zeroPoint = 0.0
    private var lastThrottle: Double
    // Measuring
    private var lastBucket: Double
    private var countInBucket = 0.0

    package init(now: Double) {
        lastThrottle = now
        lastBucket = now.rounded(.down)
    }

    /// Takes a token for one request: the seconds to wait before sending it (0 when off or
    /// when the bucket has a token).
    package mutating func reserve(now: Double) -> Double {
        guard enabled else { return 0 }
        refill(now: now)
        tokens -= 1
        return tokens >= 0 ? 0 : -tokens / fillRate
    }

    /// A response came: throttled (the rate drops) or not (the rate climbs back).
    package mutating func record(throttled: Bool, now: Double) {
        let measured = measure(now: now)
        let newRate: Double
        if throttled {
            throttles += 1
            let sentAt = enabled ? min(measured, fillRate) : measured
            newRate = throttleReceived(rate: sentAt, now: now)
            enabled = true
        } else {
            successes += 1
            newRate = successReceived(now: now)
        }
        setFillRate(min(newRate, Self.maxRateAdjustScale * measured), now: now)
    }

    // MARK: CUBIC

    private mutating func throttleReceived(rate: Double, now: Double) -> Double {
        maxRateBeforeThrottle = rate
        zeroPoint = Self.zeroPoint(rate)
        lastThrottle = now
        return rate * Self.beta
    }

    private func successReceived(now: Double) -> Double {
        Self.scale * pow(now - lastThrottle - zeroPoint, 3) + maxRateBeforeThrottle
    }

    /// The seconds after a throttle at which the cubic is back at the rate throttled at.
    private static func zeroPoint(_ rate: Double) -> Double { cbrt(rate * (1 - beta) / scale) }

    // MARK: Bucket

    private mutating func setFillRate(_ rate: Double, now: Double) {
        refill(now: now)
        let rate = max(rate, Self.minRate)
        capacity = max(rate, 1)
        tokens = min(tokens, capacity)
        fillRate = rate
    }

    private mutating func refill(now: Double) {
        if let lastRefill { tokens = min(capacity, tokens + max(0, now - lastRefill) * fillRate) }
        lastRefill = now
    }

    // MARK: Measuring

    private mutating func measure(now: Double) -> Double {
        let bucket = (now / Self.measuringBucket).rounded(.down) * Self.measuringBucket
        countInBucket += 1
        if bucket > lastBucket {
            let rate = countInBucket / (bucket - lastBucket)
            measuredRate = rate * Self.smoothing + measuredRate * (1 - Self.smoothing)
            countInBucket = 0
            lastBucket = bucket
        }
        return measuredRate
    }
}
