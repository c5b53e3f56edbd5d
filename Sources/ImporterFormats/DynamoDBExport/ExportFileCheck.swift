import ImporterCore

/// The check of one export data file against its manifest line, before anything is written
/// (docs/pipeline.md#s3-sources): the MD5 of its bytes as stored and the number of items (non-blank lines) in it.
package enum ExportFileCheck {
    /// Reads `stored` (the .json.gz's bytes) to its end and throws `ExportIntegrityError` unless
    /// its MD5 and item count are the manifest's. `location` (path or `s3://` URL) names the file.
    package static func verify(_ file: ExportDataFile, stored: ByteSource, location: String, export: String) throws {
        let (md5, items) = try measure(stored, location: location, export: export)
        guard md5 == file.md5Checksum else {
            throw ExportIntegrityError(
                export: export, file: location,
                "the MD5 of the file is \(md5) (base64), but \(ExportManifest.filesName) line \(file.manifestLine) says \(file.md5Checksum)"
            )
        }
        guard items == file.itemCount else {
            throw ExportIntegrityError(
                export: export, file: location,
                "the file holds \(items) items, but \(ExportManifest.filesName) line \(file.manifestLine) says \(file.itemCount)"
            )
        }
    }

    /// The base64 MD5 of `stored` and the items in it, decompressed.
    static func measure(_ stored: ByteSource, location: String, export: String) throws -> (md5: String, items: Int) {
        let hashing = HashingSource(stored)
        defer { hashing.close() }
        var counter = ItemLineCounter()
        do {
            let data = try ExportDataInput.open(hashing, name: location)
            let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
            defer { block.deallocate() }
            while case let count = try data.read(into: block.baseAddress!, count: block.count), count > 0 {
                counter.count(UnsafeRawBufferPointer(rebasing: block[..<count]))
            }
            try hashing.drain()  // bytes after the gzip stream count in the MD5 too
        } catch let error as InputError {
            throw ExportIntegrityError(export: export, file: location, error.message)
        }
        return (hashing.base64Digest(), counter.finish())
    }
}

/// Counts the non-blank lines of a text fed in blocks.
struct ItemLineCounter {
    private var items = 0
    private var lineHasText = false

    mutating func count(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            if byte == 10 {
                if lineHasText { items += 1 }
                lineHasText = false
            } else if !isJSONSpace(byte) {
                lineHasText = true
            }
        }
    }

    /// The count, with a last line that has no line feed.
    mutating func finish() -> Int {
        if lineHasText { items += 1 }
        lineHasText = false
        return items
    }
}

/// A byte source that hashes (MD5) every byte read through it.
final class HashingSource: ByteSource {
    private let source: ByteSource
    private var md5 = MD5Digest()
    private var closed = false

    init(_ source: ByteSource) { self.source = source }

    var bytesConsumed: Int64 { source.bytesConsumed }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        let read = try source.read(into: buffer, count: count)
        md5.update(UnsafeRawBufferPointer(start: buffer, count: read))
        return read
    }

    /// Reads (and hashes) whatever the reader of the data left.
    func drain() throws {
        guard !closed else { return }
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while try block.withUnsafeMutableBytes({ try read(into: $0.baseAddress!, count: $0.count) }) > 0 {}
    }

    func base64Digest() -> String { md5.base64Digest() }

    func close() {
        guard !closed else { return }
        closed = true
        source.close()
    }
}
