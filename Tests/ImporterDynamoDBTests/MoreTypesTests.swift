import Foundation
import ImporterCore
import TestSupport
import XCTest
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// uuid, uri and binary on DynamoDB (docs/model.md): S, S and B, through the store on moto.
final class MoreTypesTests: MotoTestCase {
    private func model() throws -> Model {
        let directory = NSTemporaryDirectory() + "more-types-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try TestModels.files.write(toFile: directory + "/model.yaml", atomically: false, encoding: .utf8)
        return try ModelLoader.load(path: directory + "/model.yaml").newest
    }

    func testTheItemCodingUsesSAndBAndReadsThemBack() throws {
        let document = try model().entity(named: "Document")!
        let coding = DynamoItemCoding(entity: document)
        let values: [Value] = [
            .string("0e8a3c5e-1f2b-4c3d-8e9f-a0b1c2d3e4f5"), .string("https://example.com/a?b=c"),
            .binary([0, 1, 2, 250, 255]), .integer(1),
        ]
        XCTAssertEqual(
            coding.encode(values),
            #"{"id":{"S":"0e8a3c5e-1f2b-4c3d-8e9f-a0b1c2d3e4f5"},"source":{"S":"https://example.com/a?b=c"},"thumbnail":{"B":"AAEC+v8="},"version":{"N":"1"}}"#
        )
        XCTAssertEqual(try coding.decode(coding.encodeObject(values)), values)
        XCTAssertEqual(DynamoItemCoding.keyType(of: .uuid), "S")
        XCTAssertThrowsError(try coding.decode(["id": .s("not-a-uuid")]))
        XCTAssertThrowsError(
            try coding.decode(["id": .s("0e8a3c5e-1f2b-4c3d-8e9f-a0b1c2d3e4f5"), "thumbnail": .s("AAEC")]))
    }

    func testAUUIDKeyedItemWithBytesIsStoredAndFetched() throws {
        let model = try model()
        var options = DynamoDBStore.Options()
        options.tablePrefix = "types-"
        options.createTables = true
        let store = try DynamoDBStore(client: try client(), options: options)
        try store.prepare(for: model)
        let document = model.entity(named: "Document")!
        let bytes: [UInt8] = (0..<300).map { UInt8($0 % 256) }
        let values: [Value] = [
            .string("0e8a3c5e-1f2b-4c3d-8e9f-a0b1c2d3e4f5"), .string("urn:isbn:0451450523"), .binary(bytes), .null,
        ]
        let outcomes = try store.write(
            [PreparedRecord(inputIndex: 0, line: 2, byteOffset: 0, raw: [], values: values)],
            of: document, rules: VersionRules(entity: document, write: WriteConfig()))
        guard case .inserted = outcomes[0].result else { return XCTFail("\(outcomes[0].result)") }
        let stored = try XCTUnwrap(try store.fetch(.string("0e8a3c5e-1f2b-4c3d-8e9f-a0b1c2d3e4f5"), of: document))
        XCTAssertEqual(stored[0...2], values[0...2])
        XCTAssertEqual(stored[3], .integer(1))
    }
}
