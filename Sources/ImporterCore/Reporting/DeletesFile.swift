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

    /// The file's lines for `outcome`.
    static func lines(of outcome: SyncDeletes.Outcome) -> String {
        var text = ""
        for deletion in outcome.deleted {
            var line =
                "{\"action\":\"delete\",\"entity\":\(JSONText.quote(deletion.entity)),\"key\":\(ReportedKey(deletion.key)?.json ?? "null"),\"version\":\(deletion.version)"
            if let parent = deletion.cascadedFrom {
                line +=
                    ",\"cascadedFrom\":{\"entity\":\(JSONText.quote(parent.entity)),\"key\":\(ReportedKey(parent.key)?.json ?? "null")}"
            }
            text += line + "}\n"
        }
        for nullification in outcome.nullified {
            text +=
                "{\"action\":\"nullify\",\"entity\":\(JSONText.quote(nullification.entity)),\"key\":\(ReportedKey(nullification.key)?.json ?? "null"),\"attribute\":\(JSONText.quote(nullification.attribute))}\n"
        }
        return text
    }
}
