import CArchive
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

    init(path: String) throws {
        self.path = path
        archive = archive_read_new()
        archive_read_support_filter_all(archive)
        archive_read_support_format_tar(archive)
        archive_read_support_format_zip(archive)
        guard archive_read_open_filename(archive, path, 1 << 16) == ARCHIVE_OK else {
            let message = errorMessage
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
        let name = archive_entry_pathname_utf8(entry).map { String(cString: $0) }
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
        guard result >= 0 else { throw ArchiveError(path: path, "cannot read the data: \(errorMessage)") }
        return result
    }

    /// Compressed bytes consumed from the archive file so far.
    var bytesConsumed: Int64 { archive_filter_bytes(archive, -1) }

    private var errorMessage: String {
        archive_error_string(archive).map { String(cString: $0) } ?? "unknown libarchive error"
    }
}
