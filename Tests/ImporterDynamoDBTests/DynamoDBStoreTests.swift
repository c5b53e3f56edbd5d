import Foundation
import ImporterCore
import XCTest
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// The store's own checks, through its API against moto.
final class DynamoDBStoreTests: MotoTestCase {
    /// The store checks its own settings, for a library user as for the command.
    func testSettingsDynamoDBCannotWorkWithAreRefusedWhenTheStoreIsMade() throws {
        var options = DynamoDBStore.Options()
        options.transactionSize = 101
        XCTAssertThrowsError(try DynamoDBStore(client: try client(), options: options)) { error in
            XCTAssertEqual((error as? StoreError)?.kind, .invalidSetting("transactionSize"), "\(error)")
        }
        options.transactionSize = 100
        options.concurrency = 0
        XCTAssertThrowsError(try DynamoDBStore(client: try client(), options: options)) { error in
            XCTAssertEqual((error as? StoreError)?.kind, .invalidSetting("concurrency"), "\(error)")
        }
    }

    /// A missing table the store may not create is refused by kind, before anything is written.
    func testAMissingTableIsRefusedByKind() throws {
        var options = DynamoDBStore.Options()
        options.tablePrefix = "absent-"
        let store = try DynamoDBStore(client: try client(), options: options)
        XCTAssertThrowsError(try store.prepare(for: SampleModel.model())) { error in
            guard case .missingTable(let table)? = (error as? StoreError)?.kind else { return XCTFail("\(error)") }
            XCTAssertTrue(table.hasPrefix("absent-"), table)
        }
    }

    /// An item DynamoDB refuses inside a transaction (a number it cannot hold) is rejected at
    /// once, with DynamoDB's reason: the transaction is not retried as it is, and the other
    /// writes of it are sent again without it.
    func testAnItemATransactionRefusesIsRejectedWithoutRetriesAndItsNeighboursAreWritten() throws {
        var options = DynamoDBStore.Options()
        options.tablePrefix = "refused-"
        options.createTables = true
        options.transactional = true
        let store = try DynamoDBStore(client: try client(), options: options)
        let model = try SampleModel.model()
        try store.prepare(for: model)
        let location = model.entity(named: "Location")!
        func record(_ key: String, rating: String) -> PreparedRecord {
            var values = [Value](repeating: .null, count: location.attributes.count)
            values[location.hashKeyIndex] = .string(key)
            values[location.attributeIndex["name"]!] = .string(key)
            values[location.attributeIndex["createdAt"]!] = .date(0)
            values[location.attributeIndex["rating"]!] = .decimal(rating)
            return PreparedRecord(inputIndex: 0, line: 1, byteOffset: 0, raw: [], values: values)
        }
        let outcomes = try store.write(
            [
                record("a", rating: "4.5"), record("b", rating: "1" + String(repeating: "0", count: 130)),
                record("c", rating: "3"),
            ],
            of: location, rules: VersionRules(entity: location, write: WriteConfig()))
        guard case .inserted = outcomes[0].result, case .inserted = outcomes[2].result else {
            return XCTFail("\(outcomes.map(\.result))")
        }
        guard case .rejected(let rejection) = outcomes[1].result else { return XCTFail("\(outcomes[1].result)") }
        XCTAssertTrue(rejection.message.contains("DynamoDB refused the item"), rejection.message)
        XCTAssertEqual(store.takeRetries(of: location), 0)
        XCTAssertEqual(try store.count(of: location), 2)
    }

    /// An item over DynamoDB's 400 KB is rejected (reason `size`) before it is sent; the
    /// records beside it are written.
    func testAnItemOver400KBIsRejectedAndTheOthersAreWritten() throws {
        var options = DynamoDBStore.Options()
        options.tablePrefix = "size-"
        options.createTables = true
        let store = try DynamoDBStore(client: try client(), options: options)
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
        let outcomes = try store.write(
            [record("small", name: "ok"), record("huge", name: String(repeating: "x", count: 410_000))],
            of: location, rules: VersionRules(entity: location, write: WriteConfig()))
        guard case .inserted = outcomes[0].result else { return XCTFail("\(outcomes[0].result)") }
        guard case .rejected(let rejection) = outcomes[1].result else { return XCTFail("\(outcomes[1].result)") }
        XCTAssertEqual(rejection.reason, .size)
        XCTAssertTrue(rejection.message.contains("400 KB"), rejection.message)
        XCTAssertEqual(try store.count(of: location), 1)
        XCTAssertNil(try store.fetch(.string("huge"), of: location))
    }
}
