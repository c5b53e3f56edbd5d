import Foundation
import ImporterCore
@testable import ImporterFormats

/// A temporary directory removed at deinit, for input files written by tests.
final class TempDirectory {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "importer-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `bytes` to `name` and returns its path.
    func write(_ name: String, _ bytes: [UInt8]) -> String {
        let file = (path as NSString).appendingPathComponent(name)
        FileManager.default.createFile(atPath: file, contents: Data(bytes))
        return file
    }

    func write(_ name: String, _ text: String) -> String { write(name, Array(text.utf8)) }
}

/// Every record of a reader.
func readAll(_ reader: RecordReader) throws -> [SourceRecord] {
    var records: [SourceRecord] = []
    while let record = try reader.next() { records.append(record) }
    return records
}

extension SourceRecord {
    var rawText: String { String(decoding: raw, as: UTF8.self) }

    /// Field name → text (nil for null), for assertions.
    var fields: [String: String?] {
        var result: [String: String?] = [:]
        for (name, value) in zip(names, values) {
            switch value {
            case .null: result[name] = .some(nil)
            case .text(let text), .number(let text), .composite(let text), .collection(_, let text): result[name] = text
            case .bool(let flag): result[name] = flag ? "true" : "false"
            }
        }
        return result
    }
}
