import Foundation
import ImporterCore

/// Compresses the chunks of one archive entry into frames on several threads (as pigz does)
/// and hands the frames to `output` in the order the chunks came, hashing the chunks on the
/// way. At most `capacity` chunks are in flight, so memory does not grow with the data. With
/// `.identity` and one worker it hashes and writes on a thread of its own (two-pass exports).
///
/// `@unchecked Sendable` is safe here: every stored `var` is read and written only with
/// `condition` held, except inside `output` and `digest.update`, which one thread at a time
/// runs (the `writing` flag, set and cleared under the lock). `output` is not `Sendable`: the
/// caller hands it over for the writer's lifetime and touches nothing it captures between
/// `init` and the return of `finish()`, which waits for the last call.
final class ParallelFrameWriter: @unchecked Sendable {
    private let output: ([UInt8]) throws -> Void
    private let condition = NSCondition()
    private var queue: [(sequence: Int, chunk: [UInt8])] = []
    private var compressed: [Int: (chunk: [UInt8], frame: [UInt8])] = [:]
    private var submitted = 0
    private var written = 0
    private var writing = false
    private var ended = false
    private var error: Error?
    private var digest = SHA256Digest()
    private var bytes: Int64 = 0
    private let capacity: Int
    private let workersDone = DispatchGroup()

    /// Starts `workers` threads compressing with `codec`, each with a compressor of its own;
    /// `output` is called on them, one frame at a time, in order.
    init(codec: FrameCodec, workers: Int, output: @escaping ([UInt8]) throws -> Void) {
        self.output = output
        capacity = workers * 2
        for _ in 0..<workers {
            workersDone.enter()
            Thread { [self] in
                do {
                    work(with: try codec.makeCompressor())
                } catch {
                    condition.lock()
                    fail(error)
                    condition.unlock()
                }
                workersDone.leave()
            }.start()
        }
    }

    /// Queues a chunk; waits while `capacity` chunks are in flight. Throws the first failure.
    func write(_ chunk: [UInt8]) throws {
        condition.lock()
        defer { condition.unlock() }
        while submitted - written >= capacity && error == nil { condition.wait() }
        if let error { throw error }
        queue.append((submitted, chunk))
        submitted += 1
        condition.broadcast()
    }

    /// Waits until every chunk is written and stops the threads; the bytes and SHA-256 of all
    /// chunks.
    func finish() throws -> (bytes: Int64, sha256: String) {
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
        workersDone.wait()
        if let error { throw error }
        return (bytes, digest.hexDigest())
    }

    private func work(with compressor: FrameCompressor) {
        condition.lock()
        defer { condition.unlock() }
        while error == nil {
            guard !queue.isEmpty else {
                if ended { return }
                condition.wait()
                continue
            }
            let job = queue.removeFirst()
            condition.unlock()
            let frame = Result { try compressor.frame(of: job.chunk) }
            condition.lock()
            switch frame {
            case .success(let frame): compressed[job.sequence] = (job.chunk, frame)
            case .failure(let failure): fail(failure)
            }
            writeInOrder()
        }
    }

    /// Writes the frames that are next in order, unless another thread is writing (it will
    /// write them). Called and returns with the lock held.
    private func writeInOrder() {
        while !writing, error == nil, let next = compressed.removeValue(forKey: written) {
            writing = true
            condition.unlock()
            let result = Result {
                next.chunk.withUnsafeBytes { digest.update($0) }
                try output(next.frame)
            }
            condition.lock()
            writing = false
            if case .failure(let failure) = result { fail(failure) }
            bytes += Int64(next.chunk.count)
            written += 1
            condition.broadcast()
        }
    }

    private func fail(_ failure: Error) {
        if error == nil { error = failure }
        condition.broadcast()
    }
}
