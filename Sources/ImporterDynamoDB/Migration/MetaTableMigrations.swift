import Foundation
import ImporterAWS
import ImporterCore

/// What the meta table records of a model: its version and checksum, an unfinished migration,
/// and the history of migrations (a list on the model's item).
package struct RecordedModel: Sendable {
    package let version: Int
    package let checksum: String
    /// The version an unfinished migration is taking the tables to.
    package let migratingTo: Int?
    package let migrationStarted: String?
    /// The migrations so far, oldest first.
    package let migrations: [MigrationRecord]
}

extension MigrationRecord {
    /// The entry of the meta table's `migrations` list (the DynamoDB counterpart of SQLite's
    /// `_importer_migrations`).
    var attributeValue: AttributeValue {
        var entry: DynamoItem = [
            "from": .n(String(from)), "to": .n(String(to)), "checksum": .s(checksum),
            "started": .s(ISO8601.format(started)), "finished": .s(ISO8601.format(finished ?? started)),
            "items": .n(String(items)), "success": .bool(applied),
        ]
        if let note { entry["note"] = .s(note) }
        return .m(entry)
    }

    /// An entry of the meta table's `migrations` list; nil for one this version cannot read.
    init?(_ entry: DynamoItem) {
        func date(_ name: String) -> Date? { entry[name]?.string.flatMap(ISO8601.date) }
        guard let from = entry["from"]?.number.flatMap({ Int($0) }), let to = entry["to"]?.number.flatMap({ Int($0) }),
            let started = date("started")
        else { return nil }
        self.init(
            from: from, to: to, checksum: entry["checksum"]?.string ?? "", started: started, finished: date("finished"),
            items: entry["items"]?.number.flatMap { Int($0) } ?? 0, applied: entry["success"] == .bool(true),
            note: entry["note"]?.string)
    }
}

extension DynamoDBTables {
    /// The meta table's record of `model`; nil when nothing is recorded (or there is no meta table).
    func recorded(_ model: String) async throws -> RecordedModel? {
        let found: DynamoDB.GetItem.Response
        do {
            found = try await client.send(DynamoDB.GetItem(tableName: metaTable, key: ["model": .s(model)]))
        } catch let error as DynamoDBError where error.code == .resourceNotFound {
            return nil
        }
        guard let item = found.item else { return nil }
        let entries: [DynamoItem] =
            if case .l(let list) = item["migrations"] {
                list.compactMap { if case .m(let entry) = $0 { entry } else { nil } }
            } else { [] }
        let migrations = entries.compactMap(MigrationRecord.init)
        return RecordedModel(
            version: Int(item["version"]?.number ?? "") ?? 0, checksum: item["checksum"]?.string ?? "?",
            migratingTo: item["migratingTo"]?.number.flatMap { Int($0) },
            migrationStarted: item["migrationStarted"]?.string, migrations: migrations)
    }

    /// Marks the tables as migrating to the plan's end version, if they still hold its start
    /// version and no other migration has begun; `run` and `export` refuse them until it ends.
    func beginMigration(_ plan: MigrationPlan, started: Date) async throws {
        try await update(
            plan.from.name,
            "SET #migratingTo = :to, #migrationStarted = :started",
            condition: "#version = :from AND #checksum = :checksum AND attribute_not_exists(#migratingTo)",
            values: [
                ":to": .n(String(plan.to.version)), ":from": .n(String(plan.from.version)),
                ":checksum": .s(plan.from.checksum), ":started": .s(ISO8601.format(started)),
            ],
            refusal:
                "another run or migration changed the meta table of \(plan.from.name) meanwhile; run importer migrate again"
        )
    }

    /// Records the end version and checksum, ends the migration and adds it to the history.
    func finishMigration(_ plan: MigrationPlan, _ entry: MigrationRecord) async throws {
        try await update(
            plan.to.name,
            "SET #version = :to, #checksum = :checksum, #migrations = list_append(if_not_exists(#migrations, :none), :entry) REMOVE #migratingTo, #migrationStarted",
            condition: "#migratingTo = :to",
            values: [
                ":to": .n(String(plan.to.version)), ":checksum": .s(plan.to.checksum),
                ":none": .l([]), ":entry": .l([entry.attributeValue]),
            ],
            refusal: "the meta table of \(plan.to.name) no longer shows this migration as unfinished")
    }

    /// Adds a migration that changed nothing (its items cannot all be migrated) to the history.
    func recordRefusedMigration(_ plan: MigrationPlan, _ entry: MigrationRecord) async throws {
        try await update(
            plan.from.name, "SET #migrations = list_append(if_not_exists(#migrations, :none), :entry)",
            condition: "attribute_exists(#model)", values: [":none": .l([]), ":entry": .l([entry.attributeValue])],
            refusal: "the meta table has no record of \(plan.from.name)")
    }

    /// Names for the meta item's attributes in expressions (some are DynamoDB reserved words).
    private static let metaNames = Dictionary(
        uniqueKeysWithValues: ["model", "version", "checksum", "migratingTo", "migrationStarted", "migrations"].map {
            ("#" + $0, $0)
        })

    private func update(_ model: String, _ expression: String, condition: String, values: DynamoItem, refusal: String)
        async throws
    {
        let names = Self.metaNames.filter { expression.contains($0.key) || condition.contains($0.key) }
        do {
            _ = try await client.send(
                DynamoDB.UpdateItem(
                    tableName: metaTable, key: ["model": .s(model)], update: expression,
                    condition: DynamoDB.Condition(condition, names: names, values: values)))
        } catch let error as DynamoDBError where error.code == .conditionalCheckFailed {
            throw StoreError(.conflictingWriter, "\(metaTable): \(refusal)", operation: "UpdateItem", underlying: error)
        } catch let error as DynamoDBError {
            throw StoreError.dynamoDB(error, at: metaTable)
        }
    }
}
