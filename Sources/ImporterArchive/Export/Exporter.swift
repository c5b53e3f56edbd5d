import Foundation
import ImporterCore

/// Writes a consistent snapshot of every entity of a store into one archive (SPEC §10).
///
/// A tar header carries its entry's size before the data, and the manifest (first entry)
/// carries every file's size and SHA-256, so the data is encoded twice from one snapshot: a
/// first pass measures it, a second streams it into the archive and must measure the same.
/// Nothing is staged on disk or in memory beyond one chunk.
public struct Exporter {
    public let store: Store
    public let model: Model
    public let format: ExportFormat
    /// `sqlite` or `dynamodb`, recorded in the manifest.
    public let sourceType: String

    public init(store: Store, model: Model, format: ExportFormat, sourceType: String) {
        self.store = store
        self.model = model
        self.format = format
        self.sourceType = sourceType
    }

    /// Writes the archive at `path` (its kind from the name) and returns its manifest.
    public func export(to path: String, kind: ArchiveKind) throws -> Manifest {
        guard let modelText = FileManager.default.contents(atPath: model.file) else {
            throw ArchiveError(path: model.file, "cannot read the model file to put it into the archive")
        }
        return try store.readingSnapshot {
            let created = Date()
            var manifest = Manifest(
                formatVersion: Manifest.currentFormatVersion,
                tool: .init(name: "importer", version: ToolVersion.current),
                createdAt: ISO8601.format(created),
                model: .init(name: model.name, version: model.version, checksum: model.checksum),
                source: sourceType, entities: [])
            for name in model.parentsFirstOrder {
                let entity = model.entity(named: name)!
                let measured = try encode(entity, hashing: true) { _ in }
                manifest.entities.append(.init(
                    entity: name, file: "data/\(name).\(format.fileExtension)", format: format,
                    items: measured.items, bytes: measured.bytes, sha256: measured.sha256))
            }
            let writer = try ArchiveWriter(path: path, kind: kind)
            let manifestBytes = try manifest.encoded()
            try writer.beginEntry(name: Manifest.entryName, size: Int64(manifestBytes.count), modified: created)
            try writer.write(manifestBytes)
            try writer.beginEntry(name: Manifest.modelEntryName, size: Int64(modelText.count), modified: created)
            try writer.write(Array(modelText))
            for file in manifest.entities {
                try writer.beginEntry(name: file.file, size: file.bytes, modified: created)
                let background = BackgroundWriter(writer)
                let written: (items: Int, bytes: Int64, sha256: String)
                do {
                    written = try encode(model.entity(named: file.entity)!, hashing: false) { try background.write(Array($0)) }
                } catch {
                    _ = try? background.finish()
                    throw error
                }
                let sha256 = try background.finish()
                guard written.bytes == file.bytes, sha256 == file.sha256 else {
                    throw ExportError(
                        "\(file.entity) changed while it was exported (\(file.items) items, \(file.bytes) bytes, then \(written.items) items, \(written.bytes) bytes); export again when no run writes to the store")
                }
            }
            try writer.finish()
            return manifest
        }
    }

    /// Encodes every item of `entity`, handing the bytes to `sink` in chunks, and hashes them
    /// if `hashing` (else the SHA-256 is empty).
    private func encode(_ entity: Entity, hashing: Bool, into sink: (UnsafeRawBufferPointer) throws -> Void) throws -> (items: Int, bytes: Int64, sha256: String) {
        let encoder = format.encoder(for: entity)
        var digest = SHA256Digest()
        var buffer = encoder.header
        buffer.reserveCapacity(Self.chunkSize + 64 * 1024)
        var items = 0
        var bytes: Int64 = 0
        func flush() throws {
            try buffer.withUnsafeBytes { chunk in
                if hashing { digest.update(chunk) }
                try sink(chunk)
            }
            bytes += Int64(buffer.count)
            buffer.removeAll(keepingCapacity: true)
        }
        try store.scanRows(entity) { row in
            encoder.append(row, to: &buffer)
            items += 1
            if buffer.count >= Self.chunkSize { try flush() }
        }
        try flush()
        return (items, bytes, hashing ? digest.hexDigest() : "")
    }

    private static let chunkSize = 1 << 20
}

/// Hashes, compresses and writes chunks on its own thread, so encoding the next chunk and
/// compressing this one use both cores (a pipe between two processes does the same for the CLI
/// peers).
private final class BackgroundWriter: @unchecked Sendable {
    private let writer: ArchiveWriter
    private let condition = NSCondition()
    private var chunks: [[UInt8]] = []
    private var ended = false
    private var error: Error?
    private var digest = SHA256Digest()
    private let done = DispatchSemaphore(value: 0)
    private static let capacity = 4

    init(_ writer: ArchiveWriter) {
        self.writer = writer
        let thread = Thread { [self] in
            run()
            done.signal()
        }
        thread.start()
    }

    /// Queues a chunk; waits while `capacity` chunks are queued. Throws the writer's error.
    func write(_ chunk: [UInt8]) throws {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count >= Self.capacity && error == nil { condition.wait() }
        if let error { throw error }
        chunks.append(chunk)
        condition.broadcast()
    }

    /// Waits until every queued chunk is written; the SHA-256 of all of them.
    func finish() throws -> String {
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
        done.wait()
        if let error { throw error }
        return digest.hexDigest()
    }

    private func run() {
        while true {
            condition.lock()
            while chunks.isEmpty && !ended { condition.wait() }
            if chunks.isEmpty || error != nil {
                condition.unlock()
                return
            }
            let chunk = chunks.removeFirst()
            condition.broadcast()
            condition.unlock()
            do {
                digest.update(chunk)
                try writer.write(chunk)
            } catch {
                condition.lock()
                self.error = error
                condition.broadcast()
                condition.unlock()
            }
        }
    }
}

/// The store changed between the two passes of an export (a store without snapshots).
public struct ExportError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
