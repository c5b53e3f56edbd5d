import XCTest
@testable import ImporterCore

/// The read stage (with its part parsers and record preparers): a CSV file in, numbered chunks of
/// mapped and validated records out, in input order.
final class ReadStageTests: XCTestCase {
    func testChunksCarryEveryRecordInInputOrderWithParseRejectsInPlace() throws {
        let rows = 10_000
        let fixture = try StageFixture([
            ("Location", StageFixture.locations(rows, extra: ["BAD,,2024-01-01T00:00:00Z", "Z,Last,2024-01-02"]))
        ])
        let parsed = Sequencer<ParsedItem>(window: 2)
        let recorder = fixture.recorder()
        let reading = fixture.startReading(into: parsed, recorder: recorder, written: Handback())

        var lines: [Int] = [], rejects: [(line: Int, reason: RejectReason, key: Value?)] = [], chunks = 0,
            bytes: Int64 = -1
        loop: while true {
            switch parsed.take() {
            case .chunk(let input, let chunk):
                XCTAssertEqual(input, 0)
                XCTAssertLessThanOrEqual(chunk.count, ReadStage.chunkSize)
                chunks += 1
                // Each chunk numbers its records from 0, rejected ones included.
                let ordinals = (chunk.records.map(\.ordinal) + chunk.rejects.map(\.ordinal)).sorted()
                XCTAssertEqual(ordinals, Array(0..<chunk.count))
                lines += chunk.records.map(\.line)
                rejects += chunk.rejects.map { ($0.line, $0.rejection.reason, $0.key) }
            case .documents:
                XCTFail("a CSV file has no documents")
            case .inputDone(let input, let read):
                XCTAssertEqual(input, 0)
                bytes = read
            case .end:
                break loop
            }
        }
        reading.join()
        XCTAssertGreaterThan(chunks, 2, "parts of \(ReadStage.partSize) records")
        XCTAssertEqual(lines, Array(2...(rows + 1)) + [rows + 3])
        XCTAssertEqual(rejects.map(\.line), [rows + 2])
        XCTAssertEqual(rejects.first?.reason, .required)
        XCTAssertEqual(rejects.first?.key, .string("BAD"))
        XCTAssertEqual(bytes, Int64(try Data(contentsOf: URL(fileURLWithPath: fixture.inputs[0].path)).count))
        XCTAssertFalse(recorder.isAborted)
    }

    func testAnUnreadableInputAbortsTheRunWithItsPath() throws {
        let fixture = try StageFixture([("Location", StageFixture.locations(3))])
        try FileManager.default.removeItem(atPath: fixture.inputs[0].path)
        let parsed = Sequencer<ParsedItem>(window: 2)
        let recorder = fixture.recorder()
        let reading = fixture.startReading(into: parsed, recorder: recorder, written: Handback())
        var items: [String] = []
        loop: while true {
            switch parsed.take() {
            case .chunk, .documents: items.append("chunk")
            case .inputDone: items.append("inputDone")
            case .end: break loop
            }
        }
        reading.join()
        XCTAssertEqual(items, [], "nothing of an input that cannot be opened")
        XCTAssertTrue(
            recorder.abortReason?.message.contains(fixture.inputs[0].path) == true,
            recorder.abortReason?.message ?? "not aborted")
        XCTAssertEqual(recorder.abortReason?.cause, .input)
    }
}
