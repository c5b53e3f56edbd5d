import Foundation
import ImporterCore
import XCTest
@testable import ImporterSQLite

/// Every inferred step and conversion, run as a store migration on a real SQLite file, gives
/// exactly what migrate-on-read gives for the same items.
final class StoreMigrationTests: XCTestCase {
    let directory = NSTemporaryDirectory() + "migration-\(UUID().uuidString)"
    var path: String { directory + "/shop.sqlite" }

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    static let v1 = """
        model: Shop
        version: 1
        entities:
          Place:
            table: Places
            hashKey: id
            versionAttribute: version
            attributes:
              id: { type: int32 }
              name: { type: string }
              size: { type: int16 }
              score: { type: float }
              open: { type: boolean }
              day: { type: string }
              code: { type: string }
              debug: { type: string }
              note: { type: string }
              version: { type: int64 }
          Old:
            hashKey: id
            versionAttribute: version
            attributes:
              id: { type: string }
              version: { type: int64 }
        """

    static let v2 = """
        model: Shop
        version: 2
        entities:
          Venue:
            renamedFrom: Place
            table: Venues
            hashKey: id
            versionAttribute: version
            attributes:
              id: { type: int64 }
              title: { type: string, renamedFrom: name }
              size: { type: decimal }
              score: { type: double }
              open: { type: string }
              visited: { type: date, convert: { from: day, datePattern: "dd/MM/yyyy" } }
              number: { type: int32, convert: { copy: code } }
              note: { type: string, required: true, default: none }
              kind: { type: string, default: shop }
              version: { type: int64 }
          Fresh:
            hashKey: id
            versionAttribute: version
            attributes:
              id: { type: string }
              version: { type: int64 }
        """

    func testEveryStepOnAStoreGivesWhatMigrateOnReadGives() throws {
        let v1 = try ModelLoader.parse(text: Self.v1, file: "v1.yaml")
        let v2 = try ModelLoader.parse(text: Self.v2, file: "v2.yaml")
        let items = [
            Item([
                "id": .integer(1), "name": .string("Corner"), "size": .integer(7), "score": .double(2.5),
                "open": .boolean(true),
                "day": .string("29/02/2024"), "code": .string("0042"), "debug": .string("x"), "note": .string("kept"),
            ]),
            Item([
                "id": .integer(2), "name": .string("It's \"quoted\""), "size": .integer(-32768),
                "open": .boolean(false),
            ]),
            Item(["id": .integer(3)]),
        ]
        let before = try ItemStore(store: SQLiteStore(path: path), model: v1)
        for item in items { try before.items("Place").insert(item) }
        try before.items("Old").insert(Item(["id": .string("gone")]))
        var third = try XCTUnwrap(before.items("Place").fetch(.integer(3)))
        third["name"] = .string("Three")
        try before.items("Place").update(third)  // version 2
        before.close()

        let plan = try MigrationPlan(VersionedModel(versions: [v1, v2]), from: 1, to: 2)
        let place = try XCTUnwrap(v1.entity(named: "Place"))
        let reader = try ItemStore(store: SQLiteStore(path: path), model: v1)
        let stored = try [1, 2, 3].map { try XCTUnwrap(reader.items("Place").fetch(.integer($0))) }
        reader.close()
        let migrator = try XCTUnwrap(RecordMigrator(plan: plan, entity: "Place"))
        let expected = try stored.map { item in try migrator.migrate(place.attributes.map { item[$0.name] }).get() }
        XCTAssertEqual(
            expected[0],
            [
                .integer(1), .string("Corner"), .decimal("7"), .double(2.5), .string("true"), .date(1_709_164_800_000),
                .integer(42), .string("kept"), .string("shop"), .integer(1),
            ])
        XCTAssertEqual(
            expected[2],
            [
                .integer(3), .string("Three"), .null, .null, .null, .null, .null, .string("none"), .string("shop"),
                .integer(2),
            ])

        let store = try SQLiteStore(path: path)
        let outcome = try store.migrate(plan, commit: true)
        XCTAssertEqual(outcome.failures.count, 0)
        XCTAssertEqual(outcome.steps.map(\.items), [3])
        XCTAssertEqual(
            try store.withConnection {
                try $0.database.strings(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' ORDER BY name"
                )
            },
            ["Fresh", "Venues"])
        XCTAssertEqual(
            try store.withConnection {
                try $0.database.strings(
                    "SELECT typeof(size) || ' ' || typeof(open) || ' ' || typeof(note) FROM Venues ORDER BY id")
            },
            ["text text text", "text text text", "null null text"])
        XCTAssertEqual(try store.recordedModel()?.version, 2)
        XCTAssertEqual(
            try store.migrationHistory().map { "\($0.from)→\($0.to) \($0.applied) \($0.checksum)" },
            ["1→2 true \(v2.checksum)"])
        try store.prepareToRead(v2)
        let venue = try XCTUnwrap(v2.entity(named: "Venue"))
        for (index, id) in [1, 2, 3].enumerated() {
            XCTAssertEqual(try store.fetch(.integer(Int64(id)), of: venue), expected[index], "item \(id)")
        }
        store.close()
        // The migrated store takes version 2 writes.
        let after = try ItemStore(store: SQLiteStore(path: path), model: v2)
        defer { after.close() }
        XCTAssertEqual(
            try after.items("Venue").insert(Item(["id": .integer(4), "note": .string("new")]))["kind"], .string("shop"))
        XCTAssertEqual(try after.items("Venue").count(), 4)
    }
}
