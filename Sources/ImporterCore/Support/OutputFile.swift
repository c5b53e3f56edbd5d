import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// How the importer creates the files it writes (reports, archives): never through a symbolic
/// link it did not make, and a finished file replaces the old one whole (docs/reports.md#report-files).
package enum OutputFile {
    /// Writes `data` to `path` as a whole: into a new file in the same folder (created
    /// exclusively), flushed, then renamed over `path`. A reader sees the old file or the new
    /// one, never a part of one; a symbolic link at `path` is replaced, not followed.
    package static func write(_ data: Data, to path: String) throws {
        let temporary = temporaryPath(for: path)
        let fd = try create(temporary)
        do {
            try data.withUnsafeBytes { try writeAll(fd, $0, path: path) }
            guard fsync(fd) == 0 else { throw OutputFileError(path: path, operation: "write", code: errno) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        try moveIntoPlace(temporary, path)
    }

    /// Creates a new file at `path` for writing and returns its descriptor. Whatever is at
    /// `path` — an old file, a symbolic link — is removed first (the link, not its target), and
    /// the file is created exclusively, so a link planted meanwhile is refused, not followed.
    package static func create(_ path: String) throws -> Int32 {
        if unlink(path) != 0 && errno != ENOENT {
            throw OutputFileError(path: path, operation: "replace", code: errno)
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputFileError(path: path, operation: "create", code: errno) }
        return fd
    }

    /// Renames `temporary` over `path` (a link at `path` is replaced, not followed); removes
    /// `temporary` if that fails.
    package static func moveIntoPlace(_ temporary: String, _ path: String) throws {
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw OutputFileError(path: path, operation: "rename into place", code: code)
        }
    }

    /// A name for a file to be renamed to `path`: in the same folder, hidden, unique to this
    /// process and call.
    package static func temporaryPath(for path: String) -> String {
        let name = FilePaths.lastComponent(path)
        return FilePaths.join(
            FilePaths.directory(of: path), ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
    }

    private static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, path: String) throws {
        var done = 0
        while done < buffer.count {
            let count = Foundation.write(fd, buffer.baseAddress! + done, buffer.count - done)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw OutputFileError(path: path, operation: "write", code: errno) }
            done += count
        }
    }
}

/// A file the importer writes could not be created or written.
package struct OutputFileError: Error, CustomStringConvertible, Sendable {
    package let path: String
    package let operation: String
    /// The `errno` of the failed call.
    package let code: Int32

    package var description: String {
        var text = "cannot \(operation) \(path): \(String(cString: strerror(code)))"
        switch code {
        case ENOSPC: text += "; free some space on its disk"
        case EACCES, EROFS, EPERM: text += "; check that its folder is writable"
        case EEXIST, ELOOP: text += "; something else created it meanwhile"
        default: break
        }
        return text
    }
}
