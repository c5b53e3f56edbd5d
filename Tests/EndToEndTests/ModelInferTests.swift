import Foundation
import ImporterCore
import TestSupport
import XCTest

/// `importer model infer FILE… --out … --pipeline …` then `importer run` on the starter pipeline,
/// as written, on the same files (docs/infer.md): the rows land in a real SQLite store.
final class ModelInferTests: XCTestCase {
    var directory = ""

    override func setUp() {
        directory = ImporterProcess.temporaryDirectory()
        try! FileManager.default.createDirectory(atPath: directory + "/dumps", withIntermediateDirectories: true)
        try! FileManager.default.createDirectory(atPath: directory + "/job", withIntermediateDirectories: true)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    private func write(_ name: String, _ text: String) {
        try! text.write(toFile: directory + "/dumps/" + name, atomically: false, encoding: .utf8)
    }

    /// Infers from `names` in dumps/, writing job/model.yaml and job/pipeline.yaml.
    @discardableResult
    private func infer(_ names: [String], _ extra: [String] = []) throws -> ImporterProcess.Result {
        let result = try ImporterProcess.run(
            ["model", "infer"] + names.map { "dumps/" + $0 }
                + ["--out", "job/model.yaml", "--pipeline", "job/pipeline.yaml"] + extra, in: directory)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result
    }

    private func runPipeline() throws -> ImporterProcess.Result {
        try ImporterProcess.run(["run", directory + "/job/pipeline.yaml", "--quiet"])
    }

    private func sqlite(_ query: String) throws -> String {
        try ImporterProcess.sqlite(directory + "/job/pipeline.sqlite", query)
    }

    func testInferredModelAndPipelineLoadEveryRowWithItsType() throws {
        write(
            "customers.csv",
            """
            customerId,zip,Signed Up,vip,account
            0f8fad5b-d9cb-469f-a165-70867728950e,0123,25/12/2023,yes,NA
            7C9E6679-7425-40DE-944B-E07FC1F90AE7,4000,01/02/2024,no,17
            1b4e28ba-2fa1-11d2-883f-0016d3cca427,0007,13/02/2024,YES,40000

            """)
        write(
            "readings.tsv",
            "station\thour\ttemp\nST1\t2024-06-01T10:00:00Z\t18.5\nST1\t2024-06-01T11:00:00Z\tNA\nST2\t2024-06-01T10:00:00Z\t21\n"
        )
        try infer(["customers.csv", "readings.tsv"])
        let model = try ModelLoader.loadFile(directory + "/job/model.yaml")
        let customer = model.entity(named: "Customer")!, reading = model.entity(named: "Reading")!
        XCTAssertEqual(
            customer.attributes.map { "\($0.name):\($0.type.rawValue)" },
            ["customerId:uuid", "zip:string", "Signed_Up:date", "vip:boolean", "account:int32", "version:int64"])
        XCTAssertEqual([reading.hashKey, reading.rangeKey], ["station", "hour"])
        let pipeline = try String(contentsOfFile: directory + "/job/pipeline.yaml", encoding: .utf8)
        XCTAssertTrue(pipeline.contains("model: \"model.yaml\""), pipeline)
        XCTAssertTrue(pipeline.contains("path: \"../dumps/customers.csv\""), pipeline)
        XCTAssertTrue(pipeline.contains("rename: { \"Signed Up\": Signed_Up }"), pipeline)
        XCTAssertTrue(pipeline.contains("dateFormat: \"dd/MM/yyyy\""), pipeline)

        let result = try runPipeline()
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(
            try sqlite("SELECT customerId, zip, Signed_Up, vip, account, version FROM Customer ORDER BY zip"),
            """
            1b4e28ba-2fa1-11d2-883f-0016d3cca427|0007|2024-02-13T00:00:00.000Z|1|40000|1
            0f8fad5b-d9cb-469f-a165-70867728950e|0123|2023-12-25T00:00:00.000Z|1||1
            7c9e6679-7425-40de-944b-e07fc1f90ae7|4000|2024-02-01T00:00:00.000Z|0|17|1
            """)
        XCTAssertEqual(
            try sqlite("SELECT station, hour, temp FROM Reading ORDER BY station, hour"),
            """
            ST1|2024-06-01T10:00:00.000Z|18.5
            ST1|2024-06-01T11:00:00.000Z|
            ST2|2024-06-01T10:00:00.000Z|21.0
            """)
    }

    func testAFileWithoutAKeyLoadsWithAComputedRowKeyAndTheRepeatsAreReported() throws {
        write("events.csv", "kind,level,note\nclick,1,\nclick,1,x\nview,2,\nclick,2,y\n")
        try infer(["events.csv"])
        let model = try String(contentsOfFile: directory + "/job/model.yaml", encoding: .utf8)
        XCTAssertTrue(model.contains("# no column or pair of columns is unique and never null in all 4 records"), model)
        XCTAssertTrue(
            model.contains(
                "# 1 record(s) repeat an earlier record's rowKey: importer run rejects them as duplicate and reports them"
            ), model)

        let result = try runPipeline()
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertEqual(
            try sqlite("SELECT rowKey, kind, level, note FROM Event ORDER BY rowKey"),
            "click|1|click|1|\nclick|2|click|2|y\nview|2|view|2|")
        let rejects = try ImporterProcess.rejects(in: directory + "/job/reports/pipeline")
        XCTAssertEqual(rejects.map { "\($0.int("line")):\($0.string("reason") ?? "")" }, ["3:duplicate"])
    }

    /// A year of flights with no unique column or pair: the computed key keeps the year (constant
    /// in this dump) and the departure time (a never-null date), so the next year's dump, loaded
    /// with the same pipeline, inserts every row instead of updating this year's.
    func testAnInferredRowKeyHoldsForTheNextYearsDump() throws {
        func flights(year: Int) -> String {
            var text = "year,month,day,carrier,carrier_name,flight,dep_minute,time_hour,distance\n"
            let names = ["AA": "American", "DL": "Delta", "UA": "United"]
            for day in 1...30 {
                for carrier in ["AA", "DL", "UA"] {
                    for flight in 100..<120 {
                        let hour = 6 + (flight - 100) / 2
                        let time = String(format: "%d-01-%02dT%02d:00:00Z", year, day, hour)
                        text +=
                            "\(year),1,\(day),\(carrier),\(names[carrier]!),\(flight),\(flight % 4 * 15),\(time),\(Double(flight) * 10.5)\n"
                    }
                }
            }
            return text
        }
        write("flights.csv", flights(year: 2023))
        try infer(["flights.csv"])
        let model = try String(contentsOfFile: directory + "/job/model.yaml", encoding: .utf8)
        XCTAssertTrue(
            model.contains("computed by the pipeline (map.compute) from year, month, carrier, flight, time_hour"), model
        )
        XCTAssertTrue(model.contains("less those another of them implies: "), model)
        XCTAssertTrue(model.contains("carrier_name (implied by carrier)"), model)

        let first = try runPipeline()
        XCTAssertEqual(first.status, 0, first.stdout + first.stderr)
        write("flights.csv", flights(year: 2024))
        let second = try runPipeline()
        XCTAssertEqual(second.status, 0, second.stdout + second.stderr)
        let totals = try ImporterProcess.report(in: directory + "/job/reports/pipeline").object("totals")
        XCTAssertEqual(totals.int("inserted"), 1800, "every row of the next year is a new item")
        XCTAssertEqual(totals.int("updated"), 0)
        XCTAssertEqual(try sqlite("SELECT count(*) FROM Flight"), "3600")
    }

    /// `--no-key`: no rowKey; the entity is left without a key, and the model loads once the
    /// key it names in its comment is filled in.
    func testNoKeyLeavesAnEntityWithoutAKeyColumnWithoutOne() throws {
        write("events.csv", "kind,level\nclick,1\nclick,2\nview,1\nview,2\nclick,1\n")
        let inferred = try infer(["events.csv"], ["--no-key"])
        XCTAssertTrue(inferred.stderr.contains("no key: name one in the model before loading"), inferred.stderr)
        let model = try String(contentsOfFile: directory + "/job/model.yaml", encoding: .utf8)
        XCTAssertFalse(model.contains("rowKey"), model)
        XCTAssertTrue(model.contains("left without a key (--no-key)"), model)
        let refused = try runPipeline()
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("needs 'hashKey"), refused.stderr)

        try model.replacingOccurrences(of: "# hashKey: ATTRIBUTE", with: "hashKey: kind\n    rangeKey: level")
            .write(toFile: directory + "/job/model.yaml", atomically: false, encoding: .utf8)
        let loaded = try runPipeline()
        XCTAssertEqual(loaded.status, 1, loaded.stderr)  // the repeated (click, 1)
        XCTAssertEqual(try sqlite("SELECT count(*) FROM Event"), "4")
    }

