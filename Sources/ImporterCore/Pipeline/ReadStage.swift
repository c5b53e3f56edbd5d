import Foundation

/// The read stage, on the thread that runs the pipeline: opens each input in turn, reads its
/// records and hands them, mapped and validated, to the key stage in chunks. An input that its
/// reader can cut into parts is parsed by the part parsers instead (the read stage only cuts).
final class ReadStage {
    /// Records per chunk: small, so memory stays flat; transactions span many.
    static let chunkSize = 8192
    /// Records per part: half a chunk, as more parts are in flight than chunks (peak memory).
    static let partSize = chunkSize / 2
    /// Input bytes after which a chunk or part takes no more records: wide records (1 KB of
    /// text each) would otherwise hold 4–8 MB of input per chunk, and their parsed copies,
    /// in every hand-over in flight (a 1 GiB import peaked at 215 MB; with this, 105 MB).
    /// A document source's parts take as many: with half of it, a re-run of 160,000 towns in
    /// 300 documents took 7% longer for the same CPU time, and 12 MiB less memory (a
    /// 320,000-town re-run peaks at 158 MB with it).
    static let partBytes = 1 << 20

    private let inputs: [RunInput]
    private let pipelineFile: String
    private let makeReader: PipelineRun.RecordReaderMaker
    private let recorder: RunRecorder
    private let parsed: Sequencer<ParsedItem>
    private let progress: Progress
    /// The records the writer is done with, freed here, on the thread that allocated them.
    private let written: Handback<[PreparedRecord]>
    /// Started at the first input that can be cut into parts.
    private var partParsers: PartParsers?
    /// The number of the next item for the key stage, which takes them in this order.
    private var nextSequence = 0
    /// The size from which a document's records are held packed (`RunOptions.packedDocumentBytes`).
    private let packedDocumentBytes: Int

    init(
        inputs: [RunInput], pipelineFile: String, makeReader: @escaping PipelineRun.RecordReaderMaker,
        recorder: RunRecorder,
        parsed: Sequencer<ParsedItem>, written: Handback<[PreparedRecord]>, progress: ProgressHandler?,
        packedDocumentBytes: Int = DocumentPreparer.PreparedDocument.packedFrom
    ) {
        self.packedDocumentBytes = packedDocumentBytes
        self.inputs = inputs
        self.pipelineFile = pipelineFile
        self.makeReader = makeReader
        self.recorder = recorder
        self.parsed = parsed
        self.written = written
        self.progress = Progress(progress)
    }

    /// Reads every input, then tells the key stage that the input ended.
    func run() {
        let totalBytes = inputs.reduce(Int64(0)) { $0 + $1.fileSize }
        var bytesBefore: Int64 = 0
        // A document source's child inputs are read with their root.
        for index in inputs.indices where !recorder.isAborted && (inputs[index].document?.node ?? 0) == 0 {
            let name = FilePaths.lastComponent(inputs[index].path)
            bytesBefore += read(input: index) { [progress] bytesRead, records in
                progress.update(
                    input: name, records: records, bytesRead: bytesBefore + bytesRead, totalBytes: totalBytes)
            }
        }
        partParsers?.finish()
        parsed.put(.end, sequence: takeSequence())
        progress.finish(bytesRead: bytesBefore, totalBytes: totalBytes)
    }

