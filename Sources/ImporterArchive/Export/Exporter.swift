import Foundation
import ImporterCore

/// Writes a consistent snapshot of every entity of a store into one archive (docs/archives.md).
///
/// The manifest (first entry) carries every file's size and SHA-256, and a tar header carries
/// its entry's size before the data. A `.tar`, `.tar.gz` or `.tar.zst` is written in one pass
/// (`StreamingTarWriter` rewrites the headers and the manifest in place afterwards); a `.tar.xz`
/// or `.zip` is encoded twice from the snapshot, a first pass measuring what the second writes.
/// Nothing is staged on disk, nor in memory beyond a few chunks (and a few parts when the
/// archive goes to an uploader).
package struct Exporter {
    package let store: any StoreReading
    package let model: Model
    package let format: ExportFormat
    /// `sqlite` or `dynamodb`, recorded in the manifest.
    package let sourceType: String

    package init(store: any StoreReading, model: Model, format: ExportFormat, sourceType: String) {
        self.store = store
        self.model = model
        self.format = format
        self.sourceType = sourceType
    }

    /// Writes the archive at `path` and returns its manifest.
    package func export(to path: String, kind: ArchiveKind) throws -> Manifest {
        try export(to: .file(path), kind: kind)
    }

    /// Writes the archive to `destination` and returns its manifest. An uploader takes only the
    /// kinds written in one pass (`ArchiveKind.isStreamable`).
    package func export(to destination: ArchiveDestination, kind: ArchiveKind) throws -> Manifest {
        guard let modelText = Self.modelText(of: model) else {
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
            let files = model.parentsFirstOrder.map { (entity: $0, file: "data/\($0).\(format.fileExtension)") }
            let onePass =
                kind.isStreamable
                && StreamingTarWriter.canName(files.map(\.file) + [Manifest.entryName, Manifest.modelEntryName])
            switch destination {
            case .file(let path) where !onePass:
                try exportInTwoPasses(
                    files, to: path, kind: kind, manifest: &manifest, modelText: Array(modelText), created: created)
            case .parts(let name, _) where !onePass:
                throw ArchiveError(
                    path: name,
                    "an archive is uploaded as it is written only as .tar, .tar.gz or .tar.zst with names of at most 100 bytes"
                )
            case .file(let path):
                let writer = StreamingTarWriter(name: path, output: try FileOutput(path: path), kind: kind)!
                try exportInOnePass(
                    files, into: writer, manifest: &manifest, modelText: Array(modelText), created: created)
            case .parts(let name, let uploader):
                let writer = StreamingTarWriter(name: name, output: PartedOutput(uploader: uploader), kind: kind)!
                try exportInOnePass(
                    files, into: writer, manifest: &manifest, modelText: Array(modelText), created: created)
            }
            return manifest
        }
    }

    private func exportInOnePass(
        _ files: [(entity: String, file: String)], into writer: StreamingTarWriter,
        manifest: inout Manifest, modelText: [UInt8], created: Date
    ) throws {
        do {
            try writeInOnePass(files, into: writer, manifest: &manifest, modelText: modelText, created: created)
        } catch {
            writer.abandon()
            throw error
        }
    }

    private func writeInOnePass(
        _ files: [(entity: String, file: String)], into writer: StreamingTarWriter,
        manifest: inout Manifest, modelText: [UInt8], created: Date
    ) throws {
        // The manifest's room: its length with the widest numbers; the real one is padded to it.
        var widest = manifest
        widest.entities = files.map {
            .init(
                entity: $0.entity, file: $0.file, format: format, items: .max, bytes: .max,
                sha256: String(repeating: "0", count: 64))
        }
        let manifestLength = try widest.encoded().count
        let manifestSlot = try writer.reserveFile(length: manifestLength)
        try writer.addFile(name: Manifest.modelEntryName, bytes: modelText, modified: created)
        for file in files {
            try writer.beginEntry(name: file.file)
            let items = try encode(model.entity(named: file.entity)!) { try writer.write($0) }
            let written = try writer.endEntry(modified: created)
            manifest.entities.append(
                .init(
                    entity: file.entity, file: file.file, format: format, items: items, bytes: written.bytes,
                    sha256: written.sha256))
        }
        var manifestBytes = try manifest.encoded()
        // JSON allows trailing white space: spaces before the final newline.
        manifestBytes.insert(
            contentsOf: [UInt8](repeating: 32, count: manifestLength - manifestBytes.count), at: manifestBytes.count - 1
        )
        try writer.fill(manifestSlot, name: Manifest.entryName, bytes: manifestBytes, modified: created)
        try writer.finish()
    }

    private func exportInTwoPasses(
        _ files: [(entity: String, file: String)], to path: String, kind: ArchiveKind,
        manifest: inout Manifest, modelText: [UInt8], created: Date
    ) throws {
        for file in files {
            var digest = SHA256Digest()
            var bytes: Int64 = 0
            let items = try encode(model.entity(named: file.entity)!) { chunk in
                digest.update(chunk)
                bytes += Int64(chunk.count)
            }
            manifest.entities.append(
                .init(
                    entity: file.entity, file: file.file, format: format, items: items, bytes: bytes,
                    sha256: digest.hexDigest()))
        }
        let writer = try ArchiveWriter(path: path, kind: kind)
        let manifestBytes = try manifest.encoded()
        try writer.beginEntry(name: Manifest.entryName, size: Int64(manifestBytes.count), modified: created)
        try writer.write(manifestBytes)
        try writer.beginEntry(name: Manifest.modelEntryName, size: Int64(modelText.count), modified: created)
        try writer.write(modelText)
        for file in manifest.entities {
            try writer.beginEntry(name: file.file, size: file.bytes, modified: created)
            // Hashed and written on another thread while the next chunk is encoded.
            let background = ParallelFrameWriter(codec: .identity, workers: 1) { try writer.write($0) }
            let items: Int
            do {
                items = try encode(model.entity(named: file.entity)!) { try background.write($0) }
            } catch {
                _ = try? background.finish()
                throw error
            }
            let written = try background.finish()
            guard written.bytes == file.bytes, written.sha256 == file.sha256 else {
                throw ExportError(
                    "\(file.entity) changed while it was exported (\(file.items) items, \(file.bytes) bytes, then \(items) items, \(written.bytes) bytes); export again when no run writes to the store"
                )
            }
        }
        try writer.finish()
    }

    /// Encodes every item of `entity`, handing the bytes to `sink` in chunks; the item count.
    private func encode(_ entity: Entity, into sink: ([UInt8]) throws -> Void) throws -> Int {
        let encoder = format.encoder(for: entity)
        var buffer = encoder.header
        buffer.reserveCapacity(Self.chunkSize + 64 * 1024)
        var items = 0
        try store.scanRows(entity) { row in
            encoder.append(row, to: &buffer)
            items += 1
            if buffer.count >= Self.chunkSize {
                try sink(buffer)
                buffer = []
                buffer.reserveCapacity(Self.chunkSize + 64 * 1024)
            }
        }
        if !buffer.isEmpty { try sink(buffer) }
        return items
    }

    /// Chunks of this size compress well as independent frames (zstd's window at level 3 is
    /// smaller) and keep a few in flight cheap.
    private static let chunkSize = 4 << 20

    /// The archive's model.yaml: the model's own YAML file, or a Core Data model written as YAML
    /// (the same checksum).
    static func modelText(of model: Model) -> Data? {
        guard CoreDataPackage.isCoreData(model.file) else { return FileManager.default.contents(atPath: model.file) }
        return Data(ModelYAMLWriter.text(of: model).utf8)
    }
}

/// The store changed between the two passes of a two-pass export (a store without snapshots).
package struct ExportError: Error, CustomStringConvertible, Sendable {
    package let message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
