import Foundation
import ImporterAWS
import ImporterCore

/// How one entity's stored items change in a migration: decoded with the start version's
/// coding, migrated by the core's `RecordMigrator` (the rules of a SQLite migration and of
/// migrate-on-read), encoded with the end version's. Attributes outside the model, which other
/// tools may have written, are kept.
struct ItemMigration: Sendable {
    /// The entity in the plan's start version, and in its end version.
    let source: Entity
    let target: Entity
    let sourceTable: String
    let targetTable: String
    /// Whether a step changes or checks the entity's items; if not, its table is left as it is.
    let changesItems: Bool
    private let oldCoding: DynamoItemCoding
    private let newCoding: DynamoItemCoding
    private let migrator: RecordMigrator
    private let plan: MigrationPlan
    private let modelNames: Set<String>

    /// nil when a step removes the entity.
    init?(plan: MigrationPlan, entity source: Entity, tables: DynamoDBTables, dates: DateEncoding) {
        guard let targetName = plan.currentName(ofEntity: source.name), let target = plan.to.entity(named: targetName),
            let migrator = RecordMigrator(plan: plan, entity: source.name)
        else { return nil }
        self.source = source
        self.target = target
        sourceTable = tables.table(of: source)
        targetTable = tables.table(of: target)
        var name = source.name
        var unchanged = true
        for step in plan.steps {
            guard let mapping = step.mapping(forOld: name) else { break }
            unchanged = unchanged && mapping.isUnchanged
            name = mapping.entity.name
        }
        changesItems = !unchanged || sourceTable != targetTable
        oldCoding = DynamoItemCoding(entity: source, dates: dates)
        newCoding = DynamoItemCoding(entity: target, dates: dates)
        self.migrator = migrator
        self.plan = plan
        modelNames = Set(source.attributes.map(\.name)).union(target.attributes.map(\.name))
    }

    /// What becomes of one stored item.
    enum Outcome: Sendable {
        /// The migrated item is the stored one (in the same table): nothing to write.
        case unchanged
        /// The item to write in its place (or into the target table), at the stored version.
        case migrated(item: DynamoItem, version: Int64?)
        /// The item cannot be migrated.
        case failed(MigrationFailure)
    }

    /// The stored item's key in the start version's coding (for deletes and re-reads).
    func key(of raw: DynamoItem) -> DynamoItem {
        var key: DynamoItem = [:]
        for name in source.keyAttributes { key[name] = raw[name] ?? .null }
        return key
    }

    func migrate(_ raw: DynamoItem) -> Outcome {
        let old: [Value]
        do {
            old = try oldCoding.decode(raw)
        } catch let error as DynamoItemDecodingError {
            let key = keyValue(raw)
            return .failed(
                MigrationFailure(
                    entity: source.name, key: key,
                    rejection: Rejection(
                        stage: .migrate, reason: .type, field: error.attribute,
                        "the stored item does not fit version \(plan.from.version) of \(source.name): \(error)"),
                    toVersion: plan.steps.first?.to.version ?? plan.to.version))
        } catch {
            return .failed(
                MigrationFailure(
                    entity: source.name, key: keyValue(raw),
                    rejection: Rejection(stage: .migrate, reason: .type, "\(error)"), toVersion: plan.to.version))
        }
        let key = source.key(of: old)
        let new: [Value]
        switch migrator.migrateNamingStep(old) {
        case .failure(let failure):
            return .failed(
                MigrationFailure(
                    entity: source.name, key: key, rejection: failure.rejection,
                    toVersion: plan.steps[failure.step].to.version, item: old))
        case .success(let values): new = values
        }
        let size = newCoding.itemSize(new)
        if size > EntityWriter.maxItemBytes {
            return .failed(
                MigrationFailure(
                    entity: source.name, key: key,
                    rejection: Rejection(
                        stage: .migrate, reason: .size,
                        "the migrated item is \(size) bytes, more than DynamoDB's \(EntityWriter.maxItemBytes) per item"
                    ),
                    toVersion: plan.to.version, item: old))
        }
        var item = newCoding.encodeObject(new)
        for (name, value) in raw where !modelNames.contains(name) { item[name] = value }
        if sourceTable == targetTable && item == raw { return .unchanged }
        let version: Int64? = if case .integer(let number) = old[source.versionIndex] { number } else { nil }
        return .migrated(item: item, version: version)
    }

    /// An item whose migrated form DynamoDB refused.
    func refused(_ raw: DynamoItem, _ message: String) -> MigrationFailure {
        MigrationFailure(
            entity: source.name, key: keyValue(raw),
            rejection: Rejection(
                stage: .migrate, reason: .constraint, "DynamoDB refused the migrated item: \(message)"),
            toVersion: plan.to.version, item: try? oldCoding.decode(raw))
    }

    /// The key of an item that could not be decoded, as far as its key attributes can be read.
    private func keyValue(_ raw: DynamoItem) -> Value {
        func part(_ name: String) -> Value {
            switch raw[name] {
            case .s(let text): return .string(text)
            case .n(let text): return DynamoNumberText.integer(text).map(Value.integer) ?? .decimal(text)
            default: return .null
            }
        }
        let hash = part(source.hashKey)
        guard let rangeKey = source.rangeKey else { return hash }
        return .pair(hash, part(rangeKey))
    }
}
