import Foundation
import ImporterAWS
import ImporterCore

/// The tables a model needs: one per entity (`tablePrefix` + the entity's table, keyed by its
/// hash key) and the meta table recording each model's name, version and checksum.
struct DynamoDBTables: Sendable {
    let client: DynamoDBClient
    let prefix: String
    let createMissing: Bool
    /// How dates are stored: a date range key is S (ISO-8601) or N (epoch seconds).
    let dates: DateEncoding

    /// The meta table: one item per model (hash key `model`).
    var metaTable: String { prefix + "importer_meta" }

    func table(of entity: Entity) -> String { prefix + entity.table }

    /// Makes every table exist with the right key schema (creating missing ones when allowed,
    /// and waiting until they are ACTIVE), then checks or records the model in the meta table.
    /// Throws `StoreError` before anything is written when a table is missing or keyed
    /// differently (`.missingTable`, `.tableKeyMismatch`), or when the tables hold another
    /// version of the model (`.modelMismatch`).
    func prepare(_ model: Model) async throws {
        try await ensureTables(model)
        try await checkModel(model)
    }

    /// Makes every table of `model` and the meta table exist with the right key schema
    /// (creating missing ones when allowed), and waits until they are ACTIVE.
    func ensureTables(_ model: Model) async throws {
        try checkNames(model)
        var wanted = model.entities.map { entity in
            (
                name: table(of: entity),
                keys: entity.keyIndices.map { index in
                    (
                        name: entity.attributes[index].name,
                        type: DynamoItemCoding.keyType(of: entity.attributes[index].type, dates: dates)
                    )
                }
            )
        }
        wanted.append((name: metaTable, keys: [(name: "model", type: "S")]))
        var created: [String] = []
        for table in wanted where try await ensure(table.name, keys: table.keys) {
            created.append(table.name)
        }
        for name in created { try await waitUntilActive(name) }
    }

    /// Whether every entity's table exists (nothing is created).
    func allExist(_ model: Model) async throws -> Bool {
        try checkNames(model)
        for entity in model.entities {
            do {
                _ = try await client.send(DynamoDB.DescribeTable(tableName: table(of: entity)))
            } catch let error as DynamoDBError where error.code == .resourceNotFound {
                return false
            }
        }
        return true
    }

    /// DynamoDB's rule for table names (3 to 255 characters of `a-z A-Z 0-9 _ - .`), applied to
    /// each entity's table with the prefix, before any request. Throws `ConfigurationError`
    /// naming the model file and the entity's line.
    func checkNames(_ model: Model) throws {
        for entity in model.entities {
            let name = table(of: entity)
            if let reason = Self.tableNameProblem(name) {
                throw ConfigurationError(
                    file: model.file, line: entity.line, key: entity.name,
                    "DynamoDB would refuse the table name '\(name)' (tablePrefix '\(prefix)' + table '\(entity.table)'): \(reason); give the entity a longer 'table:' or change the pipeline's tablePrefix"
                )
            }
        }
    }

    static func tableNameProblem(_ table: String) -> String? {
        guard (3...255).contains(table.utf8.count) else { return "it must be 3 to 255 characters long" }
        let allowed = table.utf8.allSatisfy { byte in
            (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte) || byte == 95
                || byte == 45 || byte == 46
        }
        return allowed ? nil : "only letters, digits, '_', '-' and '.' are allowed"
    }

    /// Whether the table had to be created.
    private func ensure(_ name: String, keys: [(name: String, type: String)]) async throws -> Bool {
        do {
            let description = try await client.send(DynamoDB.DescribeTable(tableName: name))
            try checkKeySchema(description.table, name: name, keys: keys)
            return false
        } catch let error as DynamoDBError where error.code == .resourceNotFound {
            guard createMissing else {
                throw StoreError(
                    .missingTable(name),
                    "table \(name) does not exist at \(client.endpointDescription); create it (\(Self.describe(keys)))",
                    operation: "DescribeTable", underlying: error)
            }
        }
        do {
            _ = try await client.send(DynamoDB.CreateTable(tableName: name, keys: keys))
        } catch let error as DynamoDBError where error.code == .resourceInUse {
            // Created meanwhile by another run: check it like an existing one.
            let description = try await client.send(DynamoDB.DescribeTable(tableName: name))
            try checkKeySchema(description.table, name: name, keys: keys)
        }
        return true
    }

