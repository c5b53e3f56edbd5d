import Foundation
import Synchronization

/// Where the text of a document source's large documents is read again once their records let
/// it go (docs/documents.md#large-documents), when a rejection lists one: the input file itself
/// when it is read as it is, else a temporary copy of each such document (its input gzip'd,
/// decoded from another encoding, or an S3 object). One per input file, shared by its root's
/// and its children's inputs. The temporary file is created at the first copy and unlinked at
/// once; both files are opened once and closed with this object.
final class DocumentTexts: Sendable {
    private struct State {
        /// The temporary file; -1 until a document is copied.
        var copies: Int32 = -1
        var size: Int64 = 0
        /// Where each document copied starts in the input, its length, and where it is copied.
        var places: [(offset: Int64, count: Int64, at: Int64)] = []
        /// The input file, opened at its first read; -1 when it cannot be.
        var input: Int32?
    }

    /// The input file.
    let path: String
    private let state = Mutex(State())

    init(path: String) { self.path = path }

    deinit {
        state.withLock { state in
            if state.copies >= 0 { close(state.copies) }
            if let input = state.input, input >= 0 { close(input) }
        }
    }

    /// Copies `text`, which starts at `offset` in the input. False when it cannot be written:
    /// the document's records then keep their text.
    func copy(_ text: ArraySlice<UInt8>, at offset: Int64) -> Bool {
        state.withLock { state in
            if state.copies < 0 {
                var template = Array(FilePaths.join(NSTemporaryDirectory(), "importer-documents-XXXXXX").utf8CString)
                let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
                guard descriptor >= 0 else { return false }
                template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
                state.copies = descriptor
            }
            let written = text.withUnsafeBytes { bytes in
                Self.fully(bytes.count) { done in
                    pwrite(state.copies, bytes.baseAddress! + done, bytes.count - done, off_t(state.size) + off_t(done))
                }
            }
            guard written else { return false }
            state.places.append((offset, Int64(text.count), state.size))
            state.size += Int64(text.count)
            return true
        }
    }

    /// The input's bytes at `range`: from a copy that holds them, else from the input file;
    /// empty when neither can be read.
    func text(at range: Range<Int64>) -> ArraySlice<UInt8> {
        state.withLock { state in
            var descriptor: Int32, start = range.lowerBound
            if let place = state.places.last(where: {
                $0.offset <= range.lowerBound && range.upperBound <= $0.offset + $0.count
            }) {
                descriptor = state.copies
                start = place.at + range.lowerBound - place.offset
            } else {
                if state.input == nil { state.input = open(path, O_RDONLY) }
                descriptor = state.input!
                guard descriptor >= 0 else { return [] }
            }
            var bytes = [UInt8](repeating: 0, count: range.count)
            let read = bytes.withUnsafeMutableBytes { buffer in
                Self.fully(buffer.count) { done in
                    pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(start) + off_t(done))
                }
            }
            return read ? bytes[...] : []
        }
    }

    /// Runs `transfer` (given the bytes done so far; it returns how many more it moved) until
    /// `count` bytes are moved; false when it moves none.
    private static func fully(_ count: Int, _ transfer: (Int) -> Int) -> Bool {
        var done = 0
        while done < count {
            let moved = transfer(done)
            guard moved > 0 else { return false }
            done += moved
        }
        return true
    }
}
