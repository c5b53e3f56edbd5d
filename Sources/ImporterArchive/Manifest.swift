import Foundation
import ImporterCore
import ImporterFormats

/// `manifest.json`, an archive's first entry: what the archive holds and the proof of it
/// (docs/archives.md). Restore checks every data file against it before writing anything.
package struct Manifest: Codable, Equatable, Sendable {
    /// The layout version of the archive; restore refuses versions it does not know.
    package var formatVersion: Int
    package var tool: Tool
    /// When the export started, ISO-8601 UTC.
    package var createdAt: String
    package var model: ModelIdentity
    /// Where the data came from (`sqlite` or `dynamodb`), for people reading the manifest.
    package var source: String
    package var entities: [EntityFile]

    package struct Tool: Codable, Equatable, Sendable {
        package var name: String
        package var version: String
    }

    package struct ModelIdentity: Codable, Equatable, Sendable {
        package var name: String
        package var version: Int
        package var checksum: String
    }

    /// One entity's data file.
    package struct EntityFile: Codable, Equatable, Sendable {
        package var entity: String
        /// The entry's path in the archive, `data/<Entity>.<ext>`.
        package var file: String
        package var format: ExportFormat
        package var items: Int
        package var bytes: Int64
        package var sha256: String
    }

    package static let currentFormatVersion = 1
    package static let entryName = "manifest.json"
    package static let modelEntryName = "model.yaml"

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
