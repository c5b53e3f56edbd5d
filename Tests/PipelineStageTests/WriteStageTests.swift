import XCTest
@testable import ImporterCore
import ImporterSQLite

/// The write stage over a real SQLite store: checked records in; items stored, outcomes
/// counted at commit, and rejects.ndjson in input order out.
final class WriteStageTests: XCTestCase {
    func testOutcomesAreCountedAndRejectionsOfBothStagesListedInInputOrder() throws {
        let fixture = try StageFixture([("Location", StageFixture.locations(1))])
        let store = try SQLiteStore(path: fixture.directory + "/store.sqlite")
        defer { store.close() }
        try store.prepare(for: fixture.model)
        try write(fixture, store: store, [.records(input: 0, [location("A", ordinal: 0)], rejected: [], handback: Handback())])

        // Ordinal 1: rejected by the key stage; 2: a version conflict the store rejects; 3: new.
        let keyReject = RejectedRecord(ordinal: 1, line: 3, offset: 40, key: .string("A"), raw: Array("A,dup".utf8)[...],
                                       rejection: Rejection(stage: .validate, reason: .duplicate, field: "locationId", "a duplicate"))
        let recorder = try write(fixture, store: store, [
            .records(input: 0, [location("A", ordinal: 0, name: "Changed", version: 5, line: 2), location("B", ordinal: 2, line: 4), location("C", ordinal: 3, line: 5)],
                     rejected: [keyReject], handback: Handback()),
        ], batchSize: 2)

        let lines = try String(contentsOfFile: fixture.directory + "/rejects.ndjson", encoding: .utf8).split(separator: "\n")
        let parsed = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        XCTAssertEqual(parsed.map { $0["line"] as? Int }, [2, 3])
        guard parsed.count == 2 else { return }
        XCTAssertEqual(parsed.map { $0["reason"] as? String }, ["conflict", "duplicate"])
        XCTAssertEqual(parsed[1]["raw"] as? String, "A,dup")
        let counts = recorder.inputs[0].counts
        XCTAssertEqual([counts.inserted, counts.rejected, counts.conflicts], [2, 1, 1])
        let entity = fixture.model.entity(named: "Location")!
        XCTAssertEqual(try store.count(of: entity), 3)
        XCTAssertEqual(try store.fetch(.string("A"), of: entity)?[1], .string("Place A"), "the conflicting record wrote nothing")
    }

    func testADryRunCountsValidRecordsAsInsertedAndWritesNothing() throws {
        let fixture = try StageFixture([("Location", StageFixture.locations(1))])
        let recorder = try write(fixture, store: nil, [.records(input: 0, [location("A", ordinal: 0), location("B", ordinal: 1)],
                                                                  rejected: [], handback: Handback())])
        XCTAssertEqual(recorder.inputs[0].counts.inserted, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.directory + "/store.sqlite"))
    }

    /// Runs a write stage over `items` (an `.end` is added) on a thread of its own.
    @discardableResult
    private func write(_ fixture: StageFixture, store: SQLiteStore?, _ items: [CheckedItem], batchSize: Int = 100) throws -> RunRecorder {
        let recorder = fixture.recorder()
        let checked = BoundedChannel<CheckedItem>(capacity: 2)
        let rules = Dictionary(uniqueKeysWithValues: fixture.model.entities.map { ($0.name, VersionRules(entity: $0, write: fixture.config.write)) })
        let stage = WriteStage(inputs: fixture.inputs, store: store, recorder: recorder,
                               rejectsFile: try RejectsFile(path: fixture.directory + "/rejects.ndjson"), rules: rules,
                               batchSize: batchSize, resume: ResumePoint(inputCount: 1), handback: Handback())
        let thread = StageThread("write stage", owning: stage) { $0.run(from: checked) }
        for item in items { checked.put(item) }
        checked.put(.end)
        thread.join()
        return recorder
    }

    /// A Location record (attributes in model order: id, name, latitude, longitude, createdAt,
    /// active, rating, visits, version).
    private func location(_ id: String, ordinal: Int, name: String? = nil, version: Int64? = nil, line: Int = 2) -> PreparedRecord {
        PreparedRecord(inputIndex: 0, line: line, byteOffset: 0, raw: Array("\(id),Place \(id)".utf8)[...], values: [
            .string(id), .string(name ?? "Place \(id)"), .null, .null, .date(1_704_067_200_000), .boolean(true), .null, .integer(0),
            version.map(Value.integer) ?? .null,
        ], ordinal: ordinal)
    }
}
