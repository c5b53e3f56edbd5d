import Foundation
import ImporterCore

/// A one-pass archive written to `<path>.partial` and renamed to `path` by `finish()`, so a
/// failed export never leaves a truncated archive under the name a backup job keeps.
final class FileOutput: ArchiveOutput {
    private let path: String
    private let partialPath: String
    private var descriptor: Int32
    private var offset: Int64 = 0

    init(path: String) throws {
        self.path = path
        partialPath = path + ".partial"
        let directory = FilePaths.directory(of: path)
        if !directory.isEmpty {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        do {
            descriptor = try OutputFile.create(partialPath)  // never through a link planted at the name
        } catch {
            throw ArchiveError(path: path, "cannot create the archive: \(error)")
        }
    }

    deinit { abandon() }

    func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw writeFailure() }
                done += count
            }
        }
        offset += Int64(bytes.count)
    }

    func reserve(_ bytes: [UInt8]) throws -> Int64 {
        let start = offset
        try append(bytes)
        return start
    }

    func fill(_ bytes: [UInt8], at position: Int64) throws {
        let count = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(position)) }
        guard count == bytes.count else { throw writeFailure() }
    }

    func finish() throws {
        let closed = close(descriptor) == 0
        descriptor = -1
        guard closed else {
            let reason = String(cString: strerror(errno))
            unlink(partialPath)
            throw ArchiveError(path: path, "cannot finish the archive: \(reason)")
        }
        try ArchiveWriter.moveIntoPlace(partialPath, path)
    }

    func abandon() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
        unlink(partialPath)
    }

    private func writeFailure() -> ArchiveError {
        ArchiveError(path: path, "cannot write: \(String(cString: strerror(errno)))")
    }
}
