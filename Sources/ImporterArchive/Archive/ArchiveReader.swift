import CArchive
import ImporterFormats
import Foundation

/// Reads an archive entry by entry with libarchive (any container and compression it knows),
/// never extracting anything to disk.
final class ArchiveReader {
    /// What an entry's header says.
    struct Entry {
        var name: String
        var isRegularFile: Bool
        /// Set for symbolic and hard links.
        var linkTarget: String?
        /// The size the header declares, when it declares one (zip may not).
        var size: Int64?
    }

    let path: String
    private let archive: OpaquePointer
    private var closed = false

    /// Kept alive while libarchive reads through its callback (archives not in a file).
    private let streamed: CompressedInput?

    convenience init(path: String) throws {
        try self.init(.file(path))
    }

    init(_ input: ArchiveInput) throws {
        path = input.name
        archive = archive_read_new()
        archive_read_support_filter_all(archive)
        archive_read_support_format_tar(archive)
        archive_read_support_format_zip(archive)
        let opened: Int32
        switch input {
        case .file(let path):
            streamed = nil
            opened = archive_read_open_filename(archive, path, 1 << 16)
        case .stream(_, let open):
            let bytes = CompressedInput(try open())
            streamed = bytes
            opened = archive_read_open(
                archive, Unmanaged.passUnretained(bytes).toOpaque(), nil,
                { _, client, block in
                    Unmanaged<CompressedInput>.fromOpaque(client!).takeUnretainedValue().next(block!)
                }, nil)
        }
        guard opened == ARCHIVE_OK else {
            let message = streamed?.error.map { "\($0)" } ?? errorMessage
            archive_read_free(archive)
            closed = true
            throw ArchiveError(path: path, "cannot open the archive: \(message)")
        }
    }

    deinit { close() }

    func close() {
        guard !closed else { return }
        closed = true
        archive_read_free(archive)
    }

    /// The next entry's header, or nil at the end of the archive.
    func nextEntry() throws -> Entry? {
        var entry: OpaquePointer?
        switch archive_read_next_header(archive, &entry) {
        case ARCHIVE_EOF: return nil
        case ARCHIVE_OK, ARCHIVE_WARN: break
        default: throw ArchiveError(path: path, "cannot read the next entry: \(errorMessage)")
        }
        let name =
            archive_entry_pathname_utf8(entry).map { String(cString: $0) }
            ?? archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
        let link = archive_entry_symlink(entry) ?? archive_entry_hardlink(entry)
        return Entry(
            name: name,
            isRegularFile: archive_entry_filetype(entry) == ArchiveWriter.regularFile,
            linkTarget: link.map { String(cString: $0) },
            size: archive_entry_size_is_set(entry) != 0 ? archive_entry_size(entry) : nil)
    }

    /// Reads up to `count` bytes of the current entry; 0 at its end.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        let result = archive_read_data(archive, buffer, count)
        guard result >= 0 else {
            throw ArchiveError(path: path, "cannot read the data: \(streamed?.error.map { "\($0)" } ?? errorMessage)")
        }
        return result
    }

    /// Compressed bytes consumed from the archive file so far.
    var bytesConsumed: Int64 { archive_filter_bytes(archive, -1) }

    private var errorMessage: String {
        archive_error_string(archive).map { String(cString: $0) } ?? "unknown libarchive error"
    }
}
