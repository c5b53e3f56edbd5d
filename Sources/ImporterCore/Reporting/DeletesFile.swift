import Foundation

/// `deletes.ndjson`: one line per item a sync deleted or nullified, so a refresh's deletions
/// can be reviewed (and restored from a backup) key by key.
enum DeletesFile {
    static func write(_ outcome: SyncDeletes.Outcome, to path: String) throws {
        try write(lines(of: outcome), to: path)
    }

    /// Writes lines made by `lines(of:)` (a resumed run's, from its checkpoint).
    static func write(_ lines: String, to path: String) throws {
        try OutputFile.write(Data(lines.utf8), to: path)
    }

    /// The file's lines for `outcome`: what an interrupted run made first, then this run's.
    static func lines(of outcome: SyncDeletes.Outcome) -> String {
        var text = ""
        for made in outcome.madeBefore { text += made.line + "\n" }
        for deletion in outcome.deleted {
            var line =
                linePrefix(entity: deletion.entity, key: deletion.key) + ",\"version\":\(deletion.version)"
            if let parent = deletion.cascadedFrom {
                line +=
                    ",\"cascadedFrom\":{\"entity\":\(JSONText.quote(parent.entity)),\"key\":\(ReportedKey(parent.key)?.json ?? "null")}"
            }
            text += line + "}\n"
        }
        for nullification in outcome.nullified {
            text +=
                linePrefix(entity: nullification.entity, key: nullification.key, action: "nullify")
                + ",\"attribute\":\(JSONText.quote(nullification.attribute))}\n"
        }
        return text
    }

    /// How the line of an `action` on item `key` of `entity` begins.
    static func linePrefix(entity: String, key: Value, action: String = "delete") -> String {
        "{\"action\":\"\(action)\",\"entity\":\(JSONText.quote(entity)),\"key\":\(ReportedKey(key)?.json ?? "null")"
    }

    /// A line's action and entity; nil if it is not one of the file's lines.
    static func fields(of line: Substring) -> (action: String, entity: String)? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let action = object["action"] as? String, let entity = object["entity"] as? String
        else { return nil }
        return (action, entity)
    }
}
