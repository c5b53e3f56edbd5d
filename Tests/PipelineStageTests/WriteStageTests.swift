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
        try write(
            fixture, store: store, [.records(input: 0, [location("A", ordinal: 0)], rejected: [], handback: Handback())]
        )

        // Ordinal 1: rejected by the key stage; 2: a version conflict the store rejects; 3: new.
        let keyReject = RejectedRecord(
            ordinal: 1, line: 3, offset: 40, key: .string("A"), raw: Array("A,dup".utf8)[...],
            rejection: Rejection(stage: .validate, reason: .duplicate, field: "locationId", "a duplicate"))
        let recorder = try write(
            fixture, store: store,
            [
                .records(
                    input: 0,
                    [
                        location("A", ordinal: 0, name: "Changed", version: 5, line: 2),
                        location("B", ordinal: 2, line: 4), location("C", ordinal: 3, line: 5),
                    ],
                    rejected: [keyReject], handback: Handback())
            ], batchSize: 2)

        let lines = try String(contentsOfFile: fixture.directory + "/rejects.ndjson", encoding: .utf8).split(
            separator: "\n")
        let parsed = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        XCTAssertEqual(parsed.map { $0["line"] as? Int }, [2, 3])
        guard parsed.count == 2 else { return }
        XCTAssertEqual(parsed.map { $0["reason"] as? String }, ["conflict", "duplicate"])
        XCTAssertEqual(parsed[1]["raw"] as? String, "A,dup")
        let counts = recorder.inputs[0].counts
        XCTAssertEqual([counts.inserted, counts.rejected, counts.conflicts], [2, 1, 1])
        let entity = fixture.model.entity(named: "Location")!
        XCTAssertEqual(try store.count(of: entity), 3)
        XCTAssertEqual(
            try store.fetch(.string("A"), of: entity)?[1], .string("Place A"), "the conflicting record wrote nothing")
    }

    /// Writes that overlap (a remote store's): each window goes to the store before the last
    /// one's outcomes are taken, and counts and rejections stay as without overlap, in input
    /// order across hand-overs and windows, one hand-over with no records to write among them.
    func testHandOversWrittenAheadOfTheirOutcomesKeepCountsAndRejectionsInOrder() throws {
        let fixture = try StageFixture([("Location", StageFixture.locations(1))])
        let store = try SQLiteStore(path: fixture.directory + "/store.sqlite")
        defer { store.close() }
        try store.prepare(for: fixture.model)
        try write(
            fixture, store: store, [.records(input: 0, [location("A", ordinal: 0)], rejected: [], handback: Handback())]
        )

        func keyReject(_ ordinal: Int) -> RejectedRecord {
            RejectedRecord(
                ordinal: ordinal, line: ordinal + 2, offset: 0, key: .string("K\(ordinal)"),
                raw: Array("K\(ordinal),dup".utf8)[...],
                rejection: Rejection(stage: .validate, reason: .duplicate, field: "locationId", "a duplicate"))
        }
        let recorder = try write(
            fixture, store: store,
            [
                .records(
                    input: 0,
                    [
                        location("B", ordinal: 0, line: 2),
                        location("A", ordinal: 2, name: "Changed", version: 5, line: 4),
                        location("C", ordinal: 3, line: 5),
                    ], rejected: [keyReject(1)], handback: Handback()),
                .records(input: 0, [], rejected: [keyReject(4)], handback: Handback()),
                .records(
                    input: 0,
                    [
                        location("D", ordinal: 5, line: 7),
                        location("A", ordinal: 6, name: "Again", version: 7, line: 8),
                    ],
                    rejected: [], handback: Handback()),
            ], batchSize: 2, overlaps: true)

        let lines = try String(contentsOfFile: fixture.directory + "/rejects.ndjson", encoding: .utf8).split(
            separator: "\n")
        let parsed = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        XCTAssertEqual(parsed.map { $0["line"] as? Int }, [3, 4, 6, 8])
        XCTAssertEqual(parsed.map { $0["reason"] as? String }, ["duplicate", "conflict", "duplicate", "conflict"])
        let counts = recorder.inputs[0].counts
        XCTAssertEqual(
            [counts.inserted, counts.rejected, counts.conflicts], [3, 2, 2], "the key stage counts its own rejections")
        XCTAssertEqual(try store.count(of: fixture.model.entity(named: "Location")!), 4)
    }

    func testADryRunCountsValidRecordsAsInsertedAndWritesNothing() throws {
        let fixture = try StageFixture([("Location", StageFixture.locations(1))])
        let recorder = try write(
            fixture, store: nil,
            [
                .records(
                    input: 0, [location("A", ordinal: 0), location("B", ordinal: 1)],
                    rejected: [], handback: Handback())
            ])
        XCTAssertEqual(recorder.inputs[0].counts.inserted, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.directory + "/store.sqlite"))
    }

    /// Runs a write stage over `items` (an `.end` is added) on a thread of its own.
    @discardableResult
    private func write(
        _ fixture: StageFixture, store: SQLiteStore?, _ items: [CheckedItem], batchSize: Int = 100,
        overlaps: Bool = false
    ) throws -> RunRecorder {
        let recorder = fixture.recorder()
        let checked = BoundedChannel<CheckedItem>(capacity: 2)
        let rules = Dictionary(
            uniqueKeysWithValues: fixture.model.entities.map {
                ($0.name, VersionRules(entity: $0, write: fixture.config.write))
            })
        let writer: (any BatchWriting & RunCheckpoints)? = overlaps ? store.map(OverlappingWrites.init) : store
        let stage = WriteStage(
            inputs: fixture.inputs, store: writer, recorder: recorder,
            rejectsFile: try RejectsFile(path: fixture.directory + "/rejects.ndjson"), rules: rules,
            batchSize: batchSize, resume: ResumePoint(inputCount: 1))
        let thread = StageThread("write stage", owning: stage) { $0.run(from: checked) }
        for item in items { checked.put(item) }
        checked.put(.end)
        thread.join()
        return recorder
    }

    /// A Location record (attributes in model order: id, name, latitude, longitude, createdAt,
    /// active, rating, visits, version).
    private func location(_ id: String, ordinal: Int, name: String? = nil, version: Int64? = nil, line: Int = 2)
        -> PreparedRecord
    {
        PreparedRecord(
            inputIndex: 0, line: line, byteOffset: 0, raw: Array("\(id),Place \(id)".utf8)[...],
            values: [
                .string(id), .string(name ?? "Place \(id)"), .null, .null, .date(1_704_067_200_000), .boolean(true),
                .null, .integer(0),
                version.map(Value.integer) ?? .null,
            ], ordinal: ordinal)
    }
}

