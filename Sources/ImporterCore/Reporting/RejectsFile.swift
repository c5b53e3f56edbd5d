import Foundation

/// `rejects.ndjson`: one line per rejected record, with its original text so it can be fixed
/// and fed back. Written as the run goes, by the one stage that owns it.
final class RejectsFile {
    private let handle: FileHandle?

    /// Opens (truncates) the file; nil `path` writes nothing (dry runs still count rejects).
    init(path: String?) throws {
        guard let path else {
            handle = nil
            return
        }
        handle = FileHandle(fileDescriptor: try OutputFile.create(path), closeOnDealloc: true)
    }

    /// Appends the line of `record`, read from `source` for `entity`.
    func append(_ record: RejectedRecord, source: String, entity: String) {
        guard let handle else { return }
        let rejection = record.rejection
        var text =
            "{\"source\":\(JSONText.quote(source)),\"line\":\(record.line),\"offset\":\(record.offset),\"entity\":\(JSONText.quote(entity))"
        text += ",\"key\":\(record.key.flatMap(ReportedKey.init)?.json ?? "null")"
        text += ",\"stage\":\"\(rejection.stage.rawValue)\",\"reason\":\"\(rejection.reason.rawValue)\""
        if let field = rejection.field { text += ",\"field\":\(JSONText.quote(field))" }
        text += ",\"message\":\(JSONText.quote(rejection.message))"
        if !rejection.problems.isEmpty {
            text += ",\"problems\":["
            text += rejection.problems.map { problem in
                let found = problem.rejection
                var item = "{\"path\":\(JSONText.quote(problem.pointer)),\"stage\":\"\(found.stage.rawValue)\""
                item += ",\"reason\":\"\(found.reason.rawValue)\""
                if let field = found.field { item += ",\"field\":\(JSONText.quote(field))" }
                return item + ",\"message\":\(JSONText.quote(found.message))}"
            }.joined(separator: ",")
            text += "]"
        }
        if let rawText = String(validating: record.raw, as: UTF8.self) {
            text += ",\"raw\":\(JSONText.quote(rawText))"
        } else {
            // Not UTF-8: keep the exact bytes too, so nothing is lost.
            text += ",\"raw\":\(JSONText.quote(String(decoding: record.raw, as: UTF8.self)))"
            text += ",\"rawBase64\":\"\(Data(record.raw).base64EncodedString())\""
        }
        text += "}\n"
        handle.write(Data(text.utf8))
    }

    /// How reports show a key: its text; nil for a null key.
    func close() {
        try? handle?.close()
    }
}
