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

    /// Documents of a document source that a reader cut off (docs/documents.md): their records
    /// go to one chunk per input of the source, handed on together as item `sequence`.
    struct DocumentPart {
        let sequence: Int
        let recipe: DocumentPreparer.Recipe
        let reader: DocumentRecordReader
    }

    /// What a thread is handed.
    enum Work {
        case records(Part)
        case documents(DocumentPart)
    }

    static let threadCount = 2

    /// Parts waiting for a thread (nil tells one to stop).
    private let parts = BoundedChannel<Work?>(capacity: 1)
    private var threads: [StageThread<Void>] = []

    init(parsed: Sequencer<ParsedItem>, recorder: RunRecorder, paths: [String]) {
        threads = (0..<Self.threadCount).map { number in
            StageThread("part parser \(number + 1)", owning: PartParser(), priority: .readingAhead) {
                [parts] parser in
                parser.run(parts, into: parsed, recorder: recorder, paths: paths)
            }
        }
    }

    /// Hands `part` to the next free thread (waits while they are all busy).
    func parse(_ part: sending Part) {
        parts.put(.records(part))
    }

    /// Hands a part of documents to the next free thread (waits while they are all busy).
    func parse(_ part: sending DocumentPart) {
        parts.put(.documents(part))
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
    private var documentPreparer: DocumentPreparer?

    /// Parses parts until told to stop, each into one chunk (a part of documents into one per
    /// input of its source).
    mutating func run(
        _ parts: BoundedChannel<PartParsers.Work?>, into parsed: Sequencer<ParsedItem>, recorder: RunRecorder,
        paths: [String]
    ) {
        while let work = parts.take() {
            written.releaseAll()
            let part: PartParsers.Part
            switch work {
            case .records(let records): part = records
            case .documents(let documents):
                parse(documents, into: parsed, recorder: recorder, paths: paths)
                continue
            }
            var chunk = ParsedChunk(capacity: ReadStage.chunkSize, handback: written)
            do {
                if preparer?.inputIndex != part.recipe.inputIndex { preparer = try RecordPreparer(part.recipe) }
                try preparer!.prepareAll(of: part.reader, into: &chunk)
            } catch {
                recorder.abort(AbortReason(.input, "reading \(paths[part.recipe.inputIndex]) failed: \(error)"))
            }
            parsed.put(.chunk(input: part.recipe.inputIndex, chunk), sequence: part.sequence)
        }
    }

    /// Parses a part of documents into one batch.
    private mutating func parse(
        _ part: PartParsers.DocumentPart, into parsed: Sequencer<ParsedItem>, recorder: RunRecorder, paths: [String]
    ) {
        let root = part.recipe.root
        var batch = DocumentBatch(nodes: part.recipe.groupSize, handback: written)
        do {
            if documentPreparer?.inputs.first != root { documentPreparer = try DocumentPreparer(part.recipe) }
            let preparer = documentPreparer!
            let streamer = DocumentStreamer(preparer: preparer, batch: batch)
            defer { swap(&batch, &streamer.batch) }
            while let read = try part.reader.nextDocument(streamingTo: preparer.streams ? streamer : nil) {
                if case .whole(let document) = read { streamer.prepareWhole(document) }
            }
        } catch {
            recorder.abort(AbortReason(.input, "reading \(paths[root]) failed: \(error)"))
        }
        parsed.put(.documents(root: root, batch), sequence: part.sequence)
    }
}
