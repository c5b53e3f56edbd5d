import Foundation
import ImporterCore
import XCTest
@testable import ImporterSQLite

/// The library API on an entity keyed by (hash, range): fetch, upsert and delete by the pair.
final class CompositeKeyItemsTests: XCTestCase {
    func testFetchUpsertAndDeleteByThePair() throws {
        let directory = NSTemporaryDirectory() + "pair-items-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let model = try ModelLoader.parse(
            text: """
                model: Weather
                version: 1
                entities:
                  Reading:
                    hashKey: stationId
                    rangeKey: hour
                    versionAttribute: version
                    attributes:
                      stationId:   { type: string }
                      hour:        { type: int32 }
                      temperature: { type: double }
                      version:     { type: int64 }
                """, file: "weather.yaml")
        let store = try ItemStore(store: SQLiteStore(path: directory + "/weather.sqlite"), model: model)
        defer { store.close() }
        let readings = try store.items("Reading")
        func reading(_ station: String, _ hour: Int64, _ temperature: Double) -> Item {
            Item(["stationId": .string(station), "hour": .integer(hour), "temperature": .double(temperature)])
        }
        try readings.insert([reading("ST1", 10, 18.5), reading("ST1", 11, 19), reading("ST2", 10, 21)])
        XCTAssertEqual(try readings.count(), 3)
        XCTAssertEqual(try readings.fetch(.pair(.string("ST1"), .integer(11)))?["temperature"], .double(19))
        XCTAssertNil(try readings.fetch(.pair(.string("ST2"), .integer(11))))

        let updated = try readings.upsert(reading("ST1", 11, 19.5))
        XCTAssertEqual(updated["version"], .integer(2))
        XCTAssertEqual(
            try readings.fetch(.pair(.string("ST1"), .integer(10)))?["version"], .integer(1),
            "the other hour is untouched")
        XCTAssertThrowsError(try readings.insert(reading("ST2", 10, 0))) { error in
            XCTAssertEqual(error as? ItemError, .duplicate(entity: "Reading", key: .pair(.string("ST2"), .integer(10))))
        }

        try readings.delete(updated)
        XCTAssertNil(try readings.fetch(.pair(.string("ST1"), .integer(11))))
        XCTAssertEqual(Set(try readings.fetchAll().map { "\($0["stationId"])/\($0["hour"])" }), ["ST1/10", "ST2/10"])
    }
}
