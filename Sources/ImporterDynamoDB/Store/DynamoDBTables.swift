import Foundation
import ImporterCore

/// The tables a model needs: one per entity (`tablePrefix` + the entity's table, keyed by its
/// hash key) and the meta table recording each model's name, version and checksum.
struct DynamoDBTables {
    let client: DynamoDBClient
    let prefix: String
    let createMissing: Bool
    /// The pipeline file, for configuration errors.
    let file: String

    /// The meta table: one item per model (hash key `model`).
    var metaTable: String { prefix + "importer_meta" }

    func table(of entity: Entity) -> String { prefix + entity.table }

    /// Makes every table exist with the right key schema (creating missing ones when allowed,
    /// and waiting until they are ACTIVE), then checks or records the model in the meta table.
    /// Throws `ConfigurationError` before anything is written when a table is missing or keyed
    /// differently, or when the tables hold another version of the model.
    func prepare(_ model: Model) throws {
        try ensureTables(model)
        try checkModel(model)
    }

    /// Makes every table of `model` and the meta table exist with the right key schema
    /// (creating missing ones when allowed), and waits until they are ACTIVE.
    func ensureTables(_ model: Model) throws {
        var wanted = model.entities.map { entity in
            (name: table(of: entity), key: entity.hashKey,
             type: DynamoItemCoding.keyType(of: entity.attributes[entity.hashKeyIndex].type))
        }
        wanted.append((name: metaTable, key: "model", type: "S"))
        var created: [String] = []
        for table in wanted where try ensure(table.name, key: table.key, type: table.type) {
            created.append(table.name)
        }
        for name in created { try waitUntilActive(name) }
    }

    /// Whether every entity's table exists (nothing is created).
    func allExist(_ model: Model) throws -> Bool {
        for entity in model.entities {
            do {
                _ = try client.send("DescribeTable", json(["TableName": table(of: entity)]))
            } catch let error as DynamoDBError where error.type == "ResourceNotFoundException" {
                return false
            }
        }
        return true
    }

    /// Whether the table had to be created.
    private func ensure(_ name: String, key: String, type: String) throws -> Bool {
        do {
            let description = try client.send("DescribeTable", json(["TableName": name]))
            try checkKeySchema(description["Table"] as? [String: Any] ?? [:], name: name, key: key, type: type)
            return false
        } catch let error as DynamoDBError where error.type == "ResourceNotFoundException" {
            guard createMissing else {
                throw ConfigurationError(file: file, key: "destination",
                    "table \(name) does not exist at \(client.endpoint.absoluteString); create it (hash key \(key), type \(type)) or set destination.createTables: true")
            }
        }
        do {
            _ = try client.send("CreateTable", json([
                "TableName": name,
                "AttributeDefinitions": [["AttributeName": key, "AttributeType": type]],
                "KeySchema": [["AttributeName": key, "KeyType": "HASH"]],
                "BillingMode": "PAY_PER_REQUEST",
            ]))
        } catch let error as DynamoDBError where error.type == "ResourceInUseException" {
            // Created meanwhile by another run: check it like an existing one.
            let description = try client.send("DescribeTable", json(["TableName": name]))
            try checkKeySchema(description["Table"] as? [String: Any] ?? [:], name: name, key: key, type: type)
        }
        return true
    }

    private func checkKeySchema(_ table: [String: Any], name: String, key: String, type: String) throws {
        let schema = (table["KeySchema"] as? [[String: Any]] ?? []).map {
            "\($0["AttributeName"] as? String ?? "?") \($0["KeyType"] as? String ?? "?")"
        }
        let definitions = Dictionary((table["AttributeDefinitions"] as? [[String: Any]] ?? []).map {
            ($0["AttributeName"] as? String ?? "", $0["AttributeType"] as? String ?? "")
        }, uniquingKeysWith: { first, _ in first })
        guard schema == ["\(key) HASH"], definitions[key] == type else {
            let found = schema.map { part in
                let attribute = String(part.split(separator: " ").first ?? "")
                return "\(part) (\(definitions[attribute] ?? "?"))"
            }.joined(separator: ", ")
            throw ConfigurationError(file: file, key: "destination",
                "table \(name) is keyed by \(found.isEmpty ? "nothing known" : found), but the model needs hash key \(key) of type \(type) alone; point tablePrefix at other tables or fix the model")
        }
    }

    private func waitUntilActive(_ name: String) throws {
        let deadline = Date().addingTimeInterval(300)
        while Date() < deadline {
            let description = try client.send("DescribeTable", json(["TableName": name]))
            if (description["Table"] as? [String: Any])?["TableStatus"] as? String == "ACTIVE" { return }
            Thread.sleep(forTimeInterval: 0.5)
        }
        throw StoreError("table \(name) did not become ACTIVE within 5 minutes")
    }

    /// Records the model in the meta table, or checks it against what is recorded there.
    private func checkModel(_ model: Model) throws {
        let key: [String: Any] = ["model": ["S": model.name]]
        if try checkRecordedModel(model) { return }
        do {
            _ = try client.send("PutItem", json([
                "TableName": metaTable,
                "Item": key.merging([
                    "version": ["N": String(model.version)], "checksum": ["S": model.checksum],
                    "recordedAt": ["S": ISO8601.format(Date())],
                ]) { first, _ in first },
                "ConditionExpression": "attribute_not_exists(model)",
            ]))
        } catch let error as DynamoDBError where error.type == "ConditionalCheckFailedException" {
            try checkModel(model)  // recorded meanwhile by another run
        }
    }

    /// Checks `model` against the meta table without writing: false when nothing is recorded
    /// (or there is no meta table); throws `ConfigurationError` for another version or checksum,
    /// or while a migration of the tables is unfinished.
    func checkRecordedModel(_ model: Model) throws -> Bool {
        guard let recorded = try recorded(model.name) else { return false }
        if let target = recorded.migratingTo {
            throw ConfigurationError(file: file, key: "destination",
                "the tables with prefix '\(prefix)' are being migrated from \(model.name) version \(recorded.version) to \(target) (started \(recorded.migrationStarted ?? "?")) and the migration has not finished; run importer migrate with this pipeline to finish it")
        }
        guard recorded.version == model.version else {
            throw ConfigurationError(file: file, key: "destination",
                "the tables with prefix '\(prefix)' hold \(model.name) version \(recorded.version) but the pipeline uses version \(model.version); \(recorded.version < model.version ? "migrate them first: importer migrate \(file) --to \(model.version)" : "pin modelVersion: \(recorded.version) in the pipeline to use them (migrations go forward only)")")
        }
        guard recorded.checksum == model.checksum else {
            throw ConfigurationError(file: model.file,
                "model \(model.name) version \(recorded.version) differs from the version \(recorded.version) these tables were created with (checksum \(recorded.checksum) vs \(model.checksum)); a released model version must not change — add a new version file instead")
        }
        return true
    }
}

/// A JSON request body from Foundation values (control-plane requests; items are encoded by
/// `DynamoItemCoding`).
func json(_ object: [String: Any]) -> [UInt8] {
    Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8))
}
