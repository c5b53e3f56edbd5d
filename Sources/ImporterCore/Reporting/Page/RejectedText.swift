import Foundation

/// The raw text of the rejected records a report's examples name, read back from the head of
/// rejects.ndjson (docs/reports.md#reporthtml): at most `maximumBytes` of it, so a page of a
/// run with millions of rejections costs a bounded read.
struct RejectedText {
    static let maximumBytes = 4 << 20
    /// Each text cut at this many characters on the page.
    static let shownCharacters = 300

    /// `source:line` → the record's raw text.
    private(set) var texts: [String: String] = [:]

    init() {}

    /// The raw texts of `wanted` (`source:line`) found in the first `maximumBytes` of `path`.
    init(path: String, wanted: Set<String>) {
        guard !wanted.isEmpty, let handle = FileHandle(forReadingAtPath: path) else { return }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: Self.maximumBytes)) ?? Data()
        for line in head.split(separator: UInt8(ascii: "\n")) {
            guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
                let source = object["source"] as? String, let number = object["line"] as? Int,
                let raw = object["raw"] as? String
            else { continue }
            let key = "\(source):\(number)"
            guard wanted.contains(key), texts[key] == nil else { continue }
            texts[key] = raw.count > Self.shownCharacters ? raw.prefix(Self.shownCharacters) + "…" : raw
            if texts.count == wanted.count { return }
        }
    }

    func text(source: String, line: Int) -> String? { texts["\(source):\(line)"] }
}
