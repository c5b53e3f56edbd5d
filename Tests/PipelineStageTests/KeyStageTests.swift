import XCTest
@testable import ImporterCore

/// The key stage: parsed chunks in; records that pass the duplicate and reference checks out,
/// with every rejection of the same stretch of input, counted, in input order.
final class KeyStageTests: XCTestCase {
    func testDuplicatesAndMissingReferencesAreRejectedInInputOrder() throws {
        let fixture = try StageFixture([
            (
                "Location",
                StageFixture.locations(10, extra: ["L3,Again,2024-01-01T00:00:00Z", "L10,Ten,2024-01-01T00:00:00Z"])
            ),
            (
                "Checkin",
                "checkinId,locationId,checkinTime\nc1,L1,2024-02-01T10:00:00Z\nc2,L99,2024-02-01T10:00:00Z\nc3,L10,2024-02-01T10:00:00Z\nc1,L2,2024-02-01T10:00:00Z\n"
            ),
        ])
        let (items, recorder) = try checkAll(fixture)

        var passed: [[String]] = [[], []], rejected: [[String]] = [[], []]
        for case .records(let input, let records, let rejections, _) in items {
            passed[input] += records.map { "\($0.line):\($0.values[0])" }
            rejected[input] += rejections.map {
                "\($0.line):\($0.rejection.reason.rawValue):\($0.rejection.field ?? "")"
            }
        }
        XCTAssertEqual(passed[0], (0..<10).map { "\($0 + 2):L\($0)" } + ["13:L10"])
        XCTAssertEqual(rejected[0], ["12:duplicate:locationId"])
        XCTAssertEqual(passed[1], ["2:c1", "4:c3"])
        XCTAssertEqual(rejected[1], ["3:reference:locationId", "5:duplicate:checkinId"])
        XCTAssertEqual(recorder.inputs.map(\.counts.read), [12, 4])
        XCTAssertEqual(recorder.inputs.map(\.counts.rejected), [1, 2])
        guard case .end = items.last else { return XCTFail("the key stage ends with .end") }
    }

    func testAPastErrorLimitStopsCountingWhatWasReadAhead() throws {
        let bad = (0..<20).map { _ in "L1,Dup,2024-01-01T00:00:00Z" }
        let fixture = try StageFixture([("Location", StageFixture.locations(5, extra: bad))])
        let (items, recorder) = try checkAll(fixture, maxErrors: 3)
        XCTAssertTrue(recorder.isAborted)
        let rejected = items.reduce(0) { total, item in
            if case .records(_, _, let rejections, _) = item { return total + rejections.count }
            return total
        }
        XCTAssertEqual(rejected, 4, "the fourth rejection passes maxErrors 3 and stops the stage")
        XCTAssertEqual(recorder.inputs[0].counts.rejected, 4)
    }

    /// Runs a real read stage into a key stage and collects what the key stage hands on.
    private func checkAll(_ fixture: StageFixture, maxErrors: Int = 1000) throws -> ([CheckedItem], RunRecorder) {
        let parsed = Sequencer<ParsedItem>(window: 2)
        let checked = BoundedChannel<CheckedItem>(capacity: 2)
        let recorder = fixture.recorder(maxErrors: maxErrors)
        let keys = KeyStage(
            inputs: fixture.inputs, model: fixture.model, ledger: KeyLedger(), store: nil, recorder: recorder,
            resume: ResumePoint(inputCount: fixture.inputs.count), keepsRejectedKeys: false)
        let keyThread = StageThread("key stage", owning: keys) { $0.run(from: parsed, to: checked) }
        let reading = fixture.startReading(into: parsed, recorder: recorder, written: Handback())
        var items: [CheckedItem] = []
        while true {
            let item = checked.take()
            items.append(item)
            if case .end = item { break }
        }
        reading.join()
        keyThread.join()
        return (items, recorder)
    }
}
