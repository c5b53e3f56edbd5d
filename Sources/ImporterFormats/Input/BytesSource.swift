/// Bytes in memory as a `ByteSource`: the sniffer's sample of a file, one record read again, a
/// fuzzer's input.
package final class BytesSource: ByteSource {
    private let bytes: [UInt8]
    private var position = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        let length = min(count, bytes.count - position)
        guard length > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: source.baseAddress! + position, byteCount: length)
        }
        position += length
        return length
    }

    package var bytesConsumed: Int64 { Int64(position) }

    package func close() {}
}
