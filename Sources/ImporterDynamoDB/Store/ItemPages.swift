import ImporterAWS
import Synchronization

/// The pages of items a read fetches, one after another: a consistent Scan of a table
/// (`SegmentedScan`) or a Query of one partition (`QueryPages`). One reader calls `next()`
/// until it gives nil or throws, then `finish()`.
protocol ItemPages: Sendable {
    /// The next page; nil after the last.
    func next() async throws -> DynamoDB.ItemsPage?

    /// Stops fetching; returns once no request of the read is in flight any more.
    func finish() async
}

/// The pages of a consistent Query of one partition, fetched one at a time as they are asked for.
final class QueryPages: ItemPages {
    typealias Fetch = @Sendable (DynamoDB.Query) async throws -> DynamoDB.ItemsPage

    /// The request of the next page; nil after the last.
    private let request: Mutex<DynamoDB.Query?>
    private let fetch: Fetch

    init(_ request: DynamoDB.Query, fetch: @escaping Fetch) {
        self.request = Mutex(request)
        self.fetch = fetch
    }

    func next() async throws -> DynamoDB.ItemsPage? {
        guard var request = request.withLock({ $0 }) else { return nil }
        let page = try await fetch(request)
        request.exclusiveStartKey = page.lastEvaluatedKey
        let following = page.lastEvaluatedKey == nil ? nil : request
        self.request.withLock { $0 = following }
        return page
    }

    func finish() async {}
}

extension ItemPages {
    /// Calls `body` with every page, then `finish()`es (also when `body` or a request throws).
    func forEach(_ body: (DynamoDB.ItemsPage) throws -> Void) async throws {
        do {
            while let page = try await next() { try body(page) }
        } catch {
            await finish()
            throw error
        }
        await finish()
    }
}
