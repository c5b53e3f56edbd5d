import Foundation
import TestSupport
import XCTest

/// rejects.ndjson lists rejections in input order, whichever stage made them.
final class RejectsOrderTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    func testRejectionsOfEveryStageAreListedInInputOrder() throws {
        let model = ImporterProcess.root.appendingPathComponent("SampleData/Locations/Model/v1.yaml").path
        let pipeline = directory + "/pipeline.yaml"
        try """
        model: \(model)
        sources:
          - entity: Location
            path: ${INPUT}
        destination: { path: \(directory)/store.sqlite }
        report: { directory: \(directory)/reports }
        errors: { maxErrorRatio: 1.0 }
        """.write(toFile: pipeline, atomically: false, encoding: .utf8)
        func run(_ csv: String) throws -> ImporterProcess.Result {
            let input = directory + "/locations.csv"
            try csv.write(toFile: input, atomically: false, encoding: .utf8)
            return try ImporterProcess.run(["run", pipeline, "--quiet"], environment: ["INPUT": input])
        }
        let first = try run("locationId,name,createdAt\na,A,2024-01-01T00:00:00Z\nc,C,2024-01-01T00:00:00Z\n")
        XCTAssertEqual(first.status, 0, first.stderr)

        // Line 2: a version conflict (write stage); 3: a duplicate key (key stage); 4: a missing
        // required name (validate stage); 5: a good record; 6: another conflict; 7: a duplicate.
        let second = try run(
            """
            locationId,name,createdAt,version
            a,A2,2024-01-01T00:00:00Z,5
            a,A3,2024-01-01T00:00:00Z,
            b,,2024-01-01T00:00:00Z,
            d,D,2024-01-01T00:00:00Z,
            c,C2,2024-01-01T00:00:00Z,7
            d,D2,2024-01-01T00:00:00Z,

            """)
        XCTAssertEqual(second.status, 1, second.stderr)
        let lines = try String(contentsOfFile: directory + "/reports/rejects.ndjson", encoding: .utf8)
            .split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        XCTAssertEqual(lines.map { $0["line"] as? Int }, [2, 3, 4, 6, 7])
        XCTAssertEqual(
            lines.map { $0["reason"] as? String }, ["conflict", "duplicate", "required", "conflict", "duplicate"])
    }
}
