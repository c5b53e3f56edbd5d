/// Threads that parse parts of inputs (map and validate them) while the read stage cuts the
/// next ones: parsing, the busiest stage of a re-run, spreads over the cores. Each thread has
/// its own record preparer; their chunks reach the key stage in input order through the sequencer.
final class PartParsers {
    /// Records of an input that a reader cut off, and the item number of their chunk.
    struct Part {
        let sequence: Int
        let recipe: RecordPreparer.Recipe
        let reader: RecordReader
    }

    static let threadCount = 2

    /// Parts waiting for a thread (nil tells one to stop).
    private let parts = BoundedChannel<Part?>(capacity: 1)
    private var threads: [StageThread<Void>] = []

    init(parsed: Sequencer<ParsedItem>, recorder: RunRecorder, paths: [String]) {
        threads = (0..<Self.threadCount).map { number in
            StageThread("part parser \(number + 1)", owning: PartParser()) { [parts] parser in
                parser.run(parts, into: parsed, recorder: recorder, paths: paths)
            }
        }
    }

    /// Hands `part` to the next free thread (waits while they are all busy).
    func parse(_ part: sending Part) {
        parts.put(part)
    }

    /// Waits until every part handed over is parsed, and stops the threads.
    func finish() {
        for _ in threads { parts.put(nil) }
        for thread in threads { thread.join() }
    }
}

/// What one part-parser thread owns: its record preparer (for the input of its last part) and the
/// chunks the writer hands back to it.
private struct PartParser {
    private let written = Handback<[PreparedRecord]>()
    private var preparer: RecordPreparer?

    /// Parses parts until told to stop, each into one chunk.
    mutating func run(
        _ parts: BoundedChannel<PartParsers.Part?>, into parsed: Sequencer<ParsedItem>, recorder: RunRecorder,
        paths: [String]
    ) {
        while let part = parts.take() {
            written.releaseAll()
            var chunk = ParsedChunk(capacity: ReadStage.chunkSize, handback: written)
            do {
                if preparer?.inputIndex != part.recipe.inputIndex { preparer = try RecordPreparer(part.recipe) }
                while let record = try part.reader.next() { preparer!.prepare(record, into: &chunk) }
            } catch {
                recorder.abort(AbortReason(.input, "reading \(paths[part.recipe.inputIndex]) failed: \(error)"))
            }
            parsed.put(.chunk(input: part.recipe.inputIndex, chunk), sequence: part.sequence)
        }
    }
}
