import Foundation
import ImporterAWS
import ImporterCore
import Synchronization

/// Where an unfinished DynamoDB migration stands, kept in a JSON file (replaced atomically)
/// beside the pipeline's report: per entity and scan segment, where the scan goes on and the
/// items of the page being written. A page's items are saved before any of them is written,
/// so a resumed migration migrates exactly those stored items again (the writes are
/// idempotent: same item, same version condition) instead of reading them back half migrated.
struct MigrationCheckpoint: Codable, Sendable {
    struct Segment: Codable, Sendable {
        /// The scan's `LastEvaluatedKey` after the last page taken (JSON); nil: from the start.
        var next: String?
        var finished = false
        /// The items (JSON) of the page being written, as they were stored before.
        var inFlight: [String] = []
    }

    var from: Int
    var to: Int
    /// The counts of the check that preceded the writes, for the report.
    var steps: [MigrationReport.Step]
    /// Per start-version entity name.
    var entities: [String: [Segment]] = [:]

    static func load(from path: String) throws -> MigrationCheckpoint? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        do {
            return try JSONDecoder().decode(MigrationCheckpoint.self, from: data)
        } catch {
            throw StoreError(
                .unusableCheckpoint, "\(path): the migration checkpoint is unreadable (\(error))", underlying: error)
        }
    }

    func save(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            let directory = FilePaths.directory(of: path)
            if !directory.isEmpty {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            try OutputFile.write(encoder.encode(self), to: path)
        } catch {
            throw StoreError(
                .storage(resultCode: nil), "\(path): cannot save the migration checkpoint: \(error)", underlying: error)
        }
    }
}

/// The checkpoint shared by the segments' tasks; every change is saved before it returns.
final class MigrationProgress: Sendable {
    private let checkpoint: Mutex<MigrationCheckpoint>
    private let path: String

    init(_ checkpoint: MigrationCheckpoint, path: String) {
        self.checkpoint = Mutex(checkpoint)
        self.path = path
    }

    var steps: [MigrationReport.Step] { checkpoint.withLock { $0.steps } }

    func segments(of entity: String, count: Int) -> [MigrationCheckpoint.Segment] {
        checkpoint.withLock { $0.entities[entity] ?? Array(repeating: .init(), count: count) }
    }

    func save(_ segment: MigrationCheckpoint.Segment, at index: Int, of entity: String, count: Int) throws {
        try checkpoint.withLock { checkpoint in
            var segments = checkpoint.entities[entity] ?? Array(repeating: .init(), count: count)
            segments[index] = segment
            checkpoint.entities[entity] = segments
            try checkpoint.save(to: path)
        }
    }

    func start() throws { try checkpoint.withLock { try $0.save(to: path) } }

    func remove() throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        try FileManager.default.removeItem(atPath: path)
    }
}

/// JSON text of an item or a scan key (sorted members, so the same item gives the same text) and back.
enum JSONObjectText {
    static func text(_ item: DynamoItem) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(item)) ?? Data("{}".utf8), as: UTF8.self)
    }

    static func object(_ text: String) throws -> DynamoItem {
        guard let item = try? JSONDecoder().decode(DynamoItem.self, from: Data(text.utf8)) else {
            throw StoreError(
                .unusableCheckpoint, "the migration checkpoint holds an unreadable item: \(text.prefix(200))")
        }
        return item
    }
}
