import Foundation
import ImporterCore
import TestSupport
import XCTest
@testable import ImporterAWS

/// `importer run` with `s3://` sources (docs/pipeline.md#s3-sources) against moto's S3 with authentication on:
/// objects matched by a key pattern, streamed through the readers, rejects naming the object.
final class S3SourceTests: MotoTestCase {
    private let model = ImporterProcess.root.appendingPathComponent("SampleData/Locations/Model").path

    /// `text` compressed by gzip(1).
    private func gzip(_ text: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-c"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Array(bytes)
    }

    /// A bucket holding `objects` (texts) and `binary` objects.
    private func bucket(_ objects: [String: String], binary: [String: [UInt8]] = [:]) throws -> String {
        try server().makeBucket("dumps", objects: objects.mapValues { Array($0.utf8) }.merging(binary) { $1 })
    }

    private func pipeline(_ out: String, sources: String) throws -> String {
        let file = out + "/pipeline.yaml"
        try """
        name: s3-refresh
        model: \(model)
        modelVersion: 1
        sources:
        \(sources)
        destination: { type: sqlite, path: \(out)/store.sqlite }
        report: { directory: \(out)/reports }
        """.write(toFile: file, atomically: false, encoding: .utf8)
        return file
    }

    private func environment() throws -> [String: String] {
        var environment = ImporterBinary.environment(try server())
        environment["AWS_ENDPOINT_URL_S3"] = try server().endpoint.absoluteString
        return environment
    }