    /// Reads, maps, validates and migrates one input file. Returns the bytes read.
    private func read(input index: Int, progress: (Int64, Int) -> Void) -> Int64 {
        let input = inputs[index]
        let group = index..<index + (input.document?.groupSize ?? 1)
        for member in group { recorder.started(input: member) }
        // A local file must be the same at the end of its read as at the start: one replaced,
        // cut or appended to meanwhile was not read whole, and the run stops.
        let identity = input.remote == nil ? FileIdentity(of: input.path) : nil
        let recipe = RecordPreparer.Recipe(
            inputIndex: index, entity: input.sourceEntity, map: input.source.map, migration: input.migration,
            file: pipelineFile, line: input.source.line, numberLimits: input.numberLimits)
        let reader: RecordReader
        let preparer: RecordPreparer
        do {
            reader = try makeReader(input.source, input.path)
            preparer = try RecordPreparer(recipe)
        } catch {
            recorder.abort(AbortReason(.input, "cannot read \(input.path): \(error)"))
            return 0
        }
        if let documents = reader as? DocumentRecordReader {
            readDocuments(documents, root: index, slice: input.slice, progress: progress)
        } else if let partitioned = reader as? PartitionedRecordReader {
            cut(partitioned, recipe: recipe, slice: input.slice, progress: progress)
        } else {
            parse(reader, preparer, slice: input.slice, progress: progress)
        }
        if let identity, !recorder.isAborted, FileIdentity(of: input.path) != identity {
            recorder.abort(
                AbortReason(
                    .input,
                    "\(input.path) changed while it was read (its size, modification time or inode differ at its end from its start), so what was read may not be the whole file; run again once it is complete"
                ))
        }
        parsed.put(.inputDone(input: index, bytes: reader.bytesRead), sequence: takeSequence())
        for child in group.dropFirst() { parsed.put(.inputDone(input: child, bytes: 0), sequence: takeSequence()) }
        return reader.bytesRead
    }

    /// Reads the documents of a document source on this thread (docs/documents.md), handed on
    /// a batch of whole documents at a time; with a `slice`, only the shard's blocks of documents.
    private func readDocuments(
        _ reader: DocumentRecordReader, root: Int, slice: Shard?, progress: (Int64, Int) -> Void
    ) {
        if let partitioned = reader as? PartitionedDocumentReader {
            return cut(partitioned, root: root, slice: slice, progress: progress)
        }
        let preparer: DocumentPreparer
        do {
            preparer = try DocumentPreparer(
                inputs: inputs, root: root, file: pipelineFile, packedFrom: packedDocumentBytes)
        } catch {
            recorder.abort(AbortReason(.input, "cannot read \(inputs[root].path): \(error)"))
            return
        }
        func emptyBatch() -> DocumentBatch { DocumentBatch(nodes: preparer.inputs.count, handback: written) }
        // The batch being filled is the streamer's: a document it takes goes straight to it.
        let streamer = DocumentStreamer(preparer: preparer, batch: emptyBatch())
        var chunkBytes = 0
        var readCount = 0
        func handOn() {
            // Moved out before it is handed on: the key stage then owns it alone, and changes
            // its groups in place rather than copying them.
            var batch = emptyBatch()
            swap(&batch, &streamer.batch)
            if !batch.groups.isEmpty { parsed.put(.documents(root: root, batch), sequence: takeSequence()) }
            written.releaseAll()
            chunkBytes = 0
        }
        while true {
            do {
                let takes = slice?.takes(readCount / Self.partSize) ?? true
                guard let read = try reader.nextDocument(streamingTo: takes && preparer.streams ? streamer : nil)
                else { break }
                switch read {
                case .streamed(let bytes):
                    chunkBytes += bytes
                case .whole(let document) where takes:
                    chunkBytes += document.root.raw.count
                    streamer.prepareWhole(document)
                case .whole:
                    break
                }
            } catch {
                recorder.abort(AbortReason(.input, "reading \(inputs[root].path) failed: \(error)"))
                break
            }
            readCount += 1
            if readCount & 63 == 0 {
                progress(reader.bytesRead, readCount)
                if recorder.isAborted { break }
            }
            if streamer.batch.recordCount >= Self.chunkSize || chunkBytes >= Self.partBytes * 2 {
                handOn()
            }
        }
        handOn()
    }

