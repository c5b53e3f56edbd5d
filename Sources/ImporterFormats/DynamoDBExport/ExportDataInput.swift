/// The bytes of an export's data file as its reader takes them: gzip decompressed, except a file
/// with no bytes at all, which holds no items (an empty partition's file).
package enum ExportDataInput {
    /// `compressed` decompressed; `name` (the file's path or URL) stands for it in messages.
    package static func open(_ compressed: ByteSource, name: String) throws -> ByteSource {
        let peeked = try PeekedSource(compressed)
        return peeked.isEmpty ? peeked : try GzipSource(source: peeked, name: name)
    }
}

/// A byte source whose first block was read already, to tell an empty input from the start.
final class PeekedSource: ByteSource {
    private let source: ByteSource
    private var first: [UInt8]
    private var position = 0

    init(_ source: ByteSource) throws {
        self.source = source
        first = [UInt8](repeating: 0, count: 1 << 16)
        let count = try first.withUnsafeMutableBytes { try source.read(into: $0.baseAddress!, count: $0.count) }
        first.removeSubrange(count...)
    }

    /// Whether the input has no bytes at all.
    var isEmpty: Bool { first.isEmpty }

    var bytesConsumed: Int64 { source.bytesConsumed }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        guard position < first.count else { return try source.read(into: buffer, count: count) }
        let length = min(count, first.count - position)
        first.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + position, byteCount: length) }
        position += length
        return length
    }

    func close() { source.close() }
}
