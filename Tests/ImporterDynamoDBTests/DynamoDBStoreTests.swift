import Foundation
import ImporterCore
import XCTest
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// The store's own checks, through its API against moto.
final class DynamoDBStoreTests: MotoTestCase {
    /// An item over DynamoDB's 400 KB is rejected (reason `size`) before it is sent; the
    /// records beside it are written.
    func testAnItemOver400KBIsRejectedAndTheOthersAreWritten() throws {
        var options = DynamoDBStore.Options()
        options.tablePrefix = "size-"
        options.createTables = true
        let store = DynamoDBStore(client: try client(), options: options)
        let model = try SampleModel.model()
        try store.prepare(for: model)
        let location = model.entity(named: "Location")!
        func record(_ key: String, name: String) -> PreparedRecord {
            var values = [Value](repeating: .null, count: location.attributes.count)
            values[location.hashKeyIndex] = .string(key)
            values[location.attributeIndex["name"]!] = .string(name)
            values[location.attributeIndex["createdAt"]!] = .date(0)
            return PreparedRecord(inputIndex: 0, line: 1, byteOffset: 0, raw: [], values: values)
        }
        let outcomes = try store.write([record("small", name: "ok"), record("huge", name: String(repeating: "x", count: 410_000))],
                                       of: location, rules: VersionRules(entity: location, write: WriteConfig()))
        guard case .inserted = outcomes[0].result else { return XCTFail("\(outcomes[0].result)") }
        guard case .rejected(let rejection) = outcomes[1].result else { return XCTFail("\(outcomes[1].result)") }
        XCTAssertEqual(rejection.reason, .size)
        XCTAssertTrue(rejection.message.contains("400 KB"), rejection.message)
        XCTAssertEqual(try store.count(of: location), 1)
        XCTAssertNil(try store.fetch(.string("huge"), of: location))
    }
}
