import Foundation
import ImporterCore
import XCTest

@testable import ImporterFormats

/// The document scanner, the fast path of documents (docs/documents.md): what it reads is
/// exactly what the tree path reads, and what it does not read well it declines.
final class DocumentScannerTests: XCTestCase {
    /// Region → districts → towns, with paths into objects at the root and in towns.
    private let shape: DocumentShape = {
        var source = SourceConfig(entity: "Region", pattern: "r.ndjson", paths: ["r.ndjson"], format: nil)
        source.map.fields = ["code": "info.code", "deep": "info.a.b"]
        var districts = ChildSource(path: ["districts"], entity: "District")
        var towns = ChildSource(path: ["towns"], entity: "Town")
        towns.map.fields = ["latitude": "geo.lat", "longitude": "geo.lon"]
        districts.children = [towns]
        source.children = [districts, ChildSource(path: ["notes"], entity: "Note")]
        return DocumentShape(source)
    }()

    /// Scans `documents` with one scanner; each must be taken (`scanned`) or declined, and
    /// what is taken must be what the tree path gives.
    private func check(
        _ documents: [String], scanned: Bool = true, shape: DocumentShape? = nil, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        let outcomes = DocumentScannerCheck.compare(documents.map { Array($0.utf8) }, shape: shape ?? self.shape)
        for (document, outcome) in zip(documents, outcomes) {
            XCTAssertNil(outcome.difference, document, file: file, line: line)
            XCTAssertEqual(outcome.scanned, scanned, "scanned: \(document)", file: file, line: line)
        }
    }

    private func scan(_ text: String) -> SourceDocument? {
        var scanner = DocumentScanner(shape: shape)
        return scanner.document(SourceRecord(line: 1, byteOffset: 0, raw: Array(text.utf8)[...], names: [], values: []))
    }

