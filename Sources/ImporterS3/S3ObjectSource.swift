import BlockingBridge
import ImporterAWS
import ImporterCore
import ImporterFormats

/// An S3 object as the bytes a reader parses (docs/pipeline.md#s3-sources): read in ranges of `chunkSize`, the
/// next range downloading while the reader parses the current one, so memory stays bounded
/// whatever the object's size. Each range must still have the listed ETag.
///
/// Used from the pipeline's reading thread (never from Swift concurrency's pool): it waits for
/// each range (`S3Client.startReading`).
package final class S3ObjectSource: ByteSource {
    private let client: S3Client
    private let object: S3Object
    private let chunkSize: Int64
    private var chunk: [UInt8] = []
    private var position = 0
    private var nextOffset: Int64 = 0
    private var pending: BlockingTask<[UInt8]>?
    package private(set) var bytesConsumed: Int64 = 0

    package init(client: S3Client, object: S3Object, chunkSize: Int = 8 << 20) {
        self.client = client
        self.object = object
        self.chunkSize = Int64(max(1, chunkSize))
        pending = fetchNext()
    }

    package func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        if position == chunk.count {
            guard let download = pending else { return 0 }
            do {
                chunk = try download.wait()
            } catch {
                throw InputError(path: object.location.description, message: "cannot read: \(error)")
            }
            position = 0
            pending = fetchNext()
            if chunk.isEmpty { return 0 }
        }
        let n = min(count, chunk.count - position)
        chunk.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + position, byteCount: n) }
        position += n
        bytesConsumed += Int64(n)
        return n
    }

    package func close() {
        pending?.cancel()
        pending = nil
    }

    deinit { pending?.cancel() }

    /// Starts downloading the next range, or nil after the last one.
    private func fetchNext() -> BlockingTask<[UInt8]>? {
        guard nextOffset < object.size else { return nil }
        let range = nextOffset..<min(object.size, nextOffset + chunkSize)
        nextOffset = range.upperBound
        return client.startReading(object, range: range)
    }
}
