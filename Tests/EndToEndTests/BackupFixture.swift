import Foundation
import TestSupport
import XCTest

/// A store with every attribute type, awkward values and versions above 1, plus the pipelines
/// that fill it and restore into another store: what the backup tests export and restore.
struct BackupFixture {
    let directory: String
    var modelDirectory: String { directory + "/model" }
    var store: String { directory + "/source.sqlite" }

    static let model = """
        model: Everything
        version: 1
        entities:
          Thing:
            hashKey: id
            versionAttribute: version
            attributes:
              id:      { type: int64 }
              label:   { type: string }
              small:   { type: int16 }
              medium:  { type: int32 }
              amount:  { type: decimal }
              ratio:   { type: double }
              weight:  { type: float }
              at:      { type: date }
              flag:    { type: boolean }
              version: { type: int64 }
            relationships:
              parts: { destination: Part, toMany: true, inverse: thing, deleteRule: cascade }
          Part:
            hashKey: partId
            versionAttribute: version
            attributes:
              partId:  { type: string }
              thingId: { type: int64, required: true }
              note:    { type: string }
              version: { type: int64 }
            relationships:
              thing: { destination: Thing, key: thingId, inverse: parts, deleteRule: nullify }
        """

    static let labels = [
        "plain", "", "comma, inside", "quote \" inside", "line\nbreak", "crlf\r\nend", "Zoë ☕ 🍕 日本",
        "  spaces  ", "null", "NULL", "back\\slash", "tab\there", "=1+2", "{\"json\": [1]}", "\u{1}control",
    ]
    static let amounts = ["12345678901234567890.123456789", "-0.5", "0", "1000", "0.001", "-99999999999999999999"]
    static let ratios = ["0.1", "-2.5e-300", "1.7976931348623157e308", "123456789.125", "3", "-0.0", "6.02214076e23"]
    static let dates = [
        "2024-01-01T00:00:00Z", "1999-12-31T23:59:59.999Z", "2024-02-29T12:30:45.5+02:00", "1970-01-01T00:00:00.001Z",
    ]

    init() throws {
        directory = ImporterProcess.temporaryDirectory()
        try FileManager.default.createDirectory(atPath: modelDirectory, withIntermediateDirectories: true)
        try Self.model.write(toFile: modelDirectory + "/v1.yaml", atomically: false, encoding: .utf8)
    }

    /// Fills the store in three runs, so items are at versions 1, 2 and 3.
    func fill(things: Int = 300) throws {
        for round in 1...3 {
            var lines = ""
            for id in 0..<things where round == 1 || id % round == 0 {
                lines += thingLine(id, round: round)
            }
            try lines.write(toFile: directory + "/things-\(round).ndjson", atomically: false, encoding: .utf8)
            var parts = ""
            for index in 0..<(things * 2) where round == 1 || index % (round + 1) == 0 {
                let note =
                    index % 4 == 0
                    ? "null" : json("part \(index) of round \(round)\n\(Self.labels[index % Self.labels.count])")
                parts += "{\"partId\":\"p-\(index)\",\"thingId\":\(index % things),\"note\":\(note)}\n"
            }
            try parts.write(toFile: directory + "/parts-\(round).ndjson", atomically: false, encoding: .utf8)
            let pipeline = try writePipeline(
                "fill-\(round)", store: store,
                sources: [
                    ("Thing", directory + "/things-\(round).ndjson"), ("Part", directory + "/parts-\(round).ndjson"),
                ])
            let result = try ImporterProcess.run(["run", pipeline, "--quiet"])
            XCTAssertEqual(result.status, 0, result.stderr)
        }
    }

    private func thingLine(_ id: Int, round: Int) -> String {
        func pick(_ values: [String], _ salt: Int) -> String { values[(id + salt + round) % values.count] }
        let nullable = id % 7 == round
        return "{\"id\":\(id - 150),\"label\":\(nullable ? "null" : json(pick(Self.labels, 0)))"
            + ",\"small\":\(id % 5 == 0 ? "-32768" : String(id % 300)),\"medium\":\(id % 11 == 0 ? "2147483647" : String(id * 1000))"
            + ",\"amount\":\(nullable ? "null" : pick(Self.amounts, 1)),\"ratio\":\(pick(Self.ratios, 2)),\"weight\":\(Float(id) / 8)"
            + ",\"at\":\(nullable ? "null" : json(pick(Self.dates, 3))),\"flag\":\(nullable ? "null" : (id + round) % 2 == 0 ? "true" : "false")}\n"
    }

    private func json(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed), as: UTF8.self)
    }

    /// A pipeline into the SQLite store at `store`, reading `sources` (entity, NDJSON file); by
    /// default a dump that does not exist, as on a machine that only has the backup.
    func writePipeline(_ name: String, store: String, sources: [(String, String)]? = nil, extra: String = "") throws
        -> String
    {
        var text = "model: \(modelDirectory)\nsources:\n"
        for (entity, path) in sources ?? [("Thing", directory + "/absent/things.ndjson")] {
            text += "  - { entity: \(entity), path: \"\(path)\" }\n"
        }
        text +=
            "destination: { type: sqlite, path: \"\(store)\" }\nreport: { directory: \"\(directory)/reports-\(name)\" }\n"
            + extra
        let path = directory + "/\(name).yaml"
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Every row of `table`, every column with its SQLite type, reals exactly (as M × 2^E).
    func rows(_ database: String, _ table: String) throws -> String {
        let columns = try ImporterProcess.sqlite(
            database, "SELECT name FROM pragma_table_info('\(table)') ORDER BY cid"
        )
        .split(separator: "\n")
        XCTAssertFalse(columns.isEmpty, "\(database) has no table \(table)")
        let cells = columns.map {
            "typeof(\"\($0)\") || ':' || CASE typeof(\"\($0)\") WHEN 'real' THEN ieee754(\"\($0)\") ELSE quote(\"\($0)\") END"
        }
        return try ImporterProcess.sqlite(
            database, "SELECT \(cells.joined(separator: " || '|' || ")) FROM \"\(table)\" ORDER BY 1")
    }

    func remove() { try? FileManager.default.removeItem(atPath: directory) }
}