    func testASuggestedRelationshipKeepsTheMissingReferencesAndCountsThem() throws {
        write("stations.csv", "stationId,name\nST1,Harbour\nST2,Airport\nST3,Hill\n")
        write(
            "stores.ndjson",
            """
            {"storeId":"S1","city":"Porto","stationId":"ST1"}
            {"storeId":"S2","city":"Lisbon","stationId":"ST2"}
            {"storeId":"S3","city":"Faro","stationId":"ST7"}
            {"storeId":"S4","city":"Braga","stationId":null}

            """)
        let inferred = try infer(["stores.ndjson", "stations.csv"])
        XCTAssertTrue(
            inferred.stderr.contains("Store: 4 records of dumps/stores.ndjson, key storeId, station → Station (66.7%)"),
            inferred.stderr)
        let result = try runPipeline()
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(
            try sqlite("SELECT storeId, stationId FROM Store ORDER BY storeId"), "S1|ST1\nS2|ST2\nS3|ST7\nS4|")
        let report = try ImporterProcess.report(in: directory + "/job/reports/pipeline")
        let store = report.objects("entities").first { $0.string("entity") == "Store" }!
        XCTAssertEqual(store.object("references").object("station").int("missing"), 1)
    }

    /// A file of documents: an entity per array of objects, and the starter pipeline loads it as
    /// written, then re-loading a changed document replaces its children (docs/documents.md).
    func testDocumentsLoadIntoAnEntityPerArrayAndReloadingReplacesTheChildren() throws {
        func orders(_ secondLines: String) -> String {
            """
            {"_id": {"$oid": "65f1a2b3c4d5e6f708192a01"}, "placedAt": {"$date": {"$numberLong": "1772442900000"}}, "total": {"$numberDecimal": "12.50"}, "customer": {"name": "Ada", "city": "Paris"}, "lines": [{"sku": "TEA", "qty": 2, "taxes": [{"code": "VAT", "rate": 0.2}]}, {"sku": "CUP", "qty": 1, "taxes": []}]}
            {"_id": {"$oid": "65f1a2b3c4d5e6f708192a02"}, "placedAt": "2026-03-03T10:00:00Z", "total": 3, "customer": {"name": "Alan", "city": null}, "lines": [\(secondLines)]}

            """
        }
        let lines =
            #"{"sku": "KETTLE", "qty": 1, "taxes": [{"code": "VAT", "rate": 0.2}, {"code": "ECO", "rate": 0.01}]}, {"sku": "SPOON", "qty": 4}"#
        write("orders.ndjson", orders(lines))
        let inferred = try infer(["orders.ndjson"])
        XCTAssertTrue(
            inferred.stderr.contains("Line: 4 elements of lines in Order of dumps/orders.ndjson, key orderId + lineNo"),
            inferred.stderr)
        XCTAssertTrue(
            inferred.stderr.contains("Tax: 3 elements of taxes in Line of dumps/orders.ndjson"), inferred.stderr)
        // Taxes have no id, and a Line's key has two parts: a rowKey from the tax's own fields,
        // which repeats across lines (VAT 0.2 twice); the model said so, and the run rejects the
        // second order whole for it (documents: whole).
        XCTAssertTrue(
            try String(contentsOfFile: directory + "/job/model.yaml", encoding: .utf8).contains(
                "no id of its own, and its parent Line's key has two parts"))
        XCTAssertEqual(try runPipeline().status, 1)
        XCTAssertEqual(
            try sqlite(
                "SELECT orderId, placedAt, total, customerName, customerCity, version FROM \"Order\" ORDER BY orderId"),
            "65f1a2b3c4d5e6f708192a01|2026-03-02T09:15:00.000Z|12.5|Ada|Paris|1")
        XCTAssertEqual(try sqlite("SELECT count(*) FROM Line"), "2")
        XCTAssertEqual(try sqlite("SELECT code, rate FROM Tax ORDER BY code"), "VAT|0.2")
        let rejects = try ImporterProcess.rejects(in: directory + "/job/reports/pipeline")
        XCTAssertEqual(rejects.map { $0.string("reason") }, ["duplicate"])
        XCTAssertEqual(rejects.first?["key"] as? String, "65f1a2b3c4d5e6f708192a02")
        XCTAssertEqual(
            rejects.first?.objects("problems").map { $0.string("path")!.hasPrefix("/lines/0/taxes/0") }, [true],
            "\(rejects)")

        // Without the repeat the second order loads; then it loses SPOON and KETTLE's quantity
        // changes: one line updated, one deleted.
        let ecoOnly =
            #"{"sku": "KETTLE", "qty": 1, "taxes": [{"code": "ECO", "rate": 0.01}]}, {"sku": "SPOON", "qty": 4}"#
        write("orders.ndjson", orders(ecoOnly))
        XCTAssertEqual(try runPipeline().status, 0)
        XCTAssertEqual(
            try sqlite(
                "SELECT orderId, placedAt, total, customerName, customerCity, version FROM \"Order\" ORDER BY orderId"),
            """
            65f1a2b3c4d5e6f708192a01|2026-03-02T09:15:00.000Z|12.5|Ada|Paris|1
            65f1a2b3c4d5e6f708192a02|2026-03-03T10:00:00.000Z|3.0|Alan||1
            """)
        XCTAssertEqual(
            try sqlite("SELECT orderId, lineNo, sku, qty FROM Line ORDER BY orderId, lineNo"),
            """
            65f1a2b3c4d5e6f708192a01|0|TEA|2
            65f1a2b3c4d5e6f708192a01|1|CUP|1
            65f1a2b3c4d5e6f708192a02|0|KETTLE|1
            65f1a2b3c4d5e6f708192a02|1|SPOON|4
            """)
        XCTAssertEqual(try sqlite("SELECT code, rate FROM Tax ORDER BY code"), "ECO|0.01\nVAT|0.2")
        write("orders.ndjson", orders(#"{"sku": "KETTLE", "qty": 2, "taxes": [{"code": "ECO", "rate": 0.01}]}"#))
        XCTAssertEqual(try runPipeline().status, 0)
        XCTAssertEqual(
            try sqlite("SELECT orderId, lineNo, sku, qty, version FROM Line ORDER BY orderId, lineNo"),
            """
            65f1a2b3c4d5e6f708192a01|0|TEA|2|1
            65f1a2b3c4d5e6f708192a01|1|CUP|1|1
            65f1a2b3c4d5e6f708192a02|0|KETTLE|2|2
            """)
        let line = try ImporterProcess.report(in: directory + "/job/reports/pipeline").objects("entities")
            .first { $0.string("entity") == "Line" }!.object("counts")
        XCTAssertEqual([line.int("updated"), line.int("deleted"), line.int("unchanged")], [1, 1, 2])
    }

    func testTheSampleOrdersInferAndLoadEveryRecord() throws {
        let sample = ImporterProcess.root.appendingPathComponent("SampleData/Orders/orders.json").path
        try FileManager.default.copyItem(atPath: sample, toPath: directory + "/dumps/orders.json")
        try infer(["orders.json"])
        XCTAssertEqual(try runPipeline().status, 0)
        XCTAssertEqual(
            try sqlite(
                "SELECT (SELECT count(*) FROM \"Order\"), (SELECT count(*) FROM Line), (SELECT count(*) FROM Adjustment)"
            ),
            "4|6|4")
        XCTAssertEqual(
            try sqlite("SELECT adjustmentId, orderId, lineNo, appliedAt FROM Adjustment ORDER BY adjustmentId LIMIT 1"),
            "65f1a2b3c4d5e6f708192a01|A-1001|0|2026-03-02T09:15:00.000Z")
    }

    func testSampleReadsTheFirstRecordsOnly() throws {
        write("big.csv", "id,n\n1,1\n2,2\n3,3.5\n")
        try infer(["big.csv"], ["--sample", "2"])
        let model = try ModelLoader.loadFile(directory + "/job/model.yaml")
        XCTAssertEqual(model.entities[0].attribute(named: "n")?.type, .int16)
        let result = try runPipeline()
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertEqual(
            try ImporterProcess.rejects(in: directory + "/job/reports/pipeline").map { $0.string("reason") }, ["type"])
    }

    func testTheModelGoesToStandardOutputWithoutOut() throws {
        write("a.csv", "id,name\n1,x\n")
        let result = try ImporterProcess.run(["model", "infer", directory + "/dumps/a.csv", "--name", "Shop"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("# Inferred by `importer model infer` from 1 file(s)"), result.stdout)
        XCTAssertNoThrow(try ModelLoader.parse(text: result.stdout, file: "stdout"))
        XCTAssertTrue(result.stdout.contains("model: Shop\n"), result.stdout)
    }

    func testUnreadableEmptyOrUnknownFilesExitWith2AndNameTheFile() throws {
        write("empty.csv", "")
        try! Data([0, 1, 2, 3]).write(to: URL(fileURLWithPath: directory + "/dumps/blob.dat"))
        let cases: [([String], String)] = [
            (["dumps/empty.csv"], "dumps/empty.csv: the file is empty"),
            (["dumps/missing.csv"], "dumps/missing.csv: cannot be read: cannot open: No such file or directory"),
            (["dumps/blob.dat"], "dumps/blob.dat: the format is unknown and the file is not text"),
            (["dumps/empty.csv", "--format", "xml"], "--format must be csv, tsv, ndjson or json, not 'xml'"),
            (["dumps/empty.csv", "--pipeline", "p.yaml"], "--pipeline needs --out"),
            (["dumps/empty.csv", "--name", "my model"], "--name 'my model' is not a valid name"),
        ]
        for (arguments, message) in cases {
            let result = try ImporterProcess.run(["model", "infer"] + arguments, in: directory)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }
}
