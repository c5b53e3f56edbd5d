import ImporterCore
import Synchronization
import XCTest
@testable import ImporterFormats

/// DynamoDB export manifests (AWS's layout) read strictly, and the check of a data file.
final class ExportManifestTests: XCTestCase {
    let summary = Array(
        #"{"version":"2020-06-30","itemCount":3,"outputFormat":"DYNAMODB_JSON","exportType":"FULL_EXPORT"}"#.utf8)

    private func line(_ key: String, count: Int, md5: String = "1B2M2Y8AsgTpgAmY7PhCfg==") -> String {
        #"{"itemCount":\#(count),"md5Checksum":"\#(md5)","etag":"d41d8cd98f00b204e9800998ecf8427e","dataFileS3Key":"\#(key)"}"#
    }

    private func manifest(_ lines: [String], summary: [UInt8]? = nil) throws -> ExportManifest {
        try ExportManifest(
            summary: summary ?? self.summary, files: Array(lines.joined(separator: "\n").utf8),
            export: "/x/AWSDynamoDB/e1")
    }

    func testKeysWithOrWithoutThePrefixResolveInsideTheExportFolder() throws {
        let parsed = try manifest([
            line("p/q/AWSDynamoDB/e1/data/a.json.gz", count: 2), line("AWSDynamoDB/e1/data/b.json.gz", count: 1),
        ])
        XCTAssertEqual(parsed.files.map(\.relativePath), ["data/a.json.gz", "data/b.json.gz"])
        XCTAssertEqual(parsed.files.map(\.manifestLine), [1, 2])
        XCTAssertEqual(parsed.itemCount, 3)
    }

    func testADamagedManifestIsAnIntegrityErrorNamingItsLine() {
        let cases: [([String], String)] = [
            (
                [line("AWSDynamoDB/e1/data/a.json.gz", count: 3), "{\"itemCount\":0,}"],
                "manifest-files.json:2: not a valid JSON object"
            ),
            (
                [line("AWSDynamoDB/e1/../../etc/passwd", count: 3)],
                "is not a file under an AWSDynamoDB/<export id>/ folder"
            ),
            ([line("data/a.json.gz", count: 3)], "is not a file under an AWSDynamoDB/<export id>/ folder"),
            (
                [line("AWSDynamoDB/e1/data/a.json.gz", count: 3, md5: "d41d8cd98f00b204e9800998ecf8427e")],
                "base64 of an MD5 digest"
            ),
            (
                [line("AWSDynamoDB/e1/data/a.json.gz", count: 2), line("AWSDynamoDB/e1/data/a.json.gz", count: 1)],
                "listed twice"
            ),
            ([line("AWSDynamoDB/e1/data/a.json.gz", count: 2)], "hold 2 items, but manifest-summary.json says 3"),
        ]
        for (lines, expected) in cases {
            XCTAssertThrowsError(try manifest(lines)) { error in
                XCTAssertTrue(error is ExportIntegrityError, "\(error)")
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
    }

    func testIONAndIncrementalExportsAreRefusedAsConfiguration() {
        for (summary, expected) in [
            (#"{"itemCount":0,"outputFormat":"ION"}"#, "the export is ION"),
            (#"{"itemCount":0,"exportType":"INCREMENTAL_EXPORT"}"#, "the export is INCREMENTAL_EXPORT"),
        ] {
            XCTAssertThrowsError(try manifest([], summary: Array(summary.utf8))) { error in
                XCTAssertTrue(error is ConfigurationError, "\(error)")
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
    }

    func testAnEmptyDataFileHoldsNoItemsAndHasTheMD5OfNothing() throws {
        let file = try manifest(
            [line("AWSDynamoDB/e1/data/a.json.gz", count: 0)], summary: Array(#"{"itemCount":0}"#.utf8)
        ).files[0]
        XCTAssertNoThrow(try ExportFileCheck.verify(file, stored: BytesSource([]), location: "a.json.gz", export: "e1"))
        XCTAssertThrowsError(
            try ExportFileCheck.verify(
                file, stored: BytesSource(Array("not gzip".utf8)), location: "a.json.gz", export: "e1")
        ) { error in
            XCTAssertTrue(error is ExportIntegrityError, "\(error)")
        }
    }

    func testChecksRunEveryFileAndReportTheFirstFailureInManifestOrder() {
        struct Failure: Error, Equatable { let index: Int }
        let ran = Mutex<Set<Int>>([])
        XCTAssertThrowsError(
            try ExportChecks.run(count: 40) { index in
                ran.withLock { _ = $0.insert(index) }
                if index == 3 { usleep(20_000) }  // fails later in time than 17 and 31
                if [3, 17, 31].contains(index) { throw Failure(index: index) }
            }
        ) { error in
            XCTAssertEqual(error as? Failure, Failure(index: 3))
        }
        XCTAssertEqual(ran.withLock { $0 }, Set(0..<40))
        XCTAssertNoThrow(try ExportChecks.run(count: 0) { _ in XCTFail("no file, no check") })
    }
}
