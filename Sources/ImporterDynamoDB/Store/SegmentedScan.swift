import ImporterAWS
import Foundation
import Synchronization

/// A parallel Scan (`Segment`/`TotalSegments`, each segment paginated) whose pages are handed
/// over in a fixed order: all of segment 0, then segment 1, and so on. Each segment's task
/// fetches at most `pagesAhead` pages ahead, so memory stays bounded, and an unchanged table
/// gives the same sequence every time (a two-pass export's passes must agree byte for byte).
final class SegmentedScan: ItemPages {
    typealias Page = DynamoDB.ItemsPage
    /// Fetches one page of a segment, after `startKey` (nil: the first page).
    typealias Fetch = @Sendable (_ segment: Int, _ startKey: DynamoItem?) async throws -> Page
    /// A fetched page, nil at the segment's end, or the error that ended it.
    private typealias Entry = Result<Page?, any Error>

    private struct Queue {
        var entries: [Entry] = []
        /// The consumer, waiting for this segment's next entry.
        var consumer: CheckedContinuation<Entry, Never>?
        /// The segment's task, waiting for room.
        var producer: CheckedContinuation<Void, Never>?
    }

    private let segments: Int
    private let pagesAhead: Int
    private let fetch: Fetch
    private let queues: Mutex<[Queue]>
    private let stopped = Mutex(false)
    /// The segment being read, and the segments' tasks once started.
    private let reading = Mutex<(segment: Int, producers: Task<Void, Never>?)>((0, nil))

    init(segments: Int, pagesAhead: Int = 2, fetch: @escaping Fetch) {
        self.segments = max(1, segments)
        self.pagesAhead = pagesAhead
        self.fetch = fetch
        queues = Mutex(Array(repeating: Queue(), count: self.segments))
    }

    /// The next page, in segment order; nil after the last page of the last segment. The first
    /// call starts every segment's task.
    func next() async throws -> Page? {
        start()
        while true {
            let segment = reading.withLock { $0.segment }
            guard segment < segments else { return nil }
            if let page = try await next(segment).get() { return page }
            reading.withLock { $0.segment += 1 }
        }
    }

    /// Stops every segment's task and waits for them to end (each finishes the request it has in flight).
    func finish() async {
        stop()
        await reading.withLock { $0.producers }?.value
    }

    private func start() {
        reading.withLock { reading in
            guard reading.producers == nil else { return }
            reading.producers = Task { [self] in
                await withTaskGroup(of: Void.self) { group in
                    for segment in 0..<segments { group.addTask { await self.fetchAll(segment) } }
                }
            }
        }
    }

    private func fetchAll(_ segment: Int) async {
        var startKey: DynamoItem?
        repeat {
            await waitForRoom(segment)
            if stopped.withLock({ $0 }) { return }
            let result: Entry
            do { result = .success(try await fetch(segment, startKey)) } catch { result = .failure(error) }
            startKey = (try? result.get())??.lastEvaluatedKey
            put(result, segment)
            if case .failure = result { return }
        } while startKey != nil
        put(.success(nil), segment)
    }

    private func waitForRoom(_ segment: Int) async {
        await withCheckedContinuation { (room: CheckedContinuation<Void, Never>) in
            let ready = queues.withLock { queues in
                guard queues[segment].entries.count >= pagesAhead, !stopped.withLock({ $0 }) else { return true }
                queues[segment].producer = room
                return false
            }
            if ready { room.resume() }
        }
    }

    private func put(_ entry: Entry, _ segment: Int) {
        let consumer = queues.withLock { queues in
            guard let consumer = queues[segment].consumer else {
                queues[segment].entries.append(entry)
                return nil as CheckedContinuation<Entry, Never>?
            }
            queues[segment].consumer = nil
            return consumer
        }
        consumer?.resume(returning: entry)
    }

    private func next(_ segment: Int) async -> Entry {
        await withCheckedContinuation { (consumer: CheckedContinuation<Entry, Never>) in
            let (entry, producer) = queues.withLock { queues -> (Entry?, CheckedContinuation<Void, Never>?) in
                guard !queues[segment].entries.isEmpty else {
                    queues[segment].consumer = consumer
                    return (nil, nil)
                }
                let producer = queues[segment].producer
                queues[segment].producer = nil
                return (queues[segment].entries.removeFirst(), producer)
            }
            producer?.resume()
            if let entry { consumer.resume(returning: entry) }
        }
    }

    /// Stops every segment's task (they finish the request in flight, if any).
    private func stop() {
        stopped.withLock { $0 = true }
        let waiting = queues.withLock { queues in
            defer { for index in queues.indices { queues[index].producer = nil } }
            return queues.compactMap(\.producer)
        }
        for producer in waiting { producer.resume() }
    }
}