    func testObjectsMatchedByAPatternAreImportedAndRejectsNameTheObject() throws {
        let header = "locationId,name,latitude,longitude,createdAt,active,rating,visits\n"
        let bucket = try bucket(
            [
                "locations-1.csv": header
                    + "loc-1,\"Café, \"\"Zoë\"\"\",1.5,2.5,2024-01-01T00:00:00Z,true,1.5,3\nloc-2,Two,1,2,2024-01-02T00:00:00Z,,,\n",
                "locations-2.csv": header + "loc-3,Three,1,2,2024-01-03T00:00:00Z,false,2,7\n",
                "locations-old.tsv": "not matched\n",
                "checkins.ndjson": """
                {"checkinId":"c-1","locationId":"loc-1","checkinTime":"2024-06-17T00:31:52.754Z","rating":5}
                {"checkinId":"c-2","locationId":"loc-3","checkinTime":"2024-06-18T00:00:00Z","rating":4}
                {"checkinId":"c-3","locationId":"loc-2","checkinTime":"yesterday","rating":3}
                {"checkinId":"c-4","locationId":"loc-2","checkinTime":"2024-06-19T00:00:00Z","rating":1}

                """,
            ], binary: ["extra-1.csv.gz": try gzip(header + "loc-4,Four (gzip),3,4,2024-01-04T00:00:00Z,true,1,1\n")])
        let out = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let file = try pipeline(
            out,
            sources: """
                  - { entity: Location, path: "s3://\(bucket)/locations-*.csv" }
                  - { entity: Location, path: "s3://\(bucket)/extra-*.csv.gz" }
                  - { entity: Checkin, path: "s3://\(bucket)/checkins.ndjson" }
                """)
        let run = try ImporterBinary.run(["run", file, "--quiet"], environment: try environment())
        XCTAssertEqual(run.status, 1, run.output)
        let store = out + "/store.sqlite"
        XCTAssertEqual(
            try ImporterProcess.sqlite(store, #"SELECT locationId, name, visits FROM "AWS-Locations" ORDER BY 1"#),
            "loc-1|Café, \"Zoë\"|3\nloc-2|Two|0\nloc-3|Three|7\nloc-4|Four (gzip)|1")
        XCTAssertEqual(
            try ImporterProcess.sqlite(
                store, "SELECT group_concat(checkinId) FROM (SELECT checkinId FROM Checkin ORDER BY 1)"), "c-1,c-2,c-4")
        let rejects = try ImporterProcess.rejects(in: out + "/reports")
        XCTAssertEqual(rejects.count, 1)
        XCTAssertEqual(rejects.first?.string("source"), "s3://\(bucket)/checkins.ndjson")
        XCTAssertEqual(rejects.first?.int("line"), 3)
        let report = try ImporterBinary.report(out + "/reports")
        XCTAssertEqual(report.number("totals", "read"), 8)
        XCTAssertEqual(report.number("totals", "inserted"), 7)

        // Nothing changed: every object's records are unchanged the second time.
        let again = try ImporterBinary.run(["run", file, "--quiet"], environment: try environment())
        XCTAssertEqual(again.status, 1, again.output)
        XCTAssertEqual(try ImporterBinary.report(out + "/reports").number("totals", "unchanged"), 7)
    }

    func testResumeRefusesAnObjectWhoseETagChanged() throws {
        let lines = (1...200_000).map {
            #"{"checkinId":"c-\#($0)","locationId":"loc-1","checkinTime":"2024-06-17T00:00:00Z"}"#
        }
        let bucket = try bucket(["checkins.ndjson": lines.joined(separator: "\n") + "\n"])
        let out = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let file = try pipeline(
            out, sources: "  - { entity: Checkin, path: \"s3://\(bucket)/checkins.ndjson\", references: keep }")
        try (String(contentsOfFile: file, encoding: .utf8) + "\nwrite: { batchSize: 5000 }\n").write(
            toFile: file, atomically: false, encoding: .utf8)

        // Killed (-9) once a batch is committed: the store keeps a checkpoint.
        let log = URL(fileURLWithPath: out + "/run.log")
        let process = try ImporterBinary.process(["run", file, "--quiet"], environment: try environment(), log: log)
        try process.run()
        let store = out + "/store.sqlite"
        let deadline = Date().addingTimeInterval(60)
        func checkpoints() -> Int {
            guard FileManager.default.fileExists(atPath: store) else { return 0 }
            return Int((try? ImporterProcess.sqlite(store, "SELECT count(*) FROM _importer_checkpoint")) ?? "") ?? 0
        }
        while process.isRunning, Date() < deadline, checkpoints() == 0 { usleep(20_000) }
        XCTAssertTrue(
            process.isRunning,
            "the run finished before it could be killed: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()

        // The object is replaced: a resume would skip records of another content.
        try server().putObject(
            Array((lines.reversed().joined(separator: "\n") + "\n").utf8), bucket: bucket, key: "checkins.ndjson")
        let resumed = try ImporterBinary.run(["run", file, "--resume", "--quiet"], environment: try environment())
        XCTAssertEqual(resumed.status, 2, resumed.output)
        XCTAssertTrue(resumed.output.contains("--resume: the input changed since the interrupted run"), resumed.output)
    }

    func testAPatternThatMatchesNothingOrAMissingBucketIsAConfigurationError() throws {
        let bucket = try bucket(["a.csv": "x\n"])
        let out = try ImporterBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: out) }
        let none = try pipeline(out, sources: "  - { entity: Location, path: \"s3://\(bucket)/nothing-*.csv\" }")
        let run = try ImporterBinary.run(["run", none, "--quiet"], environment: try environment())
        XCTAssertEqual(run.status, 2, run.output)
        XCTAssertTrue(run.output.contains("no object matches 's3://\(bucket)/nothing-*.csv'"), run.output)
        let missing = try pipeline(
            out, sources: "  - { entity: Location, path: \"s3://no-such-bucket-\(bucket)/a.csv\" }")
        let failed = try ImporterBinary.run(["run", missing, "--quiet"], environment: try environment())
        XCTAssertEqual(failed.status, 2, failed.output)
        XCTAssertTrue(failed.output.contains("NoSuchBucket"), failed.output)
        XCTAssertTrue(failed.output.contains("check the bucket name"), failed.output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/store.sqlite"), "nothing is written")
    }
}
