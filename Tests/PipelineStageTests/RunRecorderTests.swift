import XCTest
@testable import ImporterCore

/// What the run's recorder makes of a signal and of the error limits
/// (docs/reports.md#status, docs/reports.md#error-limits).
final class RunRecorderTests: XCTestCase {
    private func recorder(_ units: [RunRecorder.ErrorUnit], maxErrors: Int = 1000, ratio: Double = 1)
        -> RunRecorder
    {
        var limits = ErrorLimits()
        (limits.maxErrors, limits.maxErrorRatio, limits.minRecords) = (maxErrors, ratio, 0)
        return RunRecorder(
            inputs: units.map { .init(source: "orders.ndjson", entity: "E", format: "ndjson", errorUnit: $0) },
            limits: limits)
    }

    private let problem = Rejection(stage: .validate, reason: .range, "quantity: 0 is below the minimum 1")

    func testASignalOnceTheWorkIsDoneStopsNothing() {
        let done = recorder([.record])
        done.finishesWhole()
        done.interrupt("SIGTERM")
        XCTAssertFalse(done.isAborted)
        XCTAssertFalse(done.wasInterrupted)
        let working = recorder([.record])
        working.interrupt("SIGTERM")
        XCTAssertTrue(working.wasInterrupted)
        XCTAssertEqual(working.abortReason?.cause, .interrupted)
        working.finishesWhole()
        XCTAssertEqual(working.abortReason?.cause, .interrupted, "stopped before: it stays stopped")
    }

    func testADocumentRejectedWholeIsOneErrorHoweverManyRecordsItHeld() {
        let recorder = recorder([.document, .withDocument], maxErrors: 1)
        recorder.read(input: 0, count: 2)
        recorder.read(input: 1, count: 4000)
        for input in [0, 1, 1, 1] { recorder.reject(input: input, line: 1, key: nil, problem, listed: input == 0) }
        XCTAssertNil(recorder.errorLimit, "1 document rejected is not more than 1")
        recorder.reject(input: 0, line: 9, key: nil, problem)
        XCTAssertEqual(recorder.errorLimit, "2 documents rejected (5 records), more than errors.maxErrors (1)")
    }

    func testUnderPartialEachListedElementIsAnErrorAndTheRatioIsOfDocuments() {
        let recorder = recorder([.document, .partialElement], ratio: 0.5)
        recorder.read(input: 0, count: 4)
        recorder.read(input: 1, count: 100)
        recorder.reject(input: 1, line: 1, key: nil, problem)
        recorder.reject(input: 1, line: 1, key: nil, problem, listed: false)
        XCTAssertNil(recorder.errorLimit, "1 of 4")
        recorder.reject(input: 1, line: 2, key: nil, problem)
        recorder.reject(input: 1, line: 3, key: nil, problem)
        XCTAssertEqual(
            recorder.errorLimit, "3 of 4 documents rejected (75.0%), more than errors.maxErrorRatio (50.0%)")
    }

    func testTheMessageHasTheCountsOfTheMomentItIsRead() {
        let recorder = recorder([.record], maxErrors: 0)
        recorder.read(input: 0, count: 10)
        recorder.reject(input: 0, line: 1, key: nil, problem)
        XCTAssertTrue(recorder.abortIfPastErrorLimit())
        recorder.reject(input: 0, line: 2, key: nil, problem)
        XCTAssertEqual(recorder.abortReason?.message, "2 records rejected, more than errors.maxErrors (0)")
        XCTAssertEqual(recorder.totals.rejected, 2)
    }
}
