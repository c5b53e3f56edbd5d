import Foundation
import ImporterCore

extension StoreConnection {
    /// Migrates the store through every step of `plan` in one transaction: all or nothing
    /// (docs/migration.md). The items of `deleting` (start-version entity names) are deleted first.
    /// Items that fail a step are left out of later steps and returned; the transaction is
    /// committed only when `commit` is set and nothing failed.
    func migrate(_ plan: MigrationPlan, commit: Bool, deleting: [String: [Value]], note: String?) throws
        -> MigrationOutcome
    {
        try prepareMigrationHistory()
        contentIndexes.forgetAll()  // the migration's writes bypass `write` and `delete`
        let function = MigrationFunction()
        try function.register(on: database)
        defer { function.unregister(from: database) }
        var outcome = MigrationOutcome()
        try database.inTransaction(.immediate) {
            for (name, keys) in deleting {
                guard let entity = plan.from.entity(named: name) else { continue }
                let delete = "DELETE FROM \(quoted(entity.table)) WHERE \(EntityStatements.keyCondition(entity))"
                for key in keys { try database.execute(delete, entity.keyParts(key)) }
            }
            for (index, step) in plan.steps.enumerated() {
                let started = Date()
                let failures = try run(step, function: function).map { failure in
                    MigrationFailure(
                        entity: plan.originalName(ofEntity: failure.entity, beforeStep: index) ?? failure.entity,
                        key: failure.key,
                        rejection: failure.rejection, toVersion: step.to.version)
                }
                var items = 0
                for mapping in step.entities { items += try count(of: mapping.entity) }
                outcome.steps.append(
                    .init(from: step.from.version, to: step.to.version, items: items, failures: failures))
                try recordMigration(
                    from: step.from.version, to: step.to.version, checksum: step.to.checksum, started: started,
                    items: items, success: true, note: note)
            }
            try setMeta(["model": plan.to.name, "version": String(plan.to.version), "checksum": plan.to.checksum])
            return commit && outcome.failures.isEmpty ? .commit : .rollback
        }
        return outcome
    }

    /// One step: drop removed tables, migrate each entity's columns, rename tables, create new
    /// ones. Returns the items that failed (named as in the step's new version), already deleted.
    private func run(_ step: MigrationStep, function: MigrationFunction) throws -> [(
        entity: String, key: Value, rejection: Rejection
    )] {
        for entity in step.removedEntities { try database.execute("DROP TABLE \(quoted(entity.table))") }
        var failures: [(entity: String, key: Value, rejection: Rejection)] = []
        for mapping in step.entities where mapping.source != nil && !mapping.isUnchanged {
            function.reset()
            failures += try migrateColumns(mapping, version: step.to.version, function: function)
                .map { (mapping.entity.name, $0.key, $0.rejection) }
        }
        let moving = step.entities.filter { mapping in mapping.source.map { $0.table != mapping.entity.table } ?? false
        }
        // Through temporary names, so tables that swap names cannot collide.
        for (index, mapping) in moving.enumerated() {
            try database.execute(
                "ALTER TABLE \(quoted(mapping.source!.table)) RENAME TO \(quoted("_importer_table_\(index)"))")
        }
        for (index, mapping) in moving.enumerated() {
            try database.execute(
                "ALTER TABLE \(quoted("_importer_table_\(index)")) RENAME TO \(quoted(mapping.entity.table))")
        }
        for mapping in step.entities where mapping.source == nil { try database.execute(createTable(mapping.entity)) }
        return failures
    }

    /// An entity's columns, on its old table: add the new columns, fill converted and checked
    /// values with one UPDATE, delete the items that failed, drop removed columns, rename.
    /// Returns the keys of the items that failed.
    private func migrateColumns(_ mapping: EntityMapping, version: Int, function: MigrationFunction) throws -> [(
        key: Value, rejection: Rejection
    )] {
        let source = mapping.source!
        let table = quoted(source.table)
        let columns = try addColumns(mapping, version: version, function: function)
        var failures: [(key: Value, rejection: Rejection)] = []
        if !columns.assignments.isEmpty {
            try database.execute("UPDATE \(table) SET \(columns.assignments.joined(separator: ", "))")
            failures = try deleteFailures(of: source, function: function)
        }
        for name in mapping.removed.map(\.name) + columns.replaced {
            try database.execute("ALTER TABLE \(table) DROP COLUMN \(quoted(name))")
        }
        // Through temporary names, so renames that swap names cannot collide.
        for (index, rename) in columns.renames.enumerated() where rename.from != rename.to {
            try database.execute(
                "ALTER TABLE \(table) RENAME COLUMN \(quoted(rename.from)) TO \(quoted("_importer_rename_\(index)"))")
        }
        for (index, rename) in columns.renames.enumerated() where rename.from != rename.to {
            try database.execute(
                "ALTER TABLE \(table) RENAME COLUMN \(quoted("_importer_rename_\(index)")) TO \(quoted(rename.to))")
        }
        return failures
    }