    func testNestedDocumentsAreReadAsTheTreePathReadsThem() throws {
        check([
            #"{"id":"r1","info":{"code":"N","a":{"b":[1,2]}},"districts":[{"no":1,"towns":[{"_id":{"$oid":"65f1a2b3c4d5e6f708192a01"},"geo":{"lat":48.85,"lon":2.35},"name":"Ørsně"},{"name":"b","geo":null}]},{"no":2,"towns":[]},{"no":3,"towns":null},{"no":4}],"notes":[{"text":"x"}]}"#,
            #"{"id":"r2","districts":[{"no":1,"towns":[{"name":"c","geo":{"lat":1}}]}]}"#,
            #"{"id":"r3","info":"plain","districts":null,"extra":[{"a":1},[2,{"b":null}]]}"#,
            #"  {"id":"r4"}  "#,
            #"{}"#,
            // Positions of two and three digits, in their pointers.
            #"{"id":"r5","districts":["#
                + (0..<112).map { #"{"no":\#($0),"towns":[{"name":"t"}]}"# }.joined(separator: ",")
                + "]}",
        ])
        let document = try XCTUnwrap(
            scan(#"{"id":"r1","info":{"code":"N"},"districts":[{"no":1,"towns":[{"name":"a"},{"name":"b"}]}]}"#))
        XCTAssertEqual(document.root.names, ["id", "info", "info.code"])
        XCTAssertEqual(document.root.values, [.text("r1"), .composite(#"{"code":"N"}"#), .text("N")])
        XCTAssertEqual(
            document.elements.indices.map { document.pointers[$0] },
            ["/districts/0", "/districts/0/towns/0", "/districts/0/towns/1"])
        XCTAssertEqual(document.elements.map { $0.parent ?? -1 }, [-1, 0, 0])
        XCTAssertEqual(document.elements[1].record.byteOffset, 61)
        XCTAssertEqual(String(decoding: document.elements[2].record.raw, as: UTF8.self), #"{"name":"b"}"#)
    }

    func testRecordsWithTheSameKeysShareTheirNames() throws {
        let document = try XCTUnwrap(scan(#"{"districts":[{"no":1,"towns":[]},{"no":2,"towns":[]},{"n":3}]}"#))
        let names = document.elements.map(\.record.names)
        XCTAssertEqual(names, [["no"], ["no"], ["n"]])
        names[0].withUnsafeBufferPointer { first in
            names[1].withUnsafeBufferPointer { XCTAssertEqual(first.baseAddress, $0.baseAddress) }
        }
        // A key spelled like a path is the field, and the path is not added again.
        check([
            #"{"code":1,"info.code":2,"info":{"code":3}}"#, #"{"info.code":2,"info":{"code":3}}"#,
            #"{"info":{"code":3},"info.code":2,"info.a.b":1}"#, #"{"info.a.b":{"c":1},"info":{"a":{"b":2}}}"#,
        ])
    }

    func testLinesOfElementsInAPrettyPrintedDocument() {
        check([
            """
            {
              "id": "r1",
              "districts": [
                {"no": 1,
                 "towns": [ {"name": "a"},
                   {"name": "b"} ]},
                {"no": 2}
              ]
            }
            """
        ])
    }

    func testMongoDBWrappersAreValues() throws {
        check([
            #"{"id":{"$oid":"65f1a2b3c4d5e6f708192a01"},"at":{"$date":{"$numberLong":"1772442900123"}},"relaxed":{"$date":"2026-03-02T09:15:00Z"},"n":{"$numberLong":"9007199254740993"},"i":{"$numberInt":"-7"},"d":{"$numberDouble":"1.5"},"inf":{"$numberDouble":"Infinity"},"dec":{"$numberDecimal":"4.50"},"bin":{"$binary":{"base64":"AQID","subType":"00"}},"old":{"$binary":"AQID","$type":"00"},"u":{"$uuid":"0e8a6f2c-1c1b-4e6e-9d3e-6b9b0f0e0a01"},"plain":{"$note":"x","y":1},"pre":{"$date":{"$numberLong":"-1"}}}"#,
            #"{"a":{"$date":1772442900123},"b":{"$date":{"$numberLong":"x"}},"c":{"$date":{"$numberDouble":"1.5"}},"d":{"$date":[1]},"e":{"$oid":1},"f":{"$binary":{"base64":{"$oid":"x"}}},"g":{"$binary":{"subType":"00"}},"h":{"$oid":"a","$type":"b"},"i":{"$oid":"a","b":1,"c":2},"j":{ "$oid" : "sp" },"k":{"$numberDecimal":"1e400"},"l":{ "$date" : { "$numberLong" : "5" } },"m":{"$date":{"$numberLong":"5"},"x":1},"n":{"$date":{"$numberInt":"5"}}}"#,
            #"{"districts":[{"towns":[{"geo":{"lat":{"$numberDouble":"-0.5"},"lon":{"$numberDecimal":"2.35"}}}]}]}"#,
            // Spelled compactly, and nearly so.
            #"{"m1":{"$date":{"$numberLong":"-9223372036854775808"}},"m2":{"$date":{"$numberLong":"9223372036854775808"}},"m3":{"$date":{"$numberLong":"+5000000000"}},"m4":{"$date":{"$numberLong":"0070000000000"}},"m5":{"$date":{"$numberLong":"-0000000000000"}},"m6":{"$date":{"$numberLong":""}},"m7":{"$date":{"$numberLong":"12a"}},"m8":{"$date":{"$numberLong":"-"}},"m9":{"$date":{"$numberLong":"\u0035"}}}"#,
            #"{"a":{"$date":{"$numberLong":"1772442900123"} },"b":{"$date":{"$numberLong":"17724429001"},"c":1},"d":{"$numberDecimal" :"1.0"},"e":{"$numberDecimals":"1"},"f":{"$oid":"65f1a2b3c4d5e6f708192a01","g":2},"h":{"$date":"2026-03-02T09:15:00Z"},"i":{"$date":{"$numberLongs":"1"}},"j":{"$oid":"\u0041\n"},"k":{"$oid":"a"}}"#,
        ])
        let root = try XCTUnwrap(scan(#"{"at":{"$date":{"$numberLong":"1772442900123"}},"id":{"$oid":"65f1"}}"#)).root
        XCTAssertEqual(root.values, [.text("2026-03-02T09:15:00.123Z"), .text("65f1")])
        XCTAssertEqual(
            [0, -1, 951_782_400_007, -62_167_219_200_000, 253_402_300_799_999, 253_402_300_800_000].map {
                ExtendedJSON.isoText(millisecondsSinceEpoch: $0)
            },
            [
                "1970-01-01T00:00:00.000Z", "1969-12-31T23:59:59.999Z", "2000-02-29T00:00:00.007Z",
                "0000-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z", "10000-01-01T00:00:00.000Z",
            ])
    }

    func testEscapesAndNonASCIIText() throws {
        check([
            #"{"name":"Ørsně \"q\" \\ \/ \b\f\n\r\t","u":"\u00e9\u4e2d\ud83d\ude00 \u0000","plain":"Benburgłó 😀"}"#,
            #"{"districts":[{"towns":[{"name":"a\nb","geo":{"lat":"\u0031"}}]}],"composite":{"k":"\u00e9\ud83d\ude00"}}"#,
        ])
        let root = try XCTUnwrap(scan(#"{"u":"\u00e9\ud83d\ude00\n"}"#)).root
        XCTAssertEqual(root.values, [.text("é😀\n")])
    }

    func testMalformedDocumentsAreDeclinedForTheTreePath() {
        let malformed = [
            "", "   ", "[]", "1", #""text""#, "{", #"{"a"}"#, #"{"a":}"#, #"{"a":1,}"#, #"{"a":1 "b":2}"#,
            #"{"a":1}x"#, #"{"a":01}"#, #"{"a":1.}"#, #"{"a":-}"#, #"{"a":tru}"#, #"{"a":[1,]}"#, #"{"a":{"b":1,}}"#,
            #"{"a":"x"#, "{\"a\":\"\u{01}\"}", #"{"a":"\x"}"#, #"{"a":"\u12"}"#, #"{"a":"\udc00"}"#, #"{"a":"\ud800"}"#,
            #"{"a":"\ud800\u0041"}"#, #"{"a":1,"a":2}"#, #"{"a":{"b":1,"b":2}}"#, #"{"a":[{"b":1,"b":2}]}"#,
            #"{"districts":[{"no":1,"no":2}]}"#, #"{"districts":[1]}"#, #"{"districts":{"no":1}}"#, #"{"districts":7}"#,
            #"{"districts":[{"no":1},]}"#, #"{"districts":[{"no":1}}"#, #"{"districts":[],"districts":[]}"#,
            #"{"a\"b":1}"#, #"{"a":{"k\u0041":1}}"#, #"{"info":{"c\u006fde":1}}"#, #"{"notes":[],"districts":[]}"#,
            #"{"a":{"$oid":"x","$oid":"y"}}"#, #"{"a":{"$date":{"$numberLong":"1","$numberLong":"2"}}}"#,
            #"{"a":{"$date":{"$numberLong":"5"}}"#, #"{"a":{"$oid":"x"}"#, #"{"a":{"$oid":"x"]}"#,
        ]
        check(malformed, scanned: false)
        // Invalid UTF-8 in a value, a key, a nested object or a wrapper.
        let invalid: [[UInt8]] = [
            Array(#"{"a":""#.utf8) + [0xC3] + Array(#""}"#.utf8), Array(#"{""#.utf8) + [0xFF] + Array(#"":1}"#.utf8),
            Array(#"{"a":{"b":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}}"#.utf8),
            Array(#"{"a":{"$oid":""#.utf8) + [0xC0, 0xAF] + Array(#""}}"#.utf8),
        ]
        for outcome in DocumentScannerCheck.compare(invalid, shape: shape) {
            XCTAssertFalse(outcome.scanned)
        }
    }

    func testDeepNestingIsReadUpToALimitAndDeclinedBeyond() {
        let deep = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
        let objects = String(repeating: #"{"a":"#, count: 100) + "1" + String(repeating: "}", count: 100)
        check([#"{"deep":\#(deep),"objects":\#(objects)}"#])
        let deeper = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        check([#"{"deep":\#(deeper)}"#], scanned: false)
    }

    func testObjectsTheMapDropsAreReadOnlyThroughTheirPaths() throws {
        var source = SourceConfig(entity: "Town", pattern: "t.ndjson", paths: ["t.ndjson"], format: nil)
        source.map.fields = ["latitude": "geo.lat", "longitude": "geo.lon", "code": "info.code"]
        source.map.drop = ["geo", "info", "name"]
        // `info` is also read whole by a template: it stays a field.
        source.map.compute = ["label": try FieldTemplate(parsing: "{info}")]
        let shape = DocumentShape(source)
        XCTAssertEqual(shape.nodes[0].droppedRoots, ["geo"])
        check(
            [
                #"{"name":"a","geo":{"lat":48.85,"lon":2.35},"info":{"code":"N"}}"#,
                #"{"name":"b","geo":{"lon":2.35,"alt":{"m":[1,"Ørsně"]}}}"#,
                #"{"name":"c","geo":null}"#, #"{"name":"d","geo":"north"}"#,
                #"{"geo":{"$oid":"65f1a2b3c4d5e6f708192a01"}}"#, #"{"geo":{}}"#,
            ], shape: shape)
        var scanner = DocumentScanner(shape: shape)
        let text = #"{"name":"a","geo":{"lat":48.85,"lon":2.35},"info":{"code":"N"}}"#
        let document = try XCTUnwrap(
            scanner.document(SourceRecord(line: 1, byteOffset: 0, raw: Array(text.utf8)[...], names: [], values: [])))
        XCTAssertEqual(document.root.names, ["name", "info", "geo.lat", "geo.lon", "info.code"])
        XCTAssertEqual(
            document.root.values,
            [.text("a"), .composite(#"{"code":"N"}"#), .number("48.85"), .number("2.35"), .text("N")])
        // Its text is still checked: a byte that is not UTF-8 in it sends the document to the
        // tree path, which rejects it.
        var invalid = Array(#"{"geo":{"lat":1,"note":"x"}}"#.utf8)
        invalid[invalid.count - 4] = 0xFF
        XCTAssertNil(
            scanner.document(SourceRecord(line: 1, byteOffset: 0, raw: invalid[...], names: [], values: [])))
    }

    func testShapesTheScannerLeavesToTheTreePath() {
        var source = SourceConfig(entity: "Order", pattern: "o.ndjson", paths: ["o.ndjson"], format: nil)
        source.children = [ChildSource(path: ["shipment", "parcels"], entity: "Parcel")]
        check([#"{"shipment":{"parcels":[{"a":1}]}}"#], scanned: false, shape: DocumentShape(source))
    }
}