/// The SQLite store written as a remote store is (`OverlappedWriting`): each window is started
/// before the last one's outcomes are taken. Every call goes to the real store.
private final class OverlappingWrites: OverlappedWriting, RunCheckpoints, Sendable {
    let store: SQLiteStore
    init(_ store: SQLiteStore) { self.store = store }

    var preferredCommitSize: Int { 2 }
    func startWrite(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) -> StartedWrite {
        let outcomes = Result { try store.write(records, of: entity, rules: rules) }
        return StartedWrite { try outcomes.get() }
    }
    func write(_ records: [PreparedRecord], of entity: Entity, rules: VersionRules) throws -> [WriteOutcome] {
        try store.write(records, of: entity, rules: rules)
    }
    func writingGroups(_ body: () throws -> GroupCompletion) throws { try store.writingGroups(body) }
    func commit() throws { try store.commit() }
    func beginRun(atomic: Bool) throws { try store.beginRun(atomic: atomic) }
    func finishRun(commit: Bool) throws { try store.finishRun(commit: commit) }
    func saveCheckpoint(_ checkpoint: Checkpoint, adding rejections: [Checkpoint.WriteRejection]) throws {
        try store.saveCheckpoint(checkpoint, adding: rejections)
    }
    func loadCheckpoint() throws -> Checkpoint? { try store.loadCheckpoint() }
    func clearCheckpoint() throws { try store.clearCheckpoint() }
}
