import Foundation
import ImporterCore
import XCTest
@testable import ImporterAWS
@testable import ImporterDynamoDB

/// Retries through a fault-injecting proxy in front of moto: throttling, 5xx, connection
/// resets and swallowed responses (the write reached the server, its answer never came back).
final class DynamoDBFaultTests: MotoTestCase {
    static let checkinCount = 10_000

    /// 10k Checkins imported, then refreshed with 10% changed, through 20% throttling, 5% 5xx,
    /// 1% resets and 1% swallowed responses: every item is written exactly once at the right
    /// version, and the report's retries are exactly the faults the proxy injected.
    func testEveryItemIsWrittenOnceAtTheRightVersionThroughInjectedFaults() throws {
        let server = try server()
        let directory = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let proxy = try FaultProxy(
            upstream: server.endpoint,
            rates: .init(throttle: 0.20, serverError: 0.05, reset: 0.01, swallow: 0.01),
            operations: ["BatchWriteItem", "BatchGetItem", "PutItem", "TransactWriteItems"])
        defer { proxy.stop() }
        let environment = ImporterBinary.environment(server, endpoint: proxy.endpoint)
        // Standard mode: these throttles come at random, whatever the rate, so the adaptive rate
        // would only slow the run to its floor (DynamoDBCapacityTests has throttles that depend on it).
        let retry = "{ mode: standard, maxAttempts: 30, baseDelay: 0.001, maxDelay: 0.02 }"

        // 1. Into empty tables: BatchWriteItem.
        let dump = directory + "/checkins.ndjson"
        try TestPipelines.checkins(Self.checkinCount).write(toFile: dump, atomically: false, encoding: .utf8)
        let load = try TestPipelines.write(in: directory, name: "load", checkins: dump, prefix: "faults-", retry: retry)
        let loaded = try ImporterBinary.run(["run", load, "--quiet"], environment: environment)
        XCTAssertEqual(loaded.status, 0, loaded.output)
        let afterLoad = try proxy.stats()
        var report = try ImporterBinary.report(directory + "/reports-load")
        XCTAssertEqual(report.number("totals", "inserted"), Self.checkinCount + 500, loaded.output)
        XCTAssertGreaterThan(afterLoad.faults, 20, "the proxy injected faults")
        XCTAssertEqual(report.number("totals", "retries"), afterLoad.faults, "retries = injected faults: \(afterLoad)")
        // The timeline counts the same retries, in the intervals they were committed in.
        let retried = (report["timeline"] as? [String: Any])?["retries"] as? [Int]
        XCTAssertEqual(retried?.reduce(0, +), afterLoad.faults, "timeline: \(String(describing: report["timeline"]))")

        // 2. Every tenth Checkin changed: BatchGetItem, then conditional PutItem per changed item.
        let refreshDump = directory + "/refresh.ndjson"
        try TestPipelines.checkins(Self.checkinCount, comment: { $0 % 10 == 0 ? "changed \($0)" : "visit \($0)" })
            .write(toFile: refreshDump, atomically: false, encoding: .utf8)
        let refresh = try TestPipelines.write(
            in: directory, name: "refresh", checkins: refreshDump, prefix: "faults-", retry: retry)
        let refreshed = try ImporterBinary.run(["run", refresh, "--quiet"], environment: environment)
        XCTAssertEqual(refreshed.status, 0, refreshed.output)
        let afterRefresh = try proxy.stats()
        report = try ImporterBinary.report(directory + "/reports-refresh")
        XCTAssertEqual(report.number("totals", "updated"), Self.checkinCount / 10, refreshed.output)
        XCTAssertEqual(report.number("totals", "unchanged"), Self.checkinCount * 9 / 10 + 500, refreshed.output)
        XCTAssertGreaterThan(afterRefresh.swallow, afterLoad.swallow, "some conditional writes lost their answer")
        XCTAssertEqual(
            report.number("totals", "retries"), afterRefresh.faults - afterLoad.faults,
            "retries = injected faults: \(afterRefresh)")

        // The table, read directly: every item once, at version 2 where it changed, else 1.
        let store = try openedStore(prefix: "faults-")
        let checkin = try SampleModel.checkin()
        var seen: [String: (comment: String, version: Int64)] = [:]
        try store.scan(checkin) { values in
            guard case .string(let key) = values[checkin.hashKeyIndex],
                case .string(let comment) = values[checkin.attributeIndex["comment"]!],
                case .integer(let version) = values[checkin.versionIndex]
            else { return XCTFail("unexpected item \(values)") }
            XCTAssertNil(seen[key], "\(key) appears twice")
            seen[key] = (comment, version)
        }
        XCTAssertEqual(seen.count, Self.checkinCount)
        for i in 1...Self.checkinCount {
            let key = "chk-" + String(format: "%06d", i)
            let changed = i % 10 == 0
            XCTAssertEqual(seen[key]?.comment, changed ? "changed \(i)" : "visit \(i)", key)
            XCTAssertEqual(seen[key]?.version, changed ? 2 : 1, key)
        }
    }

