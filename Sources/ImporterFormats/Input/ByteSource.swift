import CArchive
import Foundation
import ImporterCore

/// Raw bytes of an input: a plain or gzip-compressed file, or an archive entry.
package protocol ByteSource: AnyObject {
    /// Reads up to `count` bytes into `buffer`; 0 at the end of the input.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int
    /// Bytes consumed from the file on disk (compressed bytes for .gz).
    var bytesConsumed: Int64 { get }
    func close()
}

extension ByteSource {
    /// Everything left to read, `chunkSize` bytes at a time (tests and the fuzz targets read
    /// small chunks to cross every boundary).
    package func readAll(chunkSize: Int = 1 << 16) throws -> [UInt8] {
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let read = try buffer.withUnsafeMutableBytes { try self.read(into: $0.baseAddress!, count: $0.count) }
            if read == 0 { return all }
            all += buffer[..<read]
        }
    }
}

/// An I/O failure while reading an input: the run aborts.
package struct InputError: Error, CustomStringConvertible {
    package let path: String
    package let message: String

    package init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    package var description: String { "\(path): \(message)" }
}

/// Opens `path`, decompressing `.gz` transparently.
func openByteSource(_ path: String) throws -> ByteSource {
    path.lowercased().hasSuffix(".gz") ? try GzipSource(path: path) : try FileSource(path: path)
}

/// A plain file, read with read(2).
final class FileSource: ByteSource {
    private let descriptor: Int32
    private let path: String
    private(set) var bytesConsumed: Int64 = 0

    init(path: String) throws {
        self.path = path
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw InputError(path: path, message: "cannot open: \(String(cString: strerror(errno)))")
        }
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        while true {
            let result = Foundation.read(descriptor, buffer, count)
            if result >= 0 {
                bytesConsumed += Int64(result)
                return result
            }
            if errno != EINTR {
                throw InputError(path: path, message: "read failed: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Up to `count` bytes from the start of the file, read without moving its position; nil
    /// when it cannot be read so (a pipe).
    func firstBytes(_ count: Int) throws -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        while true {
            let result = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, count, 0) }
            if result >= 0 { return Array(bytes[..<result]) }
            if errno == ESPIPE { return nil }
            if errno != EINTR {
                throw InputError(path: path, message: "read failed: \(String(cString: strerror(errno)))")
            }
        }
    }

    private var closed = false

    /// Closes the file once: a later call (deinit after a decompressor closed it) must not close
    /// a descriptor number the process has reused meanwhile.
    func close() {
        guard !closed else { return }
        closed = true
        Foundation.close(descriptor)
    }

    deinit { close() }
}

/// A gzip file, decompressed by libarchive's raw format.
final class GzipSource: ByteSource {
    /// Owned: freed once, by `close()` (or deinit), including when `init` fails.
    private let archive: OpaquePointer
    private let path: String
    private var closed = false

    /// The compressed bytes when they come from another source (an S3 object), not a file.
    private let compressed: CompressedInput?

    init(path: String) throws {
        self.path = path
        compressed = nil
        archive = Self.newArchive()
        guard archive_read_open_filename(archive, path, 1 << 16) == ARCHIVE_OK else {
            // deinit frees the handle
            throw InputError(path: path, message: "cannot open as gzip: \(lastError(or: "the file cannot be read"))")
        }
        try readHeader()
    }

    /// Decompresses the bytes of `source`; `name` stands for them in messages.
    init(source: ByteSource, name: String) throws {
        path = name
        let input = CompressedInput(source)
        compressed = input
        archive = Self.newArchive()
        let opened = archive_read_open(
            archive, Unmanaged.passUnretained(input).toOpaque(), nil,
            { _, client, block in
                let input = Unmanaged<CompressedInput>.fromOpaque(client!).takeUnretainedValue()
                return input.next(block!)
            }, nil)
        guard opened == ARCHIVE_OK else {
            throw input.error
                ?? InputError(path: name, message: "cannot open as gzip: \(lastError(or: "the input cannot be read"))")
        }
        try readHeader()
    }

    private static func newArchive() -> OpaquePointer {
        let archive = archive_read_new()!
        archive_read_support_filter_all(archive)
        archive_read_support_format_raw(archive)
        archive_read_support_format_empty(archive)  // gzip of nothing
        return archive
    }

    private func readHeader() throws {
        var entry: OpaquePointer?
        let header = archive_read_next_header(archive, &entry)
        // libarchive passes bytes it does not recognise through as they are: a `.gz` must be gzip.
        guard archive_filter_code(archive, 0) == ARCHIVE_FILTER_GZIP else {
            throw InputError(
                path: path,
                message:
                    "is not gzip-compressed: it does not start with a whole gzip header (empty or truncated file?); a plain text file must not be named .gz"
            )
        }
        switch header {
        case ARCHIVE_OK: break
        case ARCHIVE_EOF: empty = true  // gzip of nothing: an empty input
        default: throw InputError(path: path, message: "cannot open as gzip: \(lastError(or: "a damaged gzip header"))")
        }
    }

    private var empty = false

    /// libarchive's message for the last failure (it may have none).
    private func lastError(or fallback: String) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? fallback
    }

    var bytesConsumed: Int64 { archive_filter_bytes(archive, -1) }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        if empty { return 0 }
        let result = archive_read_data(archive, buffer, count)
        if result < 0, let error = compressed?.error { throw error }
        guard result >= 0 else {
            throw InputError(
                path: path,
                message: "cannot decompress: \(lastError(or: "error \(result)")) (truncated or damaged file?)")
        }
        return result
    }

    func close() {
        guard !closed else { return }
        closed = true
        archive_read_free(archive)
    }

    deinit { close() }
}

/// Bytes handed to libarchive's read callback from another byte source, a block at a time;
/// a failure of the source is kept to be thrown instead of libarchive's message. (Compressed
/// inputs and archives read from S3.)
package final class CompressedInput {
    private let source: ByteSource
    private let block = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
    package private(set) var error: Error?

    package init(_ source: ByteSource) { self.source = source }

    /// The next block for libarchive: its length (0 at the end, -1 on failure).
    package func next(_ start: UnsafeMutablePointer<UnsafeRawPointer?>) -> Int {
        do {
            let count = try source.read(into: block, count: 1 << 16)
            start.pointee = UnsafeRawPointer(block)
            return count
        } catch {
            self.error = error
            return -1
        }
    }

    deinit {
        source.close()
        block.deallocate()
    }
}
