import ImporterCore
import ImporterFormats

/// One data file of a verified archive as a reader's input, streamed from the archive. Its
/// bytes and SHA-256 are checked against the manifest again as they are read, so an archive
/// replaced after verification fails the run instead of slipping through.
final class ArchiveEntrySource: ByteSource {
    private let reader: ArchiveReader
    private let file: Manifest.EntityFile
    private let name: String
    private var digest = SHA256Digest()
    private(set) var bytesConsumed: Int64 = 0

    init(_ archive: VerifiedArchive, _ file: Manifest.EntityFile) throws {
        self.file = file
        name = "\(archive.path):\(file.file)"
        reader = try ArchiveReader(archive.input)
        while let entry = try reader.nextEntry() {
            try ArchiveVerifier.checkSafe(entry, in: archive.path)
            if entry.name == file.file { return }
        }
        throw InputError(path: name, message: "the entry is gone from the archive since it was verified")
    }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws -> Int {
        let read = try reader.read(into: buffer, count: count)
        digest.update(UnsafeRawBufferPointer(start: buffer, count: read))
        bytesConsumed += Int64(read)
        if read == 0 || bytesConsumed > file.bytes {
            let sha256 = read == 0 ? digest.hexDigest() : ""
            guard bytesConsumed == file.bytes, sha256 == file.sha256 else {
                throw InputError(
                    path: name,
                    message:
                        "the data changed since the archive was verified (\(bytesConsumed) bytes read, the manifest says \(file.bytes)); restore an intact copy"
                )
            }
        }
        return read
    }

    func close() { reader.close() }
}
