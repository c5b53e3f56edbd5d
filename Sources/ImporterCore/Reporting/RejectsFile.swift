import Foundation

/// `rejects.ndjson`: one line per rejected record, with its original text so it can be fixed
/// and fed back. Written as the run goes; safe to call from several threads.
final class RejectsFile: @unchecked Sendable {
    private let handle: FileHandle?
    private let lock = NSLock()

    /// Opens (truncates) the file; nil `path` writes nothing (dry runs still count rejects).
    init(path: String?) throws {
        guard let path else {
            handle = nil
            return
        }
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw StoreError("cannot write \(path); check that the report directory is writable")
        }
        self.handle = handle
    }

    func append(source: String, line: Int, offset: Int64, entity: String, key: String?, rejection: Rejection, raw: ArraySlice<UInt8>) {
        guard let handle else { return }
        var text = "{\"source\":\(JSONText.quote(source)),\"line\":\(line),\"offset\":\(offset),\"entity\":\(JSONText.quote(entity))"
        text += ",\"key\":\(key.map(JSONText.quote) ?? "null")"
        text += ",\"stage\":\"\(rejection.stage.rawValue)\",\"reason\":\"\(rejection.reason.rawValue)\""
        if let field = rejection.field { text += ",\"field\":\(JSONText.quote(field))" }
        text += ",\"message\":\(JSONText.quote(rejection.message))"
        if let rawText = String(validating: raw, as: UTF8.self) {
            text += ",\"raw\":\(JSONText.quote(rawText))"
        } else {
            // Not UTF-8: keep the exact bytes too, so nothing is lost.
            text += ",\"raw\":\(JSONText.quote(String(decoding: raw, as: UTF8.self)))"
            text += ",\"rawBase64\":\"\(Data(raw).base64EncodedString())\""
        }
        text += "}\n"
        lock.lock()
        handle.write(Data(text.utf8))
        lock.unlock()
    }

    func close() {
        try? handle?.close()
    }
}
