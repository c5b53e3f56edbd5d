import Foundation
import ImporterCore

/// Compresses the chunks of one archive entry into frames on several threads (as pigz does)
/// and hands the frames to `output` in the order the chunks came, hashing the chunks on the
/// way. At most `capacity` chunks are in flight, so memory does not grow with the data. With
/// `.identity` and one worker it hashes and writes on a thread of its own (two-pass exports).
///
/// The threads meet in a `ConditionBox`. `@unchecked Sendable` is safe here: `output` and
/// `digest` are used by one thread at a time, the one that set the state's `writing` flag
/// (set and cleared in the box). `output` is not `Sendable`: the caller hands it over for the
/// writer's lifetime and touches nothing it captures between `init` and the return of
/// `finish()`, which waits for the last call.
final class ParallelFrameWriter: @unchecked Sendable {
    private struct State {
        var queue: [(sequence: Int, chunk: [UInt8])] = []
        var compressed: [Int: (chunk: [UInt8], frame: [UInt8])] = [:]
        var submitted = 0
        var written = 0
        var writing = false
        var ended = false
        var error: (any Error)?
        var bytes: Int64 = 0
        /// Workers not done yet.
        var working: Int

        mutating func fail(_ failure: any Error) {
            if error == nil { error = failure }
        }
    }

    private let output: ([UInt8]) throws -> Void
    private let state: ConditionBox<State>
    private var digest = SHA256Digest()
    private let capacity: Int

    /// Starts `workers` threads compressing with `codec`, each with a compressor of its own;
    /// `output` is called on them, one frame at a time, in order.
    init(codec: FrameCodec, workers: Int, output: @escaping ([UInt8]) throws -> Void) {
        self.output = output
        capacity = workers * 2
        state = ConditionBox(State(working: workers))
        for _ in 0..<workers {
            Thread { [self] in
                do {
                    work(with: try codec.makeCompressor())
                } catch {
                    state.withLock { $0.fail(error) }
                }
                state.withLock { $0.working -= 1 }
            }.start()
        }
    }

    /// Queues a chunk; waits while `capacity` chunks are in flight. Throws the first failure.
    func write(_ chunk: [UInt8]) throws {
        let capacity = capacity
        try state.wait(until: { $0.submitted - $0.written < capacity || $0.error != nil }) { state in
            if let error = state.error { throw error }
            state.queue.append((state.submitted, chunk))
            state.submitted += 1
        }
    }

    /// Waits until every chunk is written and stops the threads; the bytes and SHA-256 of all
    /// chunks.
    func finish() throws -> (bytes: Int64, sha256: String) {
        state.withLock { $0.ended = true }
        let (error, bytes) = state.wait(until: { $0.working == 0 }) { ($0.error, $0.bytes) }
        if let error { throw error }
        return (bytes, digest.hexDigest())
    }

    private func work(with compressor: FrameCompressor) {
        while true {
            let job = state.wait(until: { !$0.queue.isEmpty || $0.ended || $0.error != nil }) {
                state -> (sequence: Int, chunk: [UInt8])? in
                guard state.error == nil, !state.queue.isEmpty else { return nil }
                return state.queue.removeFirst()
            }
            guard let job else { return }
            let frame = Result { try compressor.frame(of: job.chunk) }
            state.withLock { state in
                switch frame {
                case .success(let frame): state.compressed[job.sequence] = (job.chunk, frame)
                case .failure(let failure): state.fail(failure)
                }
            }
            writeInOrder()
        }
    }

    /// Writes the frames that are next in order, unless another thread is writing (it will
    /// write them).
    private func writeInOrder() {
        while true {
            let next = state.withLock { state -> (chunk: [UInt8], frame: [UInt8])? in
                guard !state.writing, state.error == nil, let next = state.compressed.removeValue(forKey: state.written)
                else { return nil }
                state.writing = true
                return next
            }
            guard let next else { return }
            let result = Result {
                next.chunk.withUnsafeBytes { digest.update($0) }
                try output(next.frame)
            }
            state.withLock { state in
                state.writing = false
                if case .failure(let failure) = result { state.fail(failure) }
                state.bytes += Int64(next.chunk.count)
                state.written += 1
            }
        }
    }
}
