import Foundation
import ImporterArchive

/// Any bytes given to `restore` as an archive are verified or refused with an error (docs/archives.md):
/// the verifier reads every entry before anything would be written.
enum RestoreInvariants {
    /// One file per process, rewritten for each input (the verifier reads archives by path).
    private static let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("importer-fuzz-restore-\(ProcessInfo.processInfo.processIdentifier).tar.gz").path

    static func check(_ bytes: [UInt8]) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw FuzzViolation(description: "cannot write \(path)")
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try? ArchiveVerifier.verify(path)
    }
}
