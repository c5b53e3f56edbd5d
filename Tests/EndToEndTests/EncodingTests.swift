import Foundation
import TestSupport
import XCTest

/// Inputs in UTF-16, Windows-1252 and ISO-8859-1 (docs/pipeline.md#encodings), run by the
/// built `importer`: decoded to UTF-8 before parsing, by `encoding:` or a UTF-16 byte order
/// mark; a byte the encoding does not map rejects its record (reason `encoding`), and only it.
final class EncodingTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    private let header = "locationId,name,latitude,longitude,createdAt\n"

    private func row(_ key: String, _ name: String) -> String { "\(key),\(name),1.5,2.5,2024-03-01T10:15:30Z\n" }

    /// Locations keyed `prefix-…` (prefixes of one length, so that two files' texts line up),
    /// more than 64 KiB of UTF-16, with a surrogate pair (😀) cut by the decoder's 64 KiB
    /// blocks: its high surrogate is the last code unit of the first block after the mark.
    private func locations(_ prefix: String) -> String {
        var text = header + row("\(prefix)-1", "Café € ’quoted’") + row("\(prefix)-2", "\"Zoë, 😀 naïve\"")
        var index = 3
        while text.utf16.count < 32_700 {
            text += row("\(prefix)-\(index)", "Row \(index)")
            index += 1
        }
        let start = "\(prefix)-x,"
        text += start + String(repeating: "p", count: 32_767 - text.utf16.count - start.utf16.count) + "😀"
        text += ",1.5,2.5,2024-03-01T10:15:30Z\n" + row("\(prefix)-y", "Last 😀")
        return text
    }

    private func write(_ bytes: [UInt8], _ name: String) {
        _ = FileManager.default.createFile(atPath: directory + "/" + name, contents: Data(bytes))
    }

    /// `text` in UTF-16, each `~` written as the code unit `tilde`.
    private func utf16(_ text: String, bigEndian: Bool, mark: Bool, tilde: UInt16 = 0x7E) -> [UInt8] {
        let units: [UInt16] = (mark ? [0xFEFF] : []) + text.utf16.map { $0 == 0x7E ? tilde : $0 }
        var bytes: [UInt8] = []
        for unit in units {
            let (high, low) = (UInt8(unit >> 8), UInt8(unit & 0xFF))
            bytes += bigEndian ? [high, low] : [low, high]
        }
        return bytes
    }

    private func sqlite(_ query: String) throws -> String {
        try ImporterProcess.sqlite(directory + "/store.db", query)
    }

    func testEachEncodingLoadsAsUTF8AndAnUnmappedByteRejectsItsRecordOnly() throws {
        let model = ImporterProcess.root.appendingPathComponent("SampleData/Locations/Model/v1.yaml").path
        write(Array(locations("u8").utf8), "utf8.csv")
        let le = utf16(locations("le"), bigEndian: false, mark: true)
        XCTAssertEqual(Array(le[65_536...65_539]), [0x3D, 0xD8, 0x00, 0xDE], "😀 straddles the first 64 KiB block")
        write(le, "utf16le-bom.csv")
        // Windows-1252: é € ’ are E9 80 92; 0x81 (for `~` here) is undefined, so its row is rejected.
        let cp1252 = header + row("w1-1", "Café € ’q’") + row("w1-2", "Bad ~") + row("w1-3", "Fine")
        write(cp1252.data(using: .windowsCP1252)!.map { $0 == 0x7E ? 0x81 : $0 }, "cp1252.csv")
        write(Array((header + row("l1-1", "Zoë ©")).data(using: .isoLatin1)!), "latin1.csv")
        let checkins =
            #"{"checkinId":"c-1","locationId":"u8-1","checkinTime":"2024-03-02T10:00:00Z","comment":"très ’bien’ 😀","rating":5}"#
            + "\n"
        // The second line's comment holds a lone high surrogate (D83D).
        let lone = checkins.replacingOccurrences(of: "c-1", with: "c-2").replacingOccurrences(of: "😀", with: "~")
        write(
            utf16(
                checkins + lone + checkins.replacingOccurrences(of: "c-1", with: "c-3"), bigEndian: true, mark: false,
                tilde: 0xD83D), "checkins.ndjson")
        try """
        model: \(model)
        sources:
          - { entity: Location, path: utf8.csv }
          - { entity: Location, path: utf16le-bom.csv }
          - { entity: Location, path: cp1252.csv, encoding: CP1252 }
          - { entity: Location, path: latin1.csv, encoding: latin1 }
          - { entity: Checkin, path: checkins.ndjson, encoding: utf-16be }
        destination: { path: store.db }
        errors: { maxErrors: 100, maxErrorRatio: 1 }
        report: { directory: r }
        """.write(toFile: directory + "/p.yaml", atomically: true, encoding: .utf8)
        let result = try ImporterProcess.run(["run", "p.yaml", "--quiet"], in: directory)
        XCTAssertEqual(result.status, 1, result.stderr)

        let columns = "substr(locationId, 3), name, latitude, longitude, createdAt"
        let utf8Rows = try sqlite(#"SELECT \#(columns) FROM "AWS-Locations" WHERE locationId LIKE 'u8-%' ORDER BY 1"#)
        XCTAssertEqual(
            try sqlite(#"SELECT \#(columns) FROM "AWS-Locations" WHERE locationId LIKE 'le-%' ORDER BY 1"#), utf8Rows)
        XCTAssertTrue(utf8Rows.contains("-1|Café € ’quoted’|"), utf8Rows)
        XCTAssertTrue(utf8Rows.contains("-2|Zoë, 😀 naïve|"), utf8Rows)
        XCTAssertTrue(utf8Rows.contains("pp😀|"), utf8Rows)
        XCTAssertEqual(
            try sqlite(#"SELECT locationId, name FROM "AWS-Locations" WHERE locationId GLOB '[wl]1-*' ORDER BY 1"#),
            "l1-1|Zoë ©\nw1-1|Café € ’q’\nw1-3|Fine")
        XCTAssertEqual(
            try sqlite("SELECT checkinId, comment FROM Checkin ORDER BY 1"), "c-1|très ’bien’ 😀\nc-3|très ’bien’ 😀")

        let report = try ImporterProcess.report(in: directory + "/r")
        let totals = report.object("totals")
        XCTAssertEqual(totals.int("rejected"), 2)
        XCTAssertEqual(totals.int("read"), totals.int("inserted") + totals.int("rejected"))
        XCTAssertEqual(
            report.objects("inputs").map { $0.int("bytes") },
            ["utf8.csv", "utf16le-bom.csv", "cp1252.csv", "latin1.csv", "checkins.ndjson"].map {
                (try? FileManager.default.attributesOfItem(atPath: directory + "/" + $0)[.size] as? Int) ?? -1
            }, "bytes read are the file's, not the decoded text's")

        let rejects = try ImporterProcess.rejects(in: directory + "/r")
        XCTAssertEqual(rejects.map { $0.string("reason") }, ["encoding", "encoding"])
        XCTAssertEqual(rejects.map { $0.int("line") }, [3, 2])
        XCTAssertTrue(rejects[0].string("message")?.contains("not windows-1252 text") == true, "\(rejects[0])")
        XCTAssertEqual(rejects[0].string("raw"), "w1-2,Bad \u{FFFD},1.5,2.5,2024-03-01T10:15:30Z")
        // The offset is in the decoded (UTF-8) text: the header and the first row, é € ’ ’ as 2, 3, 3, 3 bytes.
        XCTAssertEqual(
            rejects[0].int("offset"), header.utf8.count + "w1-1,Café € ’q’,1.5,2.5,2024-03-01T10:15:30Z\n".utf8.count)
        XCTAssertTrue(rejects[1].string("message")?.contains("UTF-16 that is no character") == true, "\(rejects[1])")
    }

    func testAnUnknownEncodingIsAConfigurationError() throws {
        write(Array((header + row("a-1", "A")).utf8), "a.csv")
        let model = ImporterProcess.root.appendingPathComponent("SampleData/Locations/Model/v1.yaml").path
        try "model: \(model)\nsources:\n  - entity: Location\n    path: a.csv\n    encoding: utf-32\n".write(
            toFile: directory + "/p.yaml", atomically: true, encoding: .utf8)
        let result = try ImporterProcess.run(["run", "p.yaml", "--quiet"], in: directory)
        XCTAssertEqual(result.status, 2, result.stderr)
        XCTAssertTrue(
            result.stderr.hasPrefix("importer: p.yaml:5: ")
                && result.stderr.contains(
                    "unknown encoding 'utf-32'; use utf-8 (the default), utf-16le, utf-16be, utf-16 (with a byte order mark), windows-1252 (cp1252) or iso-8859-1 (latin1)"
                ), result.stderr)
    }

    func testModelInferProposesTheEncodingAndItsPipelineRuns() throws {
        let customers = "customerId,name\n1,Zoë 😀\n2,Ann\n"
        write(utf16(customers, bigEndian: false, mark: true), "customers.csv")
        write(Array("orderId,note\n1,".utf8) + [0xE9, 0x80] + Array("\n2,plain\n".utf8), "orders.csv")
        let infer = try ImporterProcess.run(
            ["model", "infer", "customers.csv", "orders.csv", "--out", "model.yaml", "--pipeline", "p.yaml"],
            in: directory)
        XCTAssertEqual(infer.status, 0, infer.stderr)
        let pipeline = try String(contentsOfFile: directory + "/p.yaml", encoding: .utf8)
        XCTAssertTrue(pipeline.contains("    encoding: utf-16le"), pipeline)
        XCTAssertTrue(pipeline.contains("    encoding: windows-1252"), pipeline)
        let model = try String(contentsOfFile: directory + "/model.yaml", encoding: .utf8)
        XCTAssertTrue(model.contains("name:"), "the header is read decoded: \(model)")

        let run = try ImporterProcess.run(["run", "p.yaml", "--quiet"], in: directory)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(
            try ImporterProcess.sqlite(directory + "/p.sqlite", "SELECT name FROM Customer ORDER BY 1"), "Ann\nZoë 😀")
        XCTAssertEqual(
            try ImporterProcess.sqlite(directory + "/p.sqlite", "SELECT note FROM \"Order\" ORDER BY 1"), "plain\né€")
    }
}
