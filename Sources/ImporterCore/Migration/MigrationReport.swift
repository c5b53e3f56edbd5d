import Foundation

/// `migration.json`: what `importer migrate` did, written into the report directory.
package struct MigrationReport: Codable, Sendable {
    package struct Step: Codable, Sendable {
        package var from: Int
        package var to: Int
        package var items: Int
        package var failed: Int

        package init(from: Int, to: Int, items: Int, failed: Int) {
            self.from = from
            self.to = to
            self.items = items
            self.failed = failed
        }
    }

    package enum Status: String, Codable, Sendable {
        /// Migrated; no item failed.
        case migrated
        /// Migrated without the items that failed (`--allow-rejects`); they are in rejects.ndjson.
        case migratedWithRejects
        /// Items failed, so nothing was changed.
        case rolledBack
        /// Stopped part-way (DynamoDB): every item is whole, in the old version or the new, and
        /// the migration resumes from its checkpoint when run again.
        case stopped
        /// `--dry-run`: nothing was changed.
        case dryRun
    }

    package var pipeline: String
    package var store: String
    package var model: String
    package var from: Int
    package var to: Int
    package var status: Status
    package var steps: [Step]
    package var startedAt: Date
    package var finishedAt: Date

    package init(
        pipeline: String, store: String, model: String, from: Int, to: Int, status: Status, steps: [Step],
        startedAt: Date, finishedAt: Date
    ) {
        self.pipeline = pipeline
        self.store = store
        self.model = model
        self.from = from
        self.to = to
        self.status = status
        self.steps = steps
        self.startedAt = startedAt
        self.finishedAt = finishedAt
    }

    package func write(to directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try OutputFile.write(ReportFiles.encoder().encode(self), to: FilePaths.join(directory, "migration.json"))
        try OutputFile.write(Data(MigrationPage(report: self).html.utf8), to: FilePaths.join(directory, "report.html"))
    }

    /// One `rejects.ndjson` line for an item a migration step cannot take: where it fails and
    /// the item as stored before the migration (typed JSON, as `export --format ndjson` writes it).
    package static func rejectLine(
        entity: String, key: Value, rejection: Rejection, toVersion: Int, item: [(String, Value)]?
    ) -> String {
        var text =
            "{\"entity\":\(JSONText.quote(entity)),\"key\":\(JSONText.quote(key.description)),\"toVersion\":\(toVersion)"
        text += ",\"stage\":\"\(rejection.stage.rawValue)\",\"reason\":\"\(rejection.reason.rawValue)\""
        if let field = rejection.field { text += ",\"field\":\(JSONText.quote(field))" }
        text += ",\"message\":\(JSONText.quote(rejection.message))"
        if let item {
            text += ",\"item\":{" + item.map { "\(JSONText.quote($0.0)):\(json($0.1))" }.joined(separator: ",") + "}"
        }
        return text + "}\n"
    }

    private static func json(_ value: Value) -> String {
        switch value {
        case .null: return "null"
        case .string(let text): return JSONText.quote(text)
        case .integer(let number): return String(number)
        case .double(let number): return number.description
        case .decimal(let text): return text
        case .date(let millis): return JSONText.quote(ISO8601.format(millis: millis))
        case .boolean(let flag): return flag ? "true" : "false"
        case .binary(let bytes): return JSONText.quote(Base64.encode(bytes))
        case .pair(let hash, let range): return "[\(json(hash)),\(json(range))]"
        }
    }
}
