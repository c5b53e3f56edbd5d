import CArchive
import Foundation
import ImporterCore

/// Writes an archive entry by entry with libarchive. The archive is written to
/// `<path>.partial` and renamed into place by `finish()`, so a failed export never leaves a
/// truncated archive under the name a backup job keeps.
final class ArchiveWriter {
    private let archive: OpaquePointer
    private let path: String
    private let partialPath: String
    private var open = true
    /// The `.partial` file libarchive writes to.
    private var descriptor: Int32 = -1

    init(path: String, kind: ArchiveKind) throws {
        self.path = path
        partialPath = path + ".partial"
        archive = archive_write_new()
        switch kind {
        case .zip: archive_write_set_format_zip(archive)
        default: archive_write_set_format_pax_restricted(archive)
        }
        switch kind {
        case .tarGzip: archive_write_add_filter_gzip(archive)
        case .tarZstd:
            archive_write_add_filter_zstd(archive)
            // zstd's own worker compresses while the export encodes the next chunk.
            archive_write_set_filter_option(archive, "zstd", "threads", "1")
        case .tarXz: archive_write_add_filter_xz(archive)
        case .tar, .zip: archive_write_add_filter_none(archive)
        }
        let directory = FilePaths.directory(of: path)
        if !directory.isEmpty {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        do {
            descriptor = try OutputFile.create(partialPath)  // never through a link planted at the name
        } catch {
            archive_write_free(archive)
            open = false
            throw ArchiveError(path: path, "cannot create the archive: \(error)")
        }
        guard archive_write_open_fd(archive, descriptor) == ARCHIVE_OK else {
            let message = errorMessage
            archive_write_free(archive)
            closeDescriptor()
            unlink(partialPath)
            open = false
            throw ArchiveError(path: path, "cannot create the archive: \(message)")
        }
    }

    deinit {
        guard open else { return }
        archive_write_free(archive)
        closeDescriptor()
        unlink(partialPath)
    }

    private func closeDescriptor() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    /// Starts a regular file entry of exactly `size` bytes (tar headers carry the size first).
    func beginEntry(name: String, size: Int64, modified: Date) throws {
        let entry = archive_entry_new()
        defer { archive_entry_free(entry) }
        archive_entry_set_pathname_utf8(entry, name)
        archive_entry_set_size(entry, size)
        archive_entry_set_filetype(entry, Self.regularFile)
        archive_entry_set_perm(entry, 0o644)
        archive_entry_set_mtime(entry, Int(modified.timeIntervalSince1970), 0)
        guard archive_write_header(archive, entry) == ARCHIVE_OK else {
            throw ArchiveError(path: path, "cannot write the header of \(name): \(errorMessage)")
        }
    }

    /// Appends bytes to the current entry.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0 else { return }
        let written = archive_write_data(archive, bytes.baseAddress, bytes.count)
        guard written == bytes.count else {
            throw ArchiveError(path: path, "cannot write: \(errorMessage)")
        }
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Closes the archive and moves it to its final name.
    func finish() throws {
        var closed = archive_write_close(archive) == ARCHIVE_OK
        var message = closed ? "" : errorMessage
        archive_write_free(archive)
        if closed && close(descriptor) != 0 {
            closed = false
            message = String(cString: strerror(errno))
        } else if !closed {
            close(descriptor)
        }
        descriptor = -1
        open = false
        guard closed else {
            unlink(partialPath)
            throw ArchiveError(path: path, "cannot finish the archive: \(message)")
        }
        try Self.moveIntoPlace(partialPath, path)
    }

    /// Renames a finished `<path>.partial` to `path` (or removes it); a link at `path` is
    /// replaced, not followed.
    static func moveIntoPlace(_ partialPath: String, _ path: String) throws {
        do {
            try OutputFile.moveIntoPlace(partialPath, path)
        } catch let error as OutputFileError {
            throw ArchiveError(
                path: path, "cannot move the finished archive into place: \(String(cString: strerror(error.code)))")
        }
    }

    private var errorMessage: String {
        archive_error_string(archive).map { String(cString: $0) } ?? "unknown libarchive error"
    }

    /// `AE_IFREG` (not imported into Swift).
    static let regularFile: mode_t = 0o100000
}
