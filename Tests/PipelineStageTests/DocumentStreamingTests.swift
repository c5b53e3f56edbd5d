import Foundation
import XCTest
@testable import ImporterCore
import ImporterFormats

/// A document prepared while its reader scans it (each element once it is complete) gives its
/// batch exactly what the same document read whole gives: records, numbers, rejections with
/// their messages and problems, pointers and document ends, under both document policies.
final class DocumentStreamingTests: XCTestCase {
    private static let order = #""placedAt":"2026-03-02T09:15:00Z","customer":"Ada","currency":{"code":"EUR"}"#
    private static func adjustment(_ number: Int, amount: String = "1.5") -> String {
        #"{"_id":{"$oid":"65f1a2b3c4d5e6f70819\#(String(format: "%04d", number))"},"kind":"tax","amount":\#(amount)}"#
    }

    /// Each with what it tries, and whether it can be streamed.
    private static let documents: [(text: String, streamed: Bool)] = [
        // Valid, its key first.
        (
            #"{"orderId":"A1",\#(order),"lines":[{"sku":"T","quantity":2,"price":4.5,"adjustments":[\#(adjustment(1))]},{"sku":"C","quantity":1,"price":12,"adjustments":[]}]}"#,
            true
        ),
        // A line of quantity 0 with an adjustment under it, then a valid line.
        (
            #"{"orderId":"A2",\#(order),"lines":[{"sku":"T","quantity":0,"price":4.5,"adjustments":[\#(adjustment(2))]},{"sku":"K","quantity":1,"price":3,"adjustments":[\#(adjustment(3))]}]}"#,
            true
        ),
        // The order invalid after its lines: they were prepared before it ended.
        (
            #"{"orderId":"A3",\#(order),"lines":[{"sku":"T","quantity":1,"price":1,"adjustments":[\#(adjustment(4))]}],"status":"lost"}"#,
            true
        ),
        // An unknown field before the lines: the order's map rejects it from the start.
        (#"{"orderId":"A4","bogus":1,\#(order),"lines":[{"sku":"T","quantity":1,"price":1}]}"#, true),
        // An adjustment with an amount that is not a number, and a line after it.
        (
            #"{"orderId":"A5",\#(order),"lines":[{"sku":"T","quantity":1,"price":1,"adjustments":[\#(adjustment(5, amount: "\"x\""))]},{"sku":"U","quantity":2,"price":2}]}"#,
            true
        ),
        // Two documents of many lines, positions of two digits.
        (
            #"{"orderId":"A6",\#(order),"lines":["#
                + (0..<23).map { #"{"sku":"S\#($0)","quantity":\#($0 % 7),"price":1}"# }
                .joined(separator: ",") + "]}",
            true
        ),
        // The same adjustment id twice in one document: a key-stage matter, prepared alike.
        (
            #"{"orderId":"A7",\#(order),"lines":[{"sku":"T","quantity":1,"price":1,"adjustments":[\#(adjustment(7)),\#(adjustment(7))]}]}"#,
            true
        ),
        // Not JSON at its end: declined after its lines were read.
        (#"{"orderId":"A8",\#(order),"lines":[{"sku":"T","quantity":1,"price":1}]"#, false),
        // The key after the lines: its lines took none, so the document is read whole.
        (#"{\#(order),"lines":[{"sku":"T","quantity":1,"price":1}],"orderId":"A9"}"#, false),
    ]

    func testAStreamedDocumentGivesItsBatchWhatTheDocumentReadWholeGives() throws {
        for policy in ["whole", "partial"] {
            let fixture = try Fixture(policy: policy, documents: Self.documents.map(\.text))
            // One document at a time, each with a preparer of its own.
            for (index, document) in Self.documents.enumerated() {
                let single = try Fixture(policy: policy, documents: [document.text])
                let (streamed, count) = try single.streamed()
                XCTAssertEqual(count, document.streamed ? 1 : 0, "document \(index + 1), \(policy)")
                XCTAssertEqual(streamed, try single.whole(), "document \(index + 1), \(policy)")
            }
            // All of them in one part: once a document cannot be streamed, the next are read whole.
            let (streamed, count) = try fixture.streamed()
            XCTAssertEqual(count, 7, policy)
            XCTAssertEqual(streamed, try fixture.whole(), policy)
        }
    }

    func testALargeDocumentsRecordsHeldPackedAreThoseItWouldHaveAsTheyAre() throws {
        for policy in ["whole", "partial"] {
            let fixture = try Fixture(policy: policy, documents: Self.documents.map(\.text))
            // Every document is large from 0 bytes.
            let (packed, count) = try fixture.streamedBatch(packedFrom: 0)
            XCTAssertEqual(count, 7, policy)
            let text = { (record: PreparedRecord) in RecordText.of(record, in: fixture.inputs) }
            XCTAssertEqual(Fixture.describe(packed, text: text), try fixture.streamed().0, policy)
            let records = Fixture.records(of: packed)
            XCTAssertTrue(records.allSatisfy(\.isPacked), policy)
            // Below the size, as they are.
            let (unpacked, _) = try fixture.streamedBatch(packedFrom: 1 << 20)
            XCTAssertFalse(Fixture.records(of: unpacked).contains(where: \.isPacked), policy)
            XCTAssertEqual(records.count, Fixture.records(of: unpacked).count, policy)
            XCTAssertGreaterThanOrEqual(records.count, 10, policy)
        }
    }

    func testALargeDocumentsRecordsLetTheirTextGoToBeReadFromItsFileOrATemporaryOne() throws {
        for textInInput in [true, false] {
            let fixture = try Fixture(policy: "partial", documents: Self.documents.map(\.text))
            let expected = try fixture.streamed().0
            let (packed, _) = try fixture.streamedBatch(packedFrom: 0, textInInput: textInInput)
            let records = Fixture.records(of: packed)
            XCTAssertTrue(records.allSatisfy { $0.isPacked && $0.raw.isEmpty && $0.textInInput != nil })
            let text = { (record: PreparedRecord) in RecordText.of(record, in: fixture.inputs) }
            XCTAssertEqual(Fixture.describe(packed, text: text), expected, "read as it is: \(textInInput)")
            XCTAssertEqual(
                records.map { RecordText.of($0, in: fixture.inputs, limit: 5).count }, records.map { _ in 5 })
            // Read as it is, the input holds the text; otherwise the temporary file does. The
            // input blanked in place (the file read is kept open), only the first sees it.
            let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: fixture.path)[.size] as? Int)
            let input = try XCTUnwrap(FileHandle(forWritingAtPath: fixture.path))
            try input.write(contentsOf: Data(repeating: 32, count: size))
            try input.close()
            let blank = records.map { RecordText.of($0, in: fixture.inputs).allSatisfy { $0 == 32 } }
            XCTAssertEqual(blank.allSatisfy { $0 }, textInInput)
            XCTAssertEqual(blank.contains(true), textInInput)
        }
    }

    /// The run gives a document source's reader the objects its map reads only through paths
    /// and no attribute takes whole (`money` of `money.code`: an order has no `money`) as
    /// dropped, so its records never hold them; an object an attribute takes stays a field.
    func testTheRunsReaderLeavesOutObjectsReadOnlyThroughPaths() throws {
        let directory = NSTemporaryDirectory() + "paths-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/orders.ndjson"
        try #"{"orderId":"A1","money":{"code":"EUR"},"customer":{"name":"Ada"}}"#.write(
            toFile: path, atomically: false, encoding: .utf8)
        let pipeline = """
            model: \(StageFixture.ordersModel)
            sources:
              - entity: Order
                path: \(path)
                map: { fields: { currency: money.code, placedAt: customer.since } }
            destination: { path: \(directory)/store.sqlite }
            """
        let config = try PipelineLoader().parse(text: pipeline, file: directory + "/pipeline.yaml")
        let inputs = try RunInput.ordered(config, try ModelLoader.loadFile(StageFixture.ordersModel), nil)
        XCTAssertEqual(inputs[0].source.map.drop, ["money"])
        let reader = try XCTUnwrap(
            ReaderFactory.makeReader(source: inputs[0].source, path: path) as? DocumentRecordReader)
        let root = try XCTUnwrap(reader.nextDocument()).root
        XCTAssertEqual(root.names, ["orderId", "customer", "money.code"])
        XCTAssertEqual(root.values, [.text("A1"), .composite(#"{"name":"Ada"}"#), .text("EUR")])
    }

    func testTheBatchDescribesWhatItHolds() throws {
        // The comparison above compares what it should: the rejections of order A2 are there.
        let described = try Fixture(policy: "partial", documents: [Self.documents[1].text]).whole()
        XCTAssertTrue(described.contains("/lines/0: quantity: 0 is below the minimum 1"), described)
        XCTAssertTrue(described.contains("pointer /lines/1/adjustments/0"), described)
        XCTAssertTrue(described.contains("listed false"), described)
        // The second line's adjustment is the document's second Adjustment: numbered 1, after the
        // one rejected with the first line (numbered 0), as the key stage and checkpoints read it.
        XCTAssertTrue(described.contains("reject 0 line 1 at 153  key nil"), described)
        XCTAssertTrue(described.contains(#"record 1 line 1 at 274 {"_id""#), described)
    }

    /// The Orders model and a pipeline of one NDJSON document source over `documents`.
    private final class Fixture {
        let directory = NSTemporaryDirectory() + "streaming-" + UUID().uuidString
        let source: SourceConfig
        let path: String
        let inputs: [RunInput]
        let root: Int

        init(policy: String, documents: [String]) throws {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            path = directory + "/orders.ndjson"
            try (documents.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
            let config = try StageFixture.ordersPipeline(path: path, policy: policy, directory: directory)
            inputs = try RunInput.ordered(config, try ModelLoader.loadFile(StageFixture.ordersModel), nil)
            root = try XCTUnwrap(inputs.firstIndex { $0.document?.node == 0 })
            // As the run reads it.
            source = inputs[root].source
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        private func reader() throws -> DocumentRecordReader {
            try XCTUnwrap(ReaderFactory.makeReader(source: source, path: path) as? DocumentRecordReader)
        }

        private func preparer(packedFrom: Int, textInInput: Bool = false) throws -> (DocumentPreparer, DocumentBatch) {
            let preparer = try DocumentPreparer(
                inputs: inputs, root: root, file: directory + "/pipeline.yaml", packedFrom: packedFrom,
                textInInput: textInInput)
            return (preparer, DocumentBatch(nodes: preparer.inputs.count, handback: Handback<[PreparedRecord]>()))
        }

        /// Every document read whole, then prepared.
        func whole() throws -> String {
            let reader = try reader()
            var (preparer, batch) = try preparer(packedFrom: DocumentPreparer.PreparedDocument.packedFrom)
            while let document = try reader.nextDocument() { preparer.prepare(document, into: &batch) }
            return Self.describe(batch)
        }

        /// Every document streamed as the part parsers stream them; and how many were.
        func streamed() throws -> (String, Int) {
            let (batch, count) = try streamedBatch(packedFrom: DocumentPreparer.PreparedDocument.packedFrom)
            return (Self.describe(batch), count)
        }

        /// The batch of `streamed()`, with the records of documents of `packedFrom` bytes or more
        /// held packed (and without their text, with `textInInput`).
        func streamedBatch(packedFrom: Int, textInInput: Bool = false) throws -> (DocumentBatch, Int) {
            let reader = try reader()
            let (preparer, batch) = try preparer(packedFrom: packedFrom, textInInput: textInInput)
            let streamer = DocumentStreamer(preparer: preparer, batch: batch)
            var count = 0
            while let read = try reader.nextDocument(streamingTo: preparer.streams ? streamer : nil) {
                switch read {
                case .streamed: count += 1
                case .whole(let document): streamer.prepareWhole(document)
                }
            }
            return (streamer.batch, count)
        }

        /// The prepared records of `batch`.
        static func records(of batch: DocumentBatch) -> [PreparedRecord] {
            batch.groups.flatMap(\.members).compactMap {
                $0.record
            }
        }

        /// What `batch` holds, node by node; each record's text as `text` reads it.
        static func describe(
            _ batch: DocumentBatch, text: (PreparedRecord) -> ArraySlice<UInt8> = { $0.raw }
        ) -> String {
            batch.counts.indices.map { node in
                var ends: [Int] = [], records: [String] = [], rejects: [ParseReject] = []
                for group in batch.groups {
                    for (index, member) in group.members.enumerated() where member.node == node {
                        switch member.outcome {
                        case .prepared:
                            guard let record = member.record else { continue }
                            records.append(
                                "record \(record.ordinal) line \(record.line) at \(record.byteOffset) \(String(decoding: text(record), as: UTF8.self)) \(record.values) pointer \(group.pointer(of: index))"
                            )
                        case .rejected(let reject): rejects.append(reject)
                        case .settled, .inWindow: records.append("unset")
                        }
                    }
                    ends.append(records.count + rejects.count)
                }
                let rejected = rejects.map { reject in
                    let rejection = reject.rejection
                    let problems = rejection.problems.map { "\($0.pointer): \($0.rejection.message)" }
                    return
                        "reject \(reject.ordinal) line \(reject.line) at \(reject.byteOffset) \(String(decoding: reject.raw, as: UTF8.self)) key \(String(describing: reject.key)) \(rejection.stage) \(rejection.reason) \(rejection.field ?? "-") \(rejection.message) problems \(problems) listed \(reject.listed)"
                }
                return (["node \(node) ends \(ends)"] + records + rejected).joined(separator: "\n")
            }.joined(separator: "\n")
        }
    }
}