    /// Parses an input on this thread, a chunk at a time; with a `slice`, only the shard's
    /// blocks of `partSize` records.
    private func parse(
        _ reader: RecordReader, _ preparer: RecordPreparer, slice: Shard?, progress: (Int64, Int) -> Void
    ) {
        var chunk = ParsedChunk(capacity: Self.chunkSize, handback: written)
        var chunkBytes = 0
        var readCount = 0
        while true {
            do {
                guard let record = try reader.next() else { break }
                if slice?.takes(readCount / Self.partSize) ?? true {
                    chunkBytes += record.raw.count
                    preparer.prepare(record, into: &chunk)
                }
            } catch {
                recorder.abort(AbortReason(.input, "reading \(inputs[preparer.inputIndex].path) failed: \(error)"))
                break
            }
            readCount += 1
            if readCount & 1023 == 0 {
                progress(reader.bytesRead, readCount)
                if recorder.isAborted { break }
            }
            if chunk.count >= Self.chunkSize || chunkBytes >= Self.partBytes * 2 {
                parsed.put(.chunk(input: preparer.inputIndex, chunk), sequence: takeSequence())
                written.releaseAll()
                chunk = ParsedChunk(capacity: Self.chunkSize, handback: written)
                chunkBytes = 0
            }
        }
        if chunk.count > 0 { parsed.put(.chunk(input: preparer.inputIndex, chunk), sequence: takeSequence()) }
    }

    /// Cuts an input into parts, `partSize` records each, for the part parsers; with a
    /// `slice`, the other shards' parts are cut and left unread.
    private func cut(
        _ reader: PartitionedRecordReader, recipe: RecordPreparer.Recipe, slice: Shard?, progress: (Int64, Int) -> Void
    ) {
        let partParsers = partParsers ?? PartParsers(parsed: parsed, recorder: recorder, paths: inputs.map(\.path))
        self.partParsers = partParsers
        var ordinal = 0
        while !recorder.isAborted {
            do {
                guard let part = try reader.nextPart(maximumRecords: Self.partSize, maximumBytes: Self.partBytes) else {
                    break
                }
                defer { ordinal += 1 }
                guard slice?.takes(ordinal) ?? true else { continue }
                partParsers.parse(PartParsers.Part(sequence: takeSequence(), recipe: recipe, reader: part))
            } catch {
                recorder.abort(AbortReason(.input, "reading \(inputs[recipe.inputIndex].path) failed: \(error)"))
                break
            }
            progress(reader.bytesRead, recorder.recordsRead(input: recipe.inputIndex))
        }
    }

    /// Cuts a document source's input into parts of `partSize` documents for the part
    /// parsers, each handed on as one item; with a `slice`, the other shards' parts are cut and
    /// left unread.
    private func cut(
        _ reader: PartitionedDocumentReader, root: Int, slice: Shard?, progress: (Int64, Int) -> Void
    ) {
        let partParsers = partParsers ?? PartParsers(parsed: parsed, recorder: recorder, paths: inputs.map(\.path))
        self.partParsers = partParsers
        let recipe = DocumentPreparer.Recipe(
            inputs: inputs, root: root, file: pipelineFile, packedFrom: packedDocumentBytes,
            textInInput: reader.readsFileAsItIs)
        var ordinal = 0
        while !recorder.isAborted {
            do {
                guard
                    let part = try reader.nextDocumentPart(
                        maximumRecords: Self.partSize, maximumBytes: Self.partBytes)
                else { break }
                defer { ordinal += 1 }
                guard slice?.takes(ordinal) ?? true else { continue }
                partParsers.parse(PartParsers.DocumentPart(sequence: takeSequence(), recipe: recipe, reader: part))
            } catch {
                recorder.abort(AbortReason(.input, "reading \(inputs[root].path) failed: \(error)"))
                break
            }
            progress(reader.bytesRead, recorder.recordsRead(input: root))
        }
    }

    private func takeSequence() -> Int {
        defer { nextSequence += 1 }
        return nextSequence
    }
}
