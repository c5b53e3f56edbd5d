import Foundation
import TestSupport
import XCTest

/// `importer report merge` sums the shards of one run and nothing else (docs/commands.md): the
/// same report twice, a shard given twice, a missing shard, reports of other runs or of an
/// unsharded run, and counts whose sum passes the largest count are refused with exit 2 and
/// one line naming the report. The shards are dry runs (`--shard` on SQLite is for dry runs only).
final class ReportMergeTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    /// `run --dry-run [--shard K/N] [--entities E]` of the sample pipeline into `directory/name`;
    /// returns the report folder.
    private func dryRun(_ name: String, shard: String?, outDir: String = "out", entities: String? = nil) throws
        -> String
    {
        let reports = directory + "/" + name
        let result = try ImporterProcess.run(
            [
                "run", "Pipelines/locations.yaml", "--dry-run", "--quiet", "--report-dir", reports,
                "--var", "OUT_DIR=\(directory)/\(outDir)",
            ] + (shard.map { ["--shard", $0] } ?? [])
                + (entities.map { ["--entities", $0] } ?? []))
        XCTAssertEqual(result.status, 0, result.stderr)
        return shard.map { reports + "/shard-\($0.replacingOccurrences(of: "/", with: "-of-"))" } ?? reports
    }

    private func merge(_ folders: [String]) throws -> ImporterProcess.Result {
        try ImporterProcess.run(["report", "merge"] + folders + ["--out", directory + "/merged"])
    }

    /// Exit 2 with one line that names `file` and says `what`.
    private func assertRefused(
        _ result: ImporterProcess.Result, naming file: String, _ what: String,
        file source: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(result.status, 2, result.stderr, file: source, line: line)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr, file: source, line: line)
        XCTAssertTrue(
            result.stderr.hasPrefix("importer: \(file)/report.json: "), result.stderr, file: source, line: line)
        XCTAssertTrue(result.stderr.contains(what), result.stderr, file: source, line: line)
    }

    func testTheShardsOfOneRunSumToTheUnshardedCounts() throws {
        let shards = [try dryRun("a", shard: "1/2"), try dryRun("a", shard: "2/2")]
        let result = try merge(shards)
        XCTAssertEqual(result.status, 0, result.stderr)
        let merged = try ImporterProcess.report(in: directory + "/merged")
        XCTAssertEqual(merged.object("totals").int("read"), 4500)
        XCTAssertEqual((merged["mergedRuns"] as? [String])?.count, 2)
        XCTAssertNil(merged["shard"], "the merged report is the whole run's")
        let shard = try ImporterProcess.report(in: shards[1]).object("shard")
        XCTAssertEqual(shard.int("index"), 2)
        XCTAssertEqual(shard.int("count"), 2)
        XCTAssertEqual(shard.string("pipelineDigest")?.count, 64)
    }

    /// A load in steps (parents on every shard, then children), each step's reports in a folder
    /// of its own, merges into one report; a step that overlaps another is refused.
    func testTheShardsOfEachStepMergeTogether() throws {
        // The Locations stored, so that the Checkins' dry runs find them.
        let load = try ImporterProcess.run([
            "run", "Pipelines/locations.yaml", "--entities", "Location", "--quiet",
            "--report-dir", directory + "/load", "--var", "OUT_DIR=\(directory)/out",
        ])
        XCTAssertEqual(load.status, 0, load.stderr)
        let parents = [
            try dryRun("p", shard: "1/2", entities: "Location"), try dryRun("p", shard: "2/2", entities: "Location"),
        ]
        let children = [
            try dryRun("c", shard: "1/2", entities: "Checkin"), try dryRun("c", shard: "2/2", entities: "Checkin"),
        ]
        let result = try merge(parents + children)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try ImporterProcess.report(in: directory + "/merged").object("totals").int("read"), 4500)

        let everything = try dryRun("a", shard: "1/2")
        assertRefused(try merge(parents + [everything]), naming: everything, "would count twice")
    }

    func testAReportGivenTwiceIsRefused() throws {
        let one = try dryRun("a", shard: "1/2"), two = try dryRun("a", shard: "2/2")
        assertRefused(try merge([one, two, one]), naming: one, "is given twice")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/merged/report.json"))

        let again = try dryRun("b", shard: "1/2")  // shard 1 run a second time: another run id
        assertRefused(try merge([one, two, again]), naming: again, "would count twice")
    }

    func testReportsThatAreNotTheShardsOfOneRunAreRefused() throws {
        let one = try dryRun("a", shard: "1/2"), two = try dryRun("a", shard: "2/2")
        let otherVariables = try dryRun("b", shard: "2/2", outDir: "elsewhere")
        assertRefused(
            try merge([one, otherVariables]), naming: otherVariables,
            "the pipeline file or the values of its variables differ")

        let ofThree = try dryRun("c", shard: "2/3")
        assertRefused(try merge([one, ofThree]), naming: ofThree, "it is cut into 3 shards, not 2")

        let unsharded = try dryRun("d", shard: nil)
        assertRefused(try merge([one, two, unsharded]), naming: unsharded, "is not a shard of a run")

        assertRefused(try merge([one]), naming: one, "shard 2/2 is missing")
    }

    func testCountsWhoseSumPassesTheLargestCountAreRefused() throws {
        let one = try dryRun("a", shard: "1/2"), two = try dryRun("a", shard: "2/2")
        let file = two + "/report.json"
        var report = try ImporterProcess.report(in: two)
        var totals = report.object("totals")
        totals["read"] = Int.max - 10
        report["totals"] = totals
        try JSONSerialization.data(withJSONObject: report).write(to: URL(fileURLWithPath: file))
        assertRefused(try merge([one, two]), naming: two, "totals.read is \(Int.max - 10)")
    }
}
