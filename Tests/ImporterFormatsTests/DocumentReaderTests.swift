import Foundation
import ImporterCore
import XCTest

@testable import ImporterFormats

/// Documents read whole (docs/documents.md): the root's fields, the records of its arrays depth
/// first with their positions and JSON pointers, paths into objects, and MongoDB values.
final class DocumentReaderTests: XCTestCase {
    let files = TempDirectory()

    private func source(_ path: String) -> SourceConfig {
        var source = SourceConfig(entity: "Region", pattern: path, paths: [path], format: nil)
        source.map.fields = ["currency": "currency.code"]
        var districts = ChildSource(path: ["districts"], entity: "District")
        districts.children = [ChildSource(path: ["towns"], entity: "Town")]
        source.children = [districts, ChildSource(path: ["meta", "hours"], entity: "Hours")]
        return source
    }

    private func documents(_ text: String, name: String = "regions.json") throws -> [SourceDocument] {
        let path = files.write(name, text)
        let reader = try ReaderFactory.makeReader(source: source(path), path: path) as! DocumentRecordReader
        var documents: [SourceDocument] = []
        while let document = try reader.nextDocument() { documents.append(document) }
        return documents
    }

    func testADocumentsArraysBecomeElementsDepthFirstWithPointersAndLines() throws {
        let text = """
            [
              {"id": "r1", "currency": {"code": "EUR"}, "meta": {"hours": [{"day": 1}]},
               "districts": [
                 {"id": "d1", "towns": [{"name": "a"}, {"name": "b"}]},
                 {"id": "d2", "towns": null}
               ]},
              {"id": "r2", "districts": [7]}
            ]
            """
        let read = try documents(text)
        XCTAssertEqual(read.count, 2)
        let first = read[0]
        XCTAssertEqual(first.root.names, ["id", "currency", "currency.code"])
        XCTAssertEqual(first.root.values.last, .text("EUR"))
        XCTAssertEqual(
            first.elements.indices.map { index in
                let element = first.elements[index]
                return
                    "\(element.node) \(first.pointers[index]) \(element.parent ?? -1) \(element.position) line \(element.record.line)"
            },
            [
                "1 /districts/0 -1 0 line 4", "2 /districts/0/towns/0 0 0 line 4", "2 /districts/0/towns/1 0 1 line 4",
                "1 /districts/1 -1 1 line 5", "3 /meta/hours/0 -1 0 line 2",
            ])
        XCTAssertEqual(String(decoding: first.elements[1].record.raw, as: UTF8.self), "{\"name\": \"a\"}")
        XCTAssertEqual(first.elements[0].record.names, ["id"])  // its towns are not a field
        let second = read[1]
        XCTAssertNil(second.root.failure)
        XCTAssertEqual(second.elements.count, 1)
        XCTAssertEqual(second.elements[0].record.failure?.reason, .malformed)
        XCTAssertTrue(second.elements[0].record.failure!.message.contains("/districts/0 is a single value"))
    }

    func testAChildPathThatIsNotAnArrayRejectsItsHolderAndBadTextRejectsTheDocument() throws {
        let read = try documents(
            "{\"id\":\"r1\",\"districts\":{\"id\":1}}\n{\"id\":\"r2\",\"districts\":[{\"id\":1},]}\n", name: "r.ndjson")
        XCTAssertEqual(read[0].root.failure?.field, "districts")
        XCTAssertEqual(read[1].root.failure?.reason, .malformed)
        XCTAssertEqual(read[1].elements.count, 0)
    }

    func testMongoDBExtendedJSONIsReadAsValues() throws {
        let line = """
            {"id":{"$oid":"65f1a2b3c4d5e6f708192a01"},"at":{"$date":{"$numberLong":"1772442900123"}},"relaxed":{"$date":"2026-03-02T09:15:00Z"},"n":{"$numberLong":"9007199254740993"},"i":{"$numberInt":"-7"},"d":{"$numberDouble":"1.5"},"inf":{"$numberDouble":"Infinity"},"dec":{"$numberDecimal":"4.50"},"bin":{"$binary":{"base64":"AQID","subType":"00"}},"old":{"$binary":"AQID","$type":"00"},"u":{"$uuid":"0e8a6f2c-1c1b-4e6e-9d3e-6b9b0f0e0a01"},"plain":{"$note":"x","y":1},"pre":{"$date":{"$numberLong":"-1"}}}
            """
        let record = try documents(line + "\n", name: "m.ndjson")[0].root
        let values = Dictionary(uniqueKeysWithValues: zip(record.names, record.values))
        XCTAssertEqual(values["id"], .text("65f1a2b3c4d5e6f708192a01"))
        XCTAssertEqual(values["at"], .text("2026-03-02T09:15:00.123Z"))
        XCTAssertEqual(values["pre"], .text("1969-12-31T23:59:59.999Z"))
        XCTAssertEqual(values["relaxed"], .text("2026-03-02T09:15:00Z"))
        XCTAssertEqual(values["n"], .number("9007199254740993"))
        XCTAssertEqual(values["i"], .number("-7"))
        XCTAssertEqual(values["d"], .number("1.5"))
        XCTAssertEqual(values["inf"], .text("Infinity"))
        XCTAssertEqual(values["dec"], .number("4.50"))
        XCTAssertEqual(values["bin"], .text("AQID"))
        XCTAssertEqual(values["old"], .text("AQID"))
        XCTAssertEqual(values["u"], .text("0e8a6f2c-1c1b-4e6e-9d3e-6b9b0f0e0a01"))
        XCTAssertEqual(values["plain"], .composite("{\"$note\":\"x\",\"y\":1}"))
    }
}