    /// `hash key id of type S`, or `hash key stationId of type S and range key hour of type S`.
    private static func describe(_ keys: [(name: String, type: String)]) -> String {
        keys.enumerated().map { "\($0 == 0 ? "hash" : "range") key \($1.name) of type \($1.type)" }.joined(
            separator: " and ")
    }

    private func checkKeySchema(_ table: DynamoDB.TableDescription?, name: String, keys: [(name: String, type: String)])
        throws
    {
        let schema = (table?.keySchema ?? []).map { "\($0.attributeName) \($0.keyType)" }
        let definitions = Dictionary(
            (table?.attributeDefinitions ?? []).map { ($0.attributeName, $0.attributeType) },
            uniquingKeysWith: { first, _ in first })
        let wanted = keys.enumerated().map { "\($1.name) \($0 == 0 ? "HASH" : "RANGE")" }
        guard schema == wanted, keys.allSatisfy({ definitions[$0.name] == $0.type }) else {
            let found = schema.map { part in
                let attribute = String(part.split(separator: " ").first ?? "")
                return "\(part) (\(definitions[attribute] ?? "?"))"
            }.joined(separator: ", ")
            throw StoreError(
                .tableKeyMismatch(name),
                "table \(name) is keyed by \(found.isEmpty ? "nothing known" : found), but the model needs \(Self.describe(keys)) alone",
                operation: "DescribeTable")
        }
    }

    private func waitUntilActive(_ name: String) async throws {
        let deadline = Date().addingTimeInterval(300)
        while Date() < deadline {
            let description = try await client.send(DynamoDB.DescribeTable(tableName: name))
            if description.table?.tableStatus == "ACTIVE" { return }
            try await Task.sleep(nanoseconds: 500_000_000)
        }
        throw StoreError(.timedOut, "table \(name) did not become ACTIVE within 5 minutes", operation: "CreateTable")
    }

    /// Records the model in the meta table, or checks it against what is recorded there.
    private func checkModel(_ model: Model) async throws {
        if try await checkRecordedModel(model) { return }
        do {
            _ = try await client.send(
                DynamoDB.PutItem(
                    tableName: metaTable,
                    item: [
                        "model": .s(model.name), "version": .n(String(model.version)), "checksum": .s(model.checksum),
                        "recordedAt": .s(ISO8601.format(Date())),
                    ], condition: DynamoDB.Condition("attribute_not_exists(#m)", names: ["#m": "model"])))
        } catch let error as DynamoDBError where error.code == .conditionalCheckFailed {
            try await checkModel(model)  // recorded meanwhile by another run
        }
    }

    /// Checks `model` against the meta table without writing: false when nothing is recorded
    /// (or there is no meta table); throws `StoreError` for another version or checksum
    /// (`modelMismatch`), or while a migration of the tables is unfinished.
    func checkRecordedModel(_ model: Model) async throws -> Bool {
        guard let recorded = try await recorded(model.name) else { return false }
        if let target = recorded.migratingTo {
            throw StoreError(
                .unfinishedMigration(to: target),
                "the tables with prefix '\(prefix)' are being migrated from \(model.name) version \(recorded.version) to \(target) (started \(recorded.migrationStarted ?? "?")) and the migration has not finished",
                operation: "open")
        }
        try ModelIdentity(name: model.name, version: recorded.version, checksum: recorded.checksum)
            .require(model, at: "the tables with prefix '\(prefix)'")
        return true
    }
}
