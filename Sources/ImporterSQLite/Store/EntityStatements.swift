import ImporterCore

/// The prepared statements of one entity's table, prepared once when the store is prepared
/// for a model and reused for every record.
struct EntityStatements {
    let select: Statement
    let insert: Statement
    let insertIfNew: Statement
    /// Insert, or replace at version + 1 only if some attribute differs (blind upserts).
    let upsertIfChanged: Statement
    let update: Statement
    let delete: Statement
    let scan: Statement

    init(_ entity: Entity, on database: Database) throws {
        let table = quoted(entity.table)
        let columns = entity.attributes.map { quoted($0.name) }
        let list = columns.joined(separator: ", ")
        let key = Self.keyCondition(entity)
        let insert = "INSERT INTO \(table) (\(list)) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
        select = try database.prepare("SELECT \(list) FROM \(table) WHERE \(key)")
        self.insert = try database.prepare(insert)
        insertIfNew = try database.prepare(insert + " ON CONFLICT DO NOTHING")
        upsertIfChanged = try database.prepare(insert + Self.upsertClause(entity))
        update = try database.prepare(
            "UPDATE \(table) SET \(columns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE \(key) AND \(quoted(entity.versionAttribute)) = ?"
        )
        delete = try database.prepare("DELETE FROM \(table) WHERE \(key) AND \(quoted(entity.versionAttribute)) = ?")
        scan = try database.prepare("SELECT \(list) FROM \(table)")
    }

    /// `"id" = ?`, or `"stationId" = ? AND "hour" = ?`: an item by its key, bound with
    /// `Entity.keyParts`.
    static func keyCondition(_ entity: Entity) -> String {
        entity.keyAttributes.map { "\(quoted($0)) = ?" }.joined(separator: " AND ")
    }

    /// `ON CONFLICT … DO UPDATE … WHERE` that replaces a stored item at version + 1 only when
    /// an attribute differs (`IS NOT` compares types and NULLs as the version rules do).
    private static func upsertClause(_ entity: Entity) -> String {
        let content = entity.attributes.map(\.name).filter {
            !entity.keyAttributes.contains($0) && $0 != entity.versionAttribute
        }.map(quoted)
        guard !content.isEmpty else { return " ON CONFLICT DO NOTHING" }
        let version = quoted(entity.versionAttribute)
        return " ON CONFLICT (\(entity.keyAttributes.map(quoted).joined(separator: ", "))) DO UPDATE SET "
            + content.map { "\($0) = excluded.\($0)" }.joined(separator: ", ") + ", \(version) = \(version) + 1"
            + " WHERE " + content.map { "\($0) IS NOT excluded.\($0)" }.joined(separator: " OR ")
    }
}
