import Foundation
import Synchronization

/// A temporary file that holds the text of a document source's large documents when their
/// input cannot be read again at an offset (gzip'd, decoded from another encoding, an S3
/// object): their records then let their text go as a local file's do, and a rejection that
/// lists one reads it here (docs/documents.md#large-documents). The file is created at the
/// first document kept, unlinked at once, and closed with this object.
final class DocumentTextFile: Sendable {
    private struct State {
        var descriptor: Int32 = -1
        var size: Int64 = 0
        /// Where each document kept starts in the input, its length, and where it is here.
        var places: [(offset: Int64, count: Int64, at: Int64)] = []
    }

    private let state = Mutex(State())

    init() {}

    deinit {
        state.withLock { state in
            if state.descriptor >= 0 { close(state.descriptor) }
        }
    }

    /// Keeps `text`, which starts at `offset` in the input. False when it cannot be written:
    /// the document's records then keep their text.
    func keep(_ text: ArraySlice<UInt8>, at offset: Int64) -> Bool {
        state.withLock { state in
            if state.descriptor < 0 {
                var template = Array(FilePaths.join(NSTemporaryDirectory(), "importer-documents-XXXXXX").utf8CString)
                let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
                guard descriptor >= 0 else { return false }
                template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
                state.descriptor = descriptor
            }
            let written = text.withUnsafeBytes { bytes in
                var done = 0
                while done < bytes.count {
                    let count = pwrite(
                        state.descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(state.size) + off_t(done)
                    )
                    guard count > 0 else { return false }
                    done += count
                }
                return true
            }
            guard written else { return false }
            state.places.append((offset, Int64(text.count), state.size))
            state.size += Int64(text.count)
            return true
        }
    }

    /// The input's bytes at `range`, when a document kept here holds them.
    func text(at range: Range<Int64>) -> ArraySlice<UInt8>? {
        state.withLock { state in
            guard
                let place = state.places.last(where: {
                    $0.offset <= range.lowerBound && range.upperBound <= $0.offset + $0.count
                })
            else { return nil }
            var bytes = [UInt8](repeating: 0, count: range.count)
            let start = place.at + range.lowerBound - place.offset
            let read = bytes.withUnsafeMutableBytes { buffer in
                var done = 0
                while done < buffer.count {
                    let count = pread(
                        state.descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(start) + off_t(done))
                    guard count > 0 else { return false }
                    done += count
                }
                return true
            }
            return read ? bytes[...] : nil
        }
    }
}