    /// Adds the columns the new attributes need (under temporary names) and says what fills
    /// them (`assignments` of one UPDATE), which old columns they replace, and what to rename.
    private func addColumns(_ mapping: EntityMapping, version: Int, function: MigrationFunction) throws
        -> (assignments: [String], renames: [(from: String, to: String)], replaced: [String])
    {
        let source = mapping.source!, entity = mapping.entity
        let table = quoted(source.table)
        var assignments: [String] = []
        var renames: [(from: String, to: String)] = []
        var replaced: [String] = []
        let validator = RecordValidator(entity: entity, dateFormat: .iso8601)
        for (index, attribute) in mapping.attributes.enumerated() {
            let new = attribute.attribute
            let temporary = "_importer_column_\(index)"
            switch attribute.origin {
            case .added:
                let defaultClause = new.defaultValue.map { " DEFAULT \(Self.literal($0))" } ?? ""
                try database.execute(
                    "ALTER TABLE \(table) ADD COLUMN \(quoted(temporary)) \(ValueColumns.sqlType(new.type))\(defaultClause)"
                )
                renames.append((temporary, new.name))
            case .carried(let position, let widenedFrom):
                let old = source.attributes[position]
                let sameColumnType = ValueColumns.sqlType(old.type) == ValueColumns.sqlType(new.type)
                let rewrite = attribute.needsCheck || (widenedFrom != nil && !sameColumnType)
                if rewrite && !sameColumnType {
                    try database.execute(
                        "ALTER TABLE \(table) ADD COLUMN \(quoted(temporary)) \(ValueColumns.sqlType(new.type))")
                    replaced.append(old.name)
                    renames.append((temporary, new.name))
                    assignments.append(
                        "\(quoted(temporary)) = \(call(attribute, index, [position], source, validator, version, function))"
                    )
                } else {
                    if rewrite {
                        assignments.append(
                            "\(quoted(old.name)) = \(call(attribute, index, [position], source, validator, version, function))"
                        )
                    }
                    if old.name != new.name { renames.append((old.name, new.name)) }
                }
            case .converted(_, let inputs):
                try database.execute(
                    "ALTER TABLE \(table) ADD COLUMN \(quoted(temporary)) \(ValueColumns.sqlType(new.type))")
                renames.append((temporary, new.name))
                assignments.append(
                    "\(quoted(temporary)) = \(call(attribute, index, inputs, source, validator, version, function))")
            }
        }
        return (assignments, renames, replaced)
    }

    /// Deletes the rows the function failed on, and returns their keys.
    private func deleteFailures(of source: Entity, function: MigrationFunction) throws -> [(
        key: Value, rejection: Rejection
    )] {
        let table = quoted(source.table)
        let select = try database.prepare(
            "SELECT \(source.keyAttributes.map(quoted).joined(separator: ", ")) FROM \(table) WHERE rowid = ?")
        var failures: [(key: Value, rejection: Rejection)] = []
        for failure in function.failures {
            var key: Value?
            try select.query([.integer(failure.rowid)]) { row in
                key = source.key(
                    of: source.keyIndices.enumerated().reduce(
                        into: [Value](repeating: .null, count: source.attributes.count)
                    ) { values, part in
                        values[part.element] = ValueColumns.read(
                            row, column: Int32(part.offset), as: source.attributes[part.element].type)
                    })
            }
            guard let key else { continue }  // failed in another column too: already deleted
            failures.append((key, failure.rejection))
            try database.execute("DELETE FROM \(table) WHERE rowid = ?", [.integer(failure.rowid)])
        }
        return failures
    }

    /// `importer_migrate(slot, rowid, inputs…)` for one attribute.
    /// An enumerated `map` of integer or text values becomes a CASE over the values it lists,
    /// each result computed once by the same function, so SQLite does the per-row work; values
    /// it does not list (and those whose result fails) still go through the function.
    private func call(
        _ attribute: AttributeMapping, _ index: Int, _ inputs: [Int], _ source: Entity,
        _ validator: RecordValidator, _ version: Int, _ function: MigrationFunction
    ) -> String {
        let slot = function.add(
            .init(
                mapping: attribute, index: index, validator: validator, version: version,
                inputs: inputs.map { ($0, source.attributes[$0].type) }, oldCount: source.attributes.count))
        let arguments = [String(slot), "rowid"] + inputs.map { quoted(source.attributes[$0].name) }
        let call = "\(MigrationFunction.name)(\(arguments.joined(separator: ", ")))"
        guard case .converted(.map(_, let table, _), _) = attribute.origin, inputs.count == 1 else { return call }
        let type = source.attributes[inputs[0]].type
        var cases: [String] = []
        for text in table.keys.sorted() {
            let input: Value
            if type.isInteger, let number = Int64(text), String(number) == text {
                input = .integer(number)
            } else if type == .string {
                input = .string(text)
            } else {
                continue
            }
            guard case .success(let value) = function.outcome(slot: slot, input: input) else { continue }
            cases.append("WHEN \(Self.literal(input)) THEN \(Self.literal(value))")
        }
        guard !cases.isEmpty else { return call }
        return "CASE \(quoted(source.attributes[inputs[0]].name)) \(cases.joined(separator: " ")) ELSE \(call) END"
    }

    /// A value as an SQL literal, stored as `Statement.bind(_:at:)` stores it.
    private static func literal(_ value: Value) -> String {
        switch value {
        case .null: return "NULL"
        case .string(let text), .decimal(let text): return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .integer(let number): return String(number)
        case .double(let number): return number.description
        case .date(let millis): return "'\(ISO8601.format(millis: millis))'"
        case .boolean(let flag): return flag ? "1" : "0"
        case .pair: return "'" + value.description.replacingOccurrences(of: "'", with: "''") + "'"
        case .binary(let bytes): return "X'" + bytes.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}
