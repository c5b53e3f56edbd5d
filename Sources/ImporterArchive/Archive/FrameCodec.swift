import CZlib
import CZstd

/// The compression of a one-pass tar archive: a sequence of independent frames (gzip members,
/// zstd frames) that gzip, zstd, GNU tar, bsdtar and Python all read as one stream.
enum FrameCodec: Sendable {
    case identity, gzip, zstd

    init?(_ kind: ArchiveKind) {
        switch kind {
        case .tar: self = .identity
        case .tarGzip: self = .gzip
        case .tarZstd: self = .zstd
        case .tarXz, .zip: return nil
        }
    }

    /// `bytes` in a frame that stores them uncompressed, so that the frame's length depends on
    /// `bytes.count` alone: a header can be written as a placeholder and rewritten in place.
    func stored(_ bytes: [UInt8]) -> [UInt8] {
        switch self {
        case .identity: return bytes
        case .gzip: return Self.storedGzipMember(bytes)
        case .zstd: return Self.rawZstdFrame(bytes)
        }
    }

    /// A compressor for one thread (it keeps its context between chunks).
    func makeCompressor() throws -> FrameCompressor {
        switch self {
        case .identity: return IdentityCompressor()
        case .gzip: return try GzipCompressor()
        case .zstd: return try ZstdCompressor()
        }
    }

    /// A gzip member of deflate "stored" blocks (RFC 1951 §3.2.4, RFC 1952).
    private static func storedGzipMember(_ bytes: [UInt8]) -> [UInt8] {
        var member: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]
        var offset = 0
        repeat {
            let length = min(65_535, bytes.count - offset)
            let final: UInt8 = offset + length == bytes.count ? 1 : 0
            member += [
                final, UInt8(length & 0xff), UInt8(length >> 8), UInt8(~length & 0xff), UInt8((~length >> 8) & 0xff),
            ]
            member += bytes[offset..<offset + length]
            offset += length
        } while offset < bytes.count
        let crc = bytes.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
        member +=
            littleEndian(UInt64(crc), count: 4)
            + littleEndian(UInt64(UInt32(truncatingIfNeeded: bytes.count)), count: 4)
        return member
    }

    /// A single-segment zstd frame of raw blocks, with its content size (RFC 8878 §3.1.1).
    private static func rawZstdFrame(_ bytes: [UInt8]) -> [UInt8] {
        // Magic number; frame header descriptor: 8-byte content size, single segment.
        var frame: [UInt8] = [0x28, 0xb5, 0x2f, 0xfd, 0xe0] + littleEndian(UInt64(bytes.count), count: 8)
        var offset = 0
        repeat {
            let length = min(128 * 1024, bytes.count - offset)
            let last = offset + length == bytes.count ? 1 : 0
            // Block header: last-block bit, type 0 (raw), size.
            frame += littleEndian(UInt64(length << 3 | last), count: 3)
            frame += bytes[offset..<offset + length]
            offset += length
        } while offset < bytes.count
        return frame
    }

    private static func littleEndian(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

/// zlib or zstd refused to compress; the archive writer names the file.
struct CompressionFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// Compresses one chunk into one complete frame. Each belongs to the thread that made it.
protocol FrameCompressor: AnyObject {
    func frame(of chunk: [UInt8]) throws -> [UInt8]
}

private final class IdentityCompressor: FrameCompressor {
    func frame(of chunk: [UInt8]) throws -> [UInt8] { chunk }
}

/// zlib at level 6, gzip wrapper (the level libarchive and gzip use by default).
private final class GzipCompressor: FrameCompressor {
    private var stream = z_stream()

    init() throws {
        guard
            deflateInit2_(
                &stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)
            ) == Z_OK
        else {
            throw CompressionFailure("cannot start gzip compression")
        }
    }

    deinit { deflateEnd(&stream) }

    func frame(of chunk: [UInt8]) throws -> [UInt8] {
        guard deflateReset(&stream) == Z_OK else { throw CompressionFailure("cannot reset gzip compression") }
        let capacity = Int(deflateBound(&stream, UInt(chunk.count)))
        var status: Int32 = Z_OK
        let output = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            chunk.withUnsafeBufferPointer { input in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = buffer.baseAddress
                stream.avail_out = UInt32(capacity)
                status = deflate(&stream, Z_FINISH)
            }
            count = capacity - Int(stream.avail_out)
        }
        guard status == Z_STREAM_END else {
            throw CompressionFailure("gzip compression failed (zlib status \(status))")
        }
        return output
    }
}

/// zstd at level 3 (zstd's and libarchive's default).
private final class ZstdCompressor: FrameCompressor {
    private let context: OpaquePointer

    init() throws {
        guard let context = ZSTD_createCCtx() else { throw CompressionFailure("cannot start zstd compression") }
        self.context = context
    }

    deinit { ZSTD_freeCCtx(context) }

    func frame(of chunk: [UInt8]) throws -> [UInt8] {
        let capacity = ZSTD_compressBound(chunk.count)
        var result = 0
        let output = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            result = chunk.withUnsafeBytes { input in
                ZSTD_compressCCtx(context, buffer.baseAddress, capacity, input.baseAddress, input.count, 3)
            }
            count = ZSTD_isError(result) == 0 ? result : 0
        }
        guard ZSTD_isError(result) == 0 else {
            throw CompressionFailure("zstd compression failed: \(String(cString: ZSTD_getErrorName(result)))")
        }
        return output
    }
}
