import Foundation
import ImporterCore

/// An archive whose every entry matched its manifest.
package struct VerifiedArchive: Sendable {
    /// Where the archive is read from again to load it.
    package let input: ArchiveInput
    /// Its path, or its name (`s3://bucket/key`), for messages.
    package var path: String { input.name }
    package let manifest: Manifest
    /// The model version of the data, from the archive's model.yaml.
    package let model: Model
}

/// Checks a whole archive against its manifest before restore writes anything (docs/archives.md):
/// manifest first, then each entry's name, type, size, SHA-256 and item count. Reads the
/// archive as a stream; nothing is extracted.
package enum ArchiveVerifier {
    /// The verified archive, or `IntegrityError` naming what differs or is refused.
    package static func verify(_ path: String) throws -> VerifiedArchive {
        try verify(.file(path))
    }

    /// Verifies an archive read from a file or a stream (S3).
    package static func verify(_ input: ArchiveInput) throws -> VerifiedArchive {
        let path = input.name
        let reader: ArchiveReader
        do { reader = try ArchiveReader(input) } catch let error as ArchiveError {
            throw IntegrityError(path, error.message)
        }
        defer { reader.close() }
        do {
            return try verify(reader, input: input)
        } catch let error as ArchiveError {
            throw IntegrityError(path, error.message)
        }
    }

    private static func verify(_ reader: ArchiveReader, input: ArchiveInput) throws -> VerifiedArchive {
        let path = reader.path
        let manifest = try readManifest(reader)
        var expected: [String: Manifest.EntityFile] = [:]
        for file in manifest.entities {
            guard isSafeEntryName(file.file), file.file.hasPrefix("data/") else {
                throw IntegrityError(path, "the manifest lists an unsafe file name '\(file.file)'")
            }
            guard expected.updateValue(file, forKey: file.file) == nil else {
                throw IntegrityError(path, "the manifest lists \(file.file) twice")
            }
        }
        var modelText: String?
        var seen = Set<String>()
        while let entry = try reader.nextEntry() {
            try checkSafe(entry, in: path)
            guard seen.insert(entry.name).inserted else {
                throw IntegrityError(path, "entry \(entry.name) appears twice")
            }
            if entry.name == Manifest.modelEntryName {
                guard
                    let text = String(validating: try readWhole(entry, reader, limit: maxMetadataBytes), as: UTF8.self)
                else {
                    throw IntegrityError(path, "\(Manifest.modelEntryName) is not UTF-8 text")
                }
                modelText = text
                continue
            }
            guard let file = expected[entry.name] else {
                throw IntegrityError(path, "entry \(entry.name) is not listed in the manifest")
            }
            try checkData(entry, reader, against: file)
        }
        if let missing = manifest.entities.first(where: { !seen.contains($0.file) }) {
            throw IntegrityError(path, "\(missing.file) is listed in the manifest but missing from the archive")
        }
        guard let modelText else { throw IntegrityError(path, "\(Manifest.modelEntryName) is missing") }
        return VerifiedArchive(
            input: input, manifest: manifest, model: try checkModel(modelText, against: manifest, in: path))
    }

    /// The manifest, which must be the first entry, in a format version this tool reads.
    private static func readManifest(_ reader: ArchiveReader) throws -> Manifest {
        let path = reader.path
        guard let first = try reader.nextEntry() else { throw IntegrityError(path, "the archive is empty") }
        guard first.name == Manifest.entryName else {
            throw IntegrityError(
                path, "the first entry is '\(first.name)', not \(Manifest.entryName); this is not an importer archive")
        }
        let manifest: Manifest
        do {
            manifest = try Manifest.decode(try readWhole(first, reader, limit: maxMetadataBytes))
        } catch let error as IntegrityError {
            throw error
        } catch {
            throw IntegrityError(path, "\(Manifest.entryName) is not a valid manifest: \(error)")
        }
        guard manifest.formatVersion == Manifest.currentFormatVersion else {
            throw IntegrityError(
                path,
                "archive format version \(manifest.formatVersion) is not one this importer (\(ToolVersion.current)) reads (\(Manifest.currentFormatVersion))"
            )
        }
        return manifest
    }

    /// A data entry's size, SHA-256 and item count against its manifest line.
    private static func checkData(
        _ entry: ArchiveReader.Entry, _ reader: ArchiveReader, against file: Manifest.EntityFile
    ) throws {
        let path = reader.path
        if let size = entry.size, size != file.bytes {
            throw IntegrityError(path, "\(file.file) is \(size) bytes, but the manifest says \(file.bytes)")
        }
        let found = try measure(entry, reader, file: file, in: path)
        guard found.bytes == file.bytes else {
            throw IntegrityError(path, "\(file.file) holds \(found.bytes) bytes, but the manifest says \(file.bytes)")
        }
        guard found.sha256 == file.sha256 else {
            throw IntegrityError(path, "\(file.file) has SHA-256 \(found.sha256), but the manifest says \(file.sha256)")
        }
        guard found.items == file.items else {
            throw IntegrityError(path, "\(file.file) holds \(found.items) items, but the manifest says \(file.items)")
        }
    }

    /// The archive's model.yaml: a valid model, the one the manifest names, with every entity
    /// the manifest lists.
    private static func checkModel(_ text: String, against manifest: Manifest, in path: String) throws -> Model {
        let model: Model
        do {
            model = try ModelLoader.parse(text: text, file: "\(path):\(Manifest.modelEntryName)")
        } catch {
            throw IntegrityError(path, "\(Manifest.modelEntryName) is not a valid model: \(error)")
        }
        guard model.name == manifest.model.name, model.version == manifest.model.version,
            model.checksum == manifest.model.checksum
        else {
            throw IntegrityError(
                path,
                "\(Manifest.modelEntryName) is \(model.name) version \(model.version) (checksum \(model.checksum)), but the manifest says \(manifest.model.name) version \(manifest.model.version) (checksum \(manifest.model.checksum))"
            )
        }
        for file in manifest.entities where model.entity(named: file.entity) == nil {
            throw IntegrityError(
                path, "the manifest lists entity \(file.entity), which the archive's model does not have")
        }
        return model
    }

    /// Refuses absolute paths, `..`, links and anything but regular files.
    static func checkSafe(_ entry: ArchiveReader.Entry, in path: String) throws {
        guard isSafeEntryName(entry.name) else {
            throw IntegrityError(path, "entry '\(entry.name)' has an unsafe path (absolute, or with '..'); refused")
        }
        if let target = entry.linkTarget {
            throw IntegrityError(path, "entry '\(entry.name)' is a link to '\(target)'; refused")
        }
        guard entry.isRegularFile else {
            throw IntegrityError(path, "entry '\(entry.name)' is not a regular file; refused")
        }
    }

    static func isSafeEntryName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix("/") && !name.contains("\\")
            && !name.split(separator: "/", omittingEmptySubsequences: false).contains {
                $0 == ".." || $0 == "." || $0.isEmpty
            }
    }

    /// A small entry's bytes, refusing more than `limit`.
    private static func readWhole(_ entry: ArchiveReader.Entry, _ reader: ArchiveReader, limit: Int) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try reader.read(into: $0.baseAddress!, count: $0.count) }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            guard bytes.count <= limit else {
                throw IntegrityError(reader.path, "\(entry.name) is larger than \(limit) bytes; refused")
            }
        }
    }

    /// Streams a data entry: bytes, SHA-256 and items, stopping as soon as it holds more bytes
    /// than the manifest says (no decompression bomb gets past its manifest).
    private static func measure(
        _ entry: ArchiveReader.Entry, _ reader: ArchiveReader, file: Manifest.EntityFile, in path: String
    ) throws -> (bytes: Int64, sha256: String, items: Int) {
        var digest = SHA256Digest()
        var counter = ItemCounter(format: file.format)
        var bytes: Int64 = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try chunk.withUnsafeMutableBytes { buffer -> Int in
                let count = try reader.read(into: buffer.baseAddress!, count: buffer.count)
                let data = UnsafeRawBufferPointer(rebasing: buffer[..<count])
                digest.update(data)
                counter.count(data)
                return count
            }
            if count == 0 { break }
            bytes += Int64(count)
            guard bytes <= file.bytes else {
                throw IntegrityError(
                    path, "\(file.file) holds more than the \(file.bytes) bytes the manifest says; refused")
            }
        }
        return (bytes, digest.hexDigest(), counter.items)
    }

    private static let maxMetadataBytes = 16 << 20
}

/// Counts the items of a data file as its bytes stream by: lines for the JSON line formats,
/// records (line ends outside quotes) after the header for CSV.
struct ItemCounter {
    private let csv: Bool
    private var inQuotes = false
    private var lineEnds = 0

    init(format: ExportFormat) { csv = format == .csv }

    var items: Int { csv ? max(lineEnds - 1, 0) : lineEnds }

    mutating func count(_ bytes: UnsafeRawBufferPointer) {
        if !csv {
            for byte in bytes where byte == 10 { lineEnds += 1 }
            return
        }
        for byte in bytes {
            if byte == 34 { inQuotes.toggle() } else if byte == 10 && !inQuotes { lineEnds += 1 }
        }
    }
}
