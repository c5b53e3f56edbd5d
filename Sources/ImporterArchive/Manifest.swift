import Foundation
import ImporterCore
import ImporterFormats

/// `manifest.json`, an archive's first entry: what the archive holds and the proof of it
/// (docs/archives.md). Restore checks every data file against it before writing anything.
public struct Manifest: Codable, Equatable, Sendable {
    /// The layout version of the archive; restore refuses versions it does not know.
    public var formatVersion: Int
    public var tool: Tool
    /// When the export started, ISO-8601 UTC.
    public var createdAt: String
    public var model: ModelIdentity
    /// Where the data came from (`sqlite` or `dynamodb`), for people reading the manifest.
    public var source: String
    public var entities: [EntityFile]

    public struct Tool: Codable, Equatable, Sendable {
        public var name: String
        public var version: String
    }

    public struct ModelIdentity: Codable, Equatable, Sendable {
        public var name: String
        public var version: Int
        public var checksum: String
    }

    /// One entity's data file.
    public struct EntityFile: Codable, Equatable, Sendable {
        public var entity: String
        /// The entry's path in the archive, `data/<Entity>.<ext>`.
        public var file: String
        public var format: ExportFormat
        public var items: Int
        public var bytes: Int64
        public var sha256: String
    }

    public static let currentFormatVersion = 1
    public static let entryName = "manifest.json"
    public static let modelEntryName = "model.yaml"

    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [10]
    }

    /// The manifest, if its text is strict JSON (a duplicate key could hide a second count).
    static func decode(_ bytes: [UInt8]) throws -> Manifest {
        if let problem = StrictJSON.problem(in: bytes) { throw ManifestSyntaxError(message: problem) }
        return try JSONDecoder().decode(Manifest.self, from: Data(bytes))
    }
}

/// A manifest whose text is not strict JSON.
struct ManifestSyntaxError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
