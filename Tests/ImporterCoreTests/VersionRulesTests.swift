import XCTest
@testable import ImporterCore

final class VersionRulesTests: XCTestCase {
    let entity = Entity(
        name: "Item", table: "Item", hashKey: "id", versionAttribute: "version",
        attributes: [
            Attribute(name: "id", type: .string), Attribute(name: "name", type: .string),
            Attribute(name: "version", type: .int64),
        ], relationships: [])

    func rules(_ configure: (inout WriteConfig) -> Void = { _ in }) -> VersionRules {
        var write = WriteConfig()
        configure(&write)
        return VersionRules(entity: entity, write: write)
    }

    func row(_ name: String, _ version: Int64?) -> [Value] {
        [.string("k"), .string(name), version.map(Value.integer) ?? .null]
    }

    func testBasics() {
        let check = rules()
        XCTAssertEqual(check.decide(row("a", nil), stored: nil).decision, .insert(row("a", 1)))
        XCTAssertEqual(check.decide(row("a", nil), stored: row("a", 3)).decision, .unchanged)
        XCTAssertEqual(
            check.decide(row("b", nil), stored: row("a", 3)).decision, .update(row("b", 4), expectedVersion: 3))
        XCTAssertEqual(
            check.decide(row("b", 3), stored: row("a", 3)).decision, .update(row("b", 4), expectedVersion: 3))
        // A replay of an applied record: same content, stored version one ahead.
        XCTAssertEqual(check.decide(row("b", 3), stored: row("b", 4)).decision, .unchanged)
    }

    func testConflictsFollowTheMergePolicy() {
        let (decision, conflict) = rules().decide(row("b", 2), stored: row("a", 3))
        XCTAssertTrue(conflict)
        guard case .reject(.conflict, let message) = decision else { return XCTFail("\(decision)") }
        XCTAssertTrue(message.contains("version 3") && message.contains("version 2"), message)
        XCTAssertEqual(
            rules { $0.mergePolicy = .rollback }.decide(row("b", 2), stored: row("a", 3)).decision, .rolledBack)
        XCTAssertEqual(
            rules { $0.mergePolicy = .overwrite }.decide(row("b", 2), stored: row("a", 3)).decision,
            .update(row("b", 4), expectedVersion: 3))
        XCTAssertEqual(
            rules { $0.mergePolicy = .storeTrump }.decide([.string("k"), .null, .integer(2)], stored: row("a", 3))
                .decision,
            .unchanged)
        XCTAssertEqual(rules().decide(row("a", 5), stored: nil).conflict, true)
    }

    func testInsertModeRejectsExistingKeys() {
        guard
            case .reject(.duplicate, _) = rules { $0.mode = .insert }.decide(row("a", nil), stored: row("a", 1))
                .decision
        else {
            return XCTFail()
        }
    }

    func testPreserveAndIgnoreVersions() {
        XCTAssertEqual(
            rules { $0.versions = .preserve }.decide(row("a", 7), stored: nil).decision, .insert(row("a", 7)))
        XCTAssertEqual(
            rules { $0.versions = .ignore }.decide(row("b", 9), stored: row("a", 3)).decision,
            .update(row("b", 4), expectedVersion: 3))
    }
}
