import Foundation
@testable import ImporterCore
import ImporterFormats
import ImporterSQLite
import Logging
import TestSupport
import XCTest

/// A run whose documents' records are held packed (docs/documents.md#large-documents) stores,
/// counts and rejects exactly what the same run stores holding them as they are (as does one
/// whose key checks hold fewer keys in memory than a document has): a first load, a re-load
/// that changes, adds and drops children, and one the store's versions refuse in part, under
/// both document policies, from a plain file and a gzip'd one.
final class PackedDocumentRunTests: XCTestCase {
    private static func order(_ id: String, lines: [String], customer: String = "Ada", version: Int? = nil) -> String {
        let version = version.map { #""version":\#($0),"# } ?? ""
        return
            #"{"orderId":"\#(id)",\#(version)"placedAt":{"$date":"2026-03-02T09:15:00Z"},"customer":"\#(customer)","currency":{"code":"EUR"},"status":"paid","lines":[\#(lines.joined(separator: ","))]}"#
    }

    private static func line(_ sku: String, quantity: Int, adjustments: [String] = [], version: Int? = nil) -> String {
        let version = version.map { #""version":\#($0),"# } ?? ""
        return
            #"{\#(version)"sku":"\#(sku)","quantity":\#(quantity),"price":{"$numberDecimal":"4.50"},"adjustments":[\#(adjustments.joined(separator: ","))]}"#
    }

    private static func adjustment(_ number: Int, amount: String = "-0.45") -> String {
        #"{"_id":{"$oid":"65f1a2b3c4d5e6f70819\#(String(format: "%04d", number))"},"kind":"discount","amount":\#(amount),"appliedAt":{"$date":{"$numberLong":"1772442900000"}}}"#
    }

    /// The first load: valid orders, one with a line of quantity 0, one with an adjustment whose
    /// amount is not a number, and one whose adjustment id repeats (a key-stage rejection).
    private static let first = [
        order("A1", lines: [line("TEA", quantity: 2, adjustments: [adjustment(1)]), line("CUP", quantity: 1)]),
        order("A2", lines: [line("TEA", quantity: 0, adjustments: [adjustment(2)]), line("POT", quantity: 1)]),
        order("A3", lines: (0..<30).map { line("S\($0)", quantity: 1 + $0 % 5, adjustments: [adjustment(100 + $0)]) }),
        order("A4", lines: [line("TEA", quantity: 1, adjustments: [adjustment(4, amount: #""x""#)])]),
        order("A5", lines: [line("TEA", quantity: 1, adjustments: [adjustment(5), adjustment(5)])]),
    ]

    /// The re-load: A1 with a line changed and one dropped, A3 with fewer lines and a new one,
    /// the others again.
    private static let second = [
        order("A1", lines: [line("TEA", quantity: 3, adjustments: [adjustment(1)])]),
        first[1],
        order("A3", lines: (0..<20).map { line("S\($0)", quantity: 1 + $0 % 5) } + [line("NEW", quantity: 9)]),
        first[3], first[4],
    ]

    /// A third load whose records the store's versions refuse (write-stage rejections): A2 with
    /// another customer based on a version that is not stored, and A1 with a line so based.
    private static let third = [
        order("A1", lines: [line("TEA", quantity: 4, adjustments: [adjustment(1)], version: 7)]),
        order(
            "A2", lines: [line("TEA", quantity: 0, adjustments: [adjustment(2)]), line("POT", quantity: 1)],
            customer: "Bob", version: 7),
        second[2], first[3], first[4],
    ]

    func testPackedRecordsStoreCountAndRejectWhatRecordsAsTheyAreDo() throws {
        for policy in ["whole", "partial"] {
            let asTheyAre = try Loads(policy: policy, packedFrom: .max)
            // Packed records let their text go: a file read as it is gives it back at their
            // offsets; for a gzip'd one, the temporary file that kept their documents does.
            let packed = try Loads(policy: policy, packedFrom: 0)
            let compressed = try Loads(policy: policy, packedFrom: 0, gzipped: true)
            // Room in memory for fewer keys than A3 has: its keys are noted apart until it
            // passes, the others' are pending in the ledger, which moves keys to disk between.
            let fewKeysInMemory = try Loads(policy: policy, packedFrom: .max, keysInMemory: 40)
            var loads: [String] = []
            for (step, documents) in [Self.first, Self.second, Self.third].enumerated() {
                let expected = try asTheyAre.load(documents)
                loads.append(expected)
                for other in [packed, compressed, fewKeysInMemory] {
                    XCTAssertEqual(try other.load(documents), expected, "\(policy), load \(step + 1)")
                    XCTAssertEqual(try other.tables(), try asTheyAre.tables(), "\(policy), load \(step + 1)")
                }
            }
            // The comparison compares what it should: the loads stored, replaced and rejected.
            let tables = try packed.tables()
            XCTAssertTrue(tables.contains("NEW"), policy)
            XCTAssertFalse(tables.contains("CUP"), policy)
            XCTAssertTrue(loads[1].contains(#"[(key: "Adjustment", value: 30), (key: "Line", value: 10)]"#), loads[1])
            XCTAssertTrue(loads[2].contains(#""stage":"write","reason":"conflict""#), loads[2])
            XCTAssertTrue(loads[2].contains(#"\"customer\":\"Bob\""#), loads[2])
            let rejects = try String(contentsOfFile: packed.directory + "/reports/rejects.ndjson", encoding: .utf8)
            XCTAssertTrue(rejects.contains("/lines/0/adjustments/1"), "\(policy): \(rejects)")
        }
    }

    /// A store loaded by runs of one document policy, holding records packed from `packedFrom` bytes.
    private final class Loads {
        let directory = NSTemporaryDirectory() + "packed-" + UUID().uuidString
        private let policy: String
        private let packedFrom: Int
        private let gzipped: Bool
        private let keysInMemory: Int

        init(policy: String, packedFrom: Int, gzipped: Bool = false, keysInMemory: Int = KeyLedger.defaultMemoryLimit)
            throws
        {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            self.policy = policy
            self.packedFrom = packedFrom
            self.gzipped = gzipped
            self.keysInMemory = keysInMemory
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        /// Loads `documents` as one NDJSON file (gzip'd if `gzipped`); returns the report's counts
        /// and the rejects.
        func load(_ documents: [String]) throws -> String {
            let path = directory + (gzipped ? "/orders.ndjson.gz" : "/orders.ndjson")
            let text = Array((documents.joined(separator: "\n") + "\n").utf8)
            try Data(gzipped ? try DynamoDBExportFixture.gzip(text) : text).write(to: URL(fileURLWithPath: path))
            let config = try StageFixture.ordersPipeline(path: path, policy: policy, directory: directory)
            let model = try ModelLoader.loadFile(StageFixture.ordersModel)
            var options = RunOptions(reportDirectory: directory + "/reports")
            options.packedDocumentBytes = packedFrom
            options.keysInMemory = keysInMemory
            options.logger = Logger(label: "importer.pipeline") { _ in SwiftLogNoOpLogHandler() }
            let store = try SQLiteStore(path: directory + "/store.sqlite")
            defer { store.close() }
            try store.prepare(for: model)
            let report = try PipelineRun(
                config: config, model: model, store: store, options: options, makeReader: ReaderFactory.makeReader
            ).start()
            let counts = report.entities.map { "\($0.entity): \($0.counts)" }
            let rejects = try String(contentsOfFile: directory + "/reports/rejects.ndjson", encoding: .utf8)
            let deletes =
                report.deletes.map { "\($0.deleted.sorted { $0.key < $1.key }) \($0.refused ?? "")" } ?? "no deletes"
            // Each store's folder is its own.
            return (["\(report.status)", deletes] + counts + [rejects]).joined(separator: "\n")
                .replacingOccurrences(of: directory, with: "DIRECTORY")
                .replacingOccurrences(of: "orders.ndjson.gz", with: "orders.ndjson")
        }

        /// Every row of the entities' tables, in key order.
        func tables() throws -> String {
            try ["Order", "Line", "Adjustment"].map { table in
                try CommandLineTools.sqlite(directory + "/store.sqlite", "SELECT * FROM \"\(table)\" ORDER BY 1, 2")
            }.joined(separator: "\n")
        }
    }
}
