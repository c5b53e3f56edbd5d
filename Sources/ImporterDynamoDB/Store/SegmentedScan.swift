import Foundation

/// A parallel Scan (`Segment`/`TotalSegments`, each segment paginated) whose pages are handed
/// over in a fixed order: all of segment 0, then segment 1, and so on. Each segment's thread
/// fetches at most `pagesAhead` pages ahead, so memory stays bounded, and an unchanged table
/// gives the same sequence every time (a two-pass export's passes must agree byte for byte).
final class SegmentedScan: @unchecked Sendable {
    /// Fetches one page of a segment, after `startKey` (nil: the first page).
    typealias Fetch = @Sendable (_ segment: Int, _ startKey: [String: Any]?) throws -> [String: Any]

    private let segments: Int
    private let pagesAhead: Int
    private let fetch: Fetch
    private let condition = NSCondition()
    /// Fetched pages per segment; nil marks the segment's end.
    private var queues: [[Result<[String: Any]?, Error>]]
    private var stopped = false

    init(segments: Int, pagesAhead: Int = 2, fetch: @escaping Fetch) {
        self.segments = max(1, segments)
        self.pagesAhead = pagesAhead
        self.fetch = fetch
        queues = Array(repeating: [], count: self.segments)
    }

    /// Calls `body` with every page, in segment order, on the calling thread.
    func forEachPage(_ body: ([String: Any]) throws -> Void) throws {
        let finished = DispatchSemaphore(value: 0)
        for segment in 0..<segments {
            let thread = Thread { [self] in
                fetchAll(segment)
                finished.signal()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        defer {
            condition.lock()
            stopped = true
            condition.broadcast()
            condition.unlock()
            for _ in 0..<segments { finished.wait() }
        }
        for segment in 0..<segments {
            while let page = try take(segment) { try body(page) }
        }
    }

    private func fetchAll(_ segment: Int) {
        var startKey: [String: Any]?
        repeat {
            condition.lock()
            while queues[segment].count >= pagesAhead && !stopped { condition.wait() }
            let stop = stopped
            condition.unlock()
            if stop { return }
            let result = Result { try fetch(segment, startKey) }
            startKey = (try? result.get())?["LastEvaluatedKey"] as? [String: Any]
            put(result.map { $0 }, segment)
            if case .failure = result { return }
        } while startKey != nil
        put(.success(nil), segment)
    }

    private func put(_ result: Result<[String: Any]?, Error>, _ segment: Int) {
        condition.lock()
        queues[segment].append(result)
        condition.broadcast()
        condition.unlock()
    }

    private func take(_ segment: Int) throws -> [String: Any]? {
        condition.lock()
        while queues[segment].isEmpty { condition.wait() }
        let result = queues[segment].removeFirst()
        condition.broadcast()
        condition.unlock()
        return try result.get()
    }
}
