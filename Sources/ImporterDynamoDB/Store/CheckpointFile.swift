import Foundation
import ImporterAWS
import ImporterCore

/// A checkpoint and its write-stage rejections as one JSON file, replaced atomically (written
/// beside, then renamed).
enum CheckpointFile {
    private struct Contents: Codable {
        var checkpoint: Checkpoint
        var rejections: [Checkpoint.WriteRejection]
    }

    static func save(_ checkpoint: Checkpoint, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            let directory = FilePaths.directory(of: path)
            if !directory.isEmpty {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            let contents = Contents(checkpoint: checkpoint, rejections: checkpoint.rejections)
            try OutputFile.write(encoder.encode(contents), to: path)
        } catch {
            throw StoreError(
                .storage(resultCode: nil), "\(path): cannot save the checkpoint: \(error)",
                operation: "save checkpoint",
                underlying: error)
        }
    }

    static func load(from path: String) throws -> Checkpoint? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        do {
            let contents = try JSONDecoder().decode(Contents.self, from: data)
            var checkpoint = contents.checkpoint
            checkpoint.rejections = contents.rejections
            return checkpoint
        } catch {
            throw StoreError(
                .unusableCheckpoint, "\(path): the checkpoint is unreadable (\(error)); delete it to start over",
                operation: "load checkpoint", underlying: error)
        }
    }
}
