import Foundation
import ImporterCore

/// What the meta table records of a model: its version and checksum, an unfinished migration,
/// and the history of migrations (a list on the model's item).
public struct RecordedModel: Sendable {
    public let version: Int
    public let checksum: String
    /// The version an unfinished migration is taking the tables to.
    public let migratingTo: Int?
    public let migrationStarted: String?
    /// The migrations so far, oldest first, with the columns of SQLite's `_importer_migrations`
    /// (from, to, checksum, started, finished, items, success "1"/"0", note).
    public let migrations: [[String: String]]
}

/// One entry of the meta table's migration history (the DynamoDB counterpart of SQLite's
/// `_importer_migrations`).
public struct MigrationHistoryEntry: Sendable {
    public let from: Int
    public let to: Int
    public let checksum: String
    public let started: Date
    public let finished: Date
    public let items: Int
    public let success: Bool
    public let note: String?

    public init(from: Int, to: Int, checksum: String, started: Date, finished: Date, items: Int, success: Bool, note: String?) {
        self.from = from
        self.to = to
        self.checksum = checksum
        self.started = started
        self.finished = finished
        self.items = items
        self.success = success
        self.note = note
    }

    var attributeValue: [String: Any] {
        var entry: [String: Any] = [
            "from": ["N": String(from)], "to": ["N": String(to)], "checksum": ["S": checksum],
            "started": ["S": ISO8601.format(started)], "finished": ["S": ISO8601.format(finished)],
            "items": ["N": String(items)], "success": ["BOOL": success],
        ]
        if let note { entry["note"] = ["S": note] }
        return ["M": entry]
    }
}

extension DynamoDBTables {
    /// The meta table's record of `model`; nil when nothing is recorded (or there is no meta table).
    func recorded(_ model: String) throws -> RecordedModel? {
        let found: [String: Any]
        do {
            found = try client.send("GetItem", json(["TableName": metaTable, "Key": ["model": ["S": model]], "ConsistentRead": true]))
        } catch let error as DynamoDBError where error.type == "ResourceNotFoundException" {
            return nil
        }
        guard let item = found["Item"] as? [String: Any] else { return nil }
        func text(_ name: String, _ tag: String) -> String? { (item[name] as? [String: Any])?[tag] as? String }
        let entries = ((item["migrations"] as? [String: Any])?["L"] as? [[String: Any]] ?? []).compactMap { $0["M"] as? [String: Any] }
        let migrations = entries.map { entry in
            var row: [String: String] = [:]
            for (name, value) in entry {
                let typed = value as? [String: Any]
                row[name] = typed?["S"] as? String ?? typed?["N"] as? String ?? (DynamoJSONValue.boolean(typed?["BOOL"] as Any) == true ? "1" : "0")
            }
            row["note"] = row["note"] ?? ""
            return row
        }
        return RecordedModel(version: Int(text("version", "N") ?? "") ?? 0, checksum: text("checksum", "S") ?? "?",
                             migratingTo: text("migratingTo", "N").flatMap { Int($0) },
                             migrationStarted: text("migrationStarted", "S"), migrations: migrations)
    }

    /// Marks the tables as migrating to the plan's end version, if they still hold its start
    /// version and no other migration has begun; `run` and `export` refuse them until it ends.
    func beginMigration(_ plan: MigrationPlan, started: Date) throws {
        try update(plan.from.name,
                   "SET #migratingTo = :to, #migrationStarted = :started",
                   condition: "#version = :from AND #checksum = :checksum AND attribute_not_exists(#migratingTo)",
                   values: [":to": ["N": String(plan.to.version)], ":from": ["N": String(plan.from.version)],
                            ":checksum": ["S": plan.from.checksum], ":started": ["S": ISO8601.format(started)]],
                   refusal: "another run or migration changed the meta table of \(plan.from.name) meanwhile; run importer migrate again")
    }

    /// Records the end version and checksum, ends the migration and adds it to the history.
    func finishMigration(_ plan: MigrationPlan, _ entry: MigrationHistoryEntry) throws {
        try update(plan.to.name,
                   "SET #version = :to, #checksum = :checksum, #migrations = list_append(if_not_exists(#migrations, :none), :entry) REMOVE #migratingTo, #migrationStarted",
                   condition: "#migratingTo = :to",
                   values: [":to": ["N": String(plan.to.version)], ":checksum": ["S": plan.to.checksum],
                            ":none": ["L": []], ":entry": ["L": [entry.attributeValue]]],
                   refusal: "the meta table of \(plan.to.name) no longer shows this migration as unfinished")
    }

    /// Adds a migration that changed nothing (its items cannot all be migrated) to the history.
    func recordRefusedMigration(_ plan: MigrationPlan, _ entry: MigrationHistoryEntry) throws {
        try update(plan.from.name, "SET #migrations = list_append(if_not_exists(#migrations, :none), :entry)",
                   condition: "attribute_exists(#model)", values: [":none": ["L": []], ":entry": ["L": [entry.attributeValue]]],
                   refusal: "the meta table has no record of \(plan.from.name)")
    }

    /// Names for the meta item's attributes in expressions (some are DynamoDB reserved words).
    private static let metaNames = Dictionary(uniqueKeysWithValues: ["model", "version", "checksum", "migratingTo", "migrationStarted", "migrations"].map { ("#" + $0, $0) })

    private func update(_ model: String, _ expression: String, condition: String, values: [String: Any], refusal: String) throws {
        do {
            _ = try client.send("UpdateItem", json([
                "TableName": metaTable, "Key": ["model": ["S": model]], "UpdateExpression": expression,
                "ConditionExpression": condition, "ExpressionAttributeValues": values,
                "ExpressionAttributeNames": Self.metaNames.filter { expression.contains($0.key) || condition.contains($0.key) },
            ]))
        } catch let error as DynamoDBError where error.type == "ConditionalCheckFailedException" {
            throw StoreError("\(metaTable): \(refusal)")
        } catch let error as DynamoDBError {
            throw StoreError("\(metaTable): \(error)")
        }
    }
}