    /// An HTML 500 page (a load balancer's) is retried like any 5xx; once attempts run out the
    /// error says the status and a short excerpt of the page's text, never the raw HTML.
    func testAnHTMLErrorPageBecomesAReadableMessage() throws {
        let server = try server()
        let proxy = try FaultProxy(upstream: server.endpoint, rates: .init(htmlError: 1), operations: ["DescribeTable"])
        defer { proxy.stop() }
        let client = DynamoDBClient(
            AWSResolvedConfiguration(credentials: server.credentials, region: "us-east-1", endpoint: proxy.endpoint),
            retry: RetryPolicy(maxAttempts: 3, baseDelay: 0.001, maxDelay: 0.01))
        XCTAssertThrowsError(try client.sendJSON("DescribeTable", json(["TableName": "anything"]))) { error in
            guard let error = error as? DynamoDBError else { return XCTFail("not a DynamoDBError: \(error)") }
            XCTAssertEqual(error.code, .http(500))
            XCTAssertTrue(error.isRetryable)
            XCTAssertEqual(
                error.description,
                "DescribeTable: HTTP 500 (HTTP 500): the server answered HTTP 500 with a non-JSON body: "
                    + "500 Internal Server Error: Internal Server Error The upstream server is temporarily unable to service your request. injected by fault_proxy.py"
            )
        }
        XCTAssertEqual(try proxy.stats().htmlError, 3, "every attempt met the page")
        // The same client through the same proxy still reaches moto for other operations.
        XCTAssertNotNil(try client.sendJSON("ListTables", json([:]))["TableNames"])
    }

    /// A run that stops on a failed write counts what DynamoDB acknowledged as written, never
    /// as rolled back (DynamoDB rolls nothing back): the table holds every item the report
    /// counts inserted, plus at most those whose answer was lost.
    func testAnAbortedRunCountsWhatWasWrittenAsWritten() throws {
        let server = try server()
        let directory = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let proxy = try FaultProxy(
            upstream: server.endpoint, rates: .init(serverError: 0.02, swallow: 0.02),
            operations: ["BatchWriteItem"], seed: 11)
        defer { proxy.stop() }
        let dump = directory + "/checkins.ndjson"
        try TestPipelines.checkins(3_000).write(toFile: dump, atomically: false, encoding: .utf8)
        let pipeline = try TestPipelines.write(
            in: directory, name: "abort", checkins: dump, prefix: "abort-",
            retry: "{ mode: standard, maxAttempts: 1 }")
        let run = try ImporterBinary.run(
            ["run", pipeline, "--quiet"], environment: ImporterBinary.environment(server, endpoint: proxy.endpoint))
        XCTAssertEqual(run.status, 3, run.output)
        XCTAssertGreaterThan(try proxy.stats().faults, 0)

        let report = try ImporterBinary.report(directory + "/reports-abort")
        let written = report.number("totals", "inserted")
        XCTAssertEqual(report.number("totals", "rolledBack"), 0, "DynamoDB rolls nothing back: \(run.output)")
        XCTAssertEqual(
            report.number("totals", "read"),
            written + report.number("totals", "notWritten") + report.number("totals", "unknown"))
        XCTAssertGreaterThan(report.number("totals", "notWritten") + report.number("totals", "unknown"), 0)
        let store = try openedStore(prefix: "abort-")
        let model = try SampleModel.model()
        let stored = try model.entities.map { try store.count(of: $0) }.reduce(0, +)
        XCTAssertGreaterThanOrEqual(stored, written, "every item counted inserted is in the table")
        XCTAssertLessThanOrEqual(
            stored, written + report.number("totals", "unknown"), "and only those, or those whose answer was lost")
    }

    private func openedStore(prefix: String) throws -> DynamoDBStore {
        var options = DynamoDBStore.Options()
        options.tablePrefix = prefix
        let store = try DynamoDBStore(client: try client(), options: options)
        XCTAssertTrue(try store.prepareToRead(try SampleModel.model()))
        return store
    }
}
