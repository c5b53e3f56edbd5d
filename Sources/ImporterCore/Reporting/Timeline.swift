import Dispatch
import Synchronization

extension RunReport {
    /// What the run's stages did over time, sampled every `intervalSeconds`
    /// (docs/reports.md#timeline): records read, written (inserted, updated or unchanged) and
    /// rejected, and the store's retries (throttling, timeouts), in each interval; the last
    /// interval ends with the run, so it may be shorter.
    package struct Timeline: Codable, Sendable, Equatable {
        /// 1 second, doubled each time the run outgrows `TimelineSampler.maximumSamples`.
        package var intervalSeconds: Int
        package var read: [Int]
        package var written: [Int]
        package var rejected: [Int]
        package var retries: [Int]
    }
}

/// Samples a run's totals every second, on a timer of its own, into a `RunReport.Timeline`.
/// A long run keeps at most `maximumSamples` samples: when it would keep more, every other
/// sample is dropped and the interval doubles (the totals are cumulative, so nothing is lost).
final class TimelineSampler {
    static let maximumSamples = 600

    private let samples: Samples
    private let timer: DispatchSourceTimer

    /// Starts sampling `recorder`.
    init(_ recorder: RunRecorder) {
        let samples = Samples(recorder: recorder)
        self.samples = samples
        timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { samples.tick() }
        timer.resume()
    }

    deinit { timer.cancel() }

    /// Stops sampling; the timeline up to now.
    func stop() -> RunReport.Timeline {
        timer.cancel()
        return samples.timeline()
    }

    /// The samples, which the timer's thread adds to.
    private final class Samples: Sendable {
        private struct State {
            var interval = 1
            /// Cumulative totals at the end of each interval.
            var totals: [RunRecorder.Totals] = []
            var ticks = 0
        }

        private let recorder: RunRecorder
        /// The totals when sampling began (a resumed run's earlier writes).
        private let baseline: RunRecorder.Totals
        private let state = Mutex(State())

        init(recorder: RunRecorder) {
            self.recorder = recorder
            baseline = recorder.totals
        }

        func tick() {
            let totals = recorder.totals
            state.withLock { state in
                state.ticks += 1
                guard state.ticks % state.interval == 0 else { return }
                state.totals.append(totals)
                if state.totals.count > TimelineSampler.maximumSamples {
                    state.totals = state.totals.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
                    state.interval *= 2
                }
            }
        }

        func timeline() -> RunReport.Timeline {
            let last = recorder.totals
            return state.withLock { state in
                var totals = state.totals
                if totals.last != last || totals.isEmpty { totals.append(last) }
                func per(_ value: (RunRecorder.Totals) -> Int) -> [Int] {
                    zip([baseline] + totals, totals).map { value($1) - value($0) }
                }
                return RunReport.Timeline(
                    intervalSeconds: state.interval, read: per(\.read), written: per(\.written),
                    rejected: per(\.rejected), retries: per(\.retries))
            }
        }
    }
}
