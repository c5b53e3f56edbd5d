import Foundation
import ImporterCore
import TestSupport
import XCTest

/// report.html rendered in a real browser (headless Chromium): the figures of the DOM it builds
/// are report.json's, and a screenshot of it is not blank (docs/reports.md#reporthtml).
final class ReportPageTests: XCTestCase {
    var directory = ""

    override func setUp() { directory = ImporterProcess.temporaryDirectory() }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    /// `data-figure="NAME"` → the element's text, from the browser's DOM.
    private func figures(in dom: String) -> [String: String] {
        let pattern = try! NSRegularExpression(pattern: #"data-figure="([^"]*)"[^>]*>([^<]*)<"#)
        var figures: [String: String] = [:]
        for match in pattern.matches(in: dom, range: NSRange(dom.startIndex..., in: dom)) {
            let name = String(dom[Range(match.range(at: 1), in: dom)!])
            figures[name] = String(dom[Range(match.range(at: 2), in: dom)!]).trimmingCharacters(in: .whitespaces)
        }
        return figures
    }

    private func number(_ text: String?) -> Int? { text.flatMap { Int($0.replacingOccurrences(of: ",", with: "")) } }

    private func run(_ pipeline: String) throws -> (report: [String: Any], page: String) {
        let result = try ImporterProcess.run(["run", pipeline], environment: ["OUT_DIR": directory])
        XCTAssertNotEqual(result.status, 2, result.stderr)
        let name = FilePaths.deletingExtension(FilePaths.lastComponent(pipeline))
        let reports = directory + "/reports/" + name
        return (try ImporterProcess.report(in: reports), reports + "/report.html")
    }

    /// Every entity's counts and the totals, status and exit code: the DOM's are report.json's.
    private func assertFiguresMatch(_ report: [String: Any], _ figures: [String: String]) {
        XCTAssertEqual(figures["status"]?.hasSuffix(report.string("status")!), true, "\(figures["status"] ?? "")")
        XCTAssertEqual(number(figures["exitCode"]), report.int("exitCode"))
        let columns = ["read", "inserted", "updated", "unchanged", "rejected", "deleted", "conflicts", "retries"]
        for entity in report.objects("entities") {
            for column in columns {
                XCTAssertEqual(
                    number(figures["\(entity.string("entity")!).\(column)"]), entity.object("counts").int(column),
                    "\(entity.string("entity")!).\(column)")
            }
        }
        for column in columns {
            XCTAssertEqual(number(figures["total.\(column)"]), report.object("totals").int(column), "total.\(column)")
        }
    }

    func testTheSampleRunsPageShowsItsReportsFiguresAndIsNotBlank() throws {
        let (report, page) = try run("Pipelines/locations.yaml")
        XCTAssertEqual(report.string("status"), "succeeded")
        let dom = try HeadlessChromium.dom(of: page)
        let found = figures(in: dom)
        XCTAssertEqual(found.keys.filter { $0.hasPrefix("total.") }.count, 8, dom)
        assertFiguresMatch(report, found)
        XCTAssertTrue(dom.contains("No record was rejected."))
        XCTAssertFalse(dom.contains("<script"), "a page readable without JavaScript has none")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertNil(html.range(of: #"(src|href)="https?:"#, options: .regularExpression), "nothing from the network")

        // The screenshot holds the page: far more than a blank page's, which compresses to little.
        let shot = directory + "/page.png", blank = directory + "/blank.png"
        let empty = directory + "/empty.html"
        try "<!DOCTYPE html><html><body></body></html>".write(toFile: empty, atomically: false, encoding: .utf8)
        try HeadlessChromium.screenshot(of: page, to: shot)
        try HeadlessChromium.screenshot(of: empty, to: blank)
        let shotSize = try FileManager.default.attributesOfItem(atPath: shot)[.size] as! Int
        let blankSize = try FileManager.default.attributesOfItem(atPath: blank)[.size] as! Int
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: shot)).prefix(4)), [0x89, 0x50, 0x4E, 0x47])
        XCTAssertGreaterThan(
            shotSize, blankSize * 5, "the screenshot is \(shotSize) bytes, a blank page's \(blankSize)")
        // Printed, each section starts a page of its own and fits on it.
        let sections = html.components(separatedBy: "<section id=").count - 1
        XCTAssertEqual(sections, 5)
        XCTAssertEqual(try HeadlessChromium.printedPages(of: page, to: directory + "/page.pdf"), sections)
    }

    func testARunWithRejectionsShowsThemByReasonAndFieldAndTheStoresHistory() throws {
        _ = try run("Pipelines/orders.yaml")
        _ = try ImporterProcess.run(
            ["run", "Pipelines/orders.yaml", "--read-unchanged"], environment: ["OUT_DIR": directory])
        let (report, page) = try run("Pipelines/orders.yaml")
        XCTAssertEqual(report.string("status"), "partial")
        let found = figures(in: try HeadlessChromium.dom(of: page))
        assertFiguresMatch(report, found)
        var byReason: [String: Int] = [:]
        for group in report.objects("errors") {
            byReason[group.string("reason")!, default: 0] += group.int("count")
            let field = group.string("field") ?? "—"
            XCTAssertEqual(
                number(found["group.\(group.string("entity")!).\(field).\(group.string("reason")!)"]),
                group.int("count"))
        }
        XCTAssertFalse(byReason.isEmpty)
        for (reason, count) in byReason { XCTAssertEqual(number(found["reason.\(reason)"]), count, reason) }
        // Three runs of the store: three rows, this run marked.
        let html = try String(contentsOfFile: page, encoding: .utf8)
        // The first example's raw text, as rejects.ndjson has it.
        let raw = try XCTUnwrap(ImporterProcess.rejects(in: directory + "/reports/orders").first?.string("raw"))
        let escaped = String(raw.prefix(60)).replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "\n", with: "&#10;")
        XCTAssertTrue(html.contains("<span class=\"raw\">" + escaped), "no raw text \(escaped) in the page")
        XCTAssertEqual(html.components(separatedBy: "data-run=").count - 1, 3)
        XCTAssertTrue(html.contains(">this run<"))
        XCTAssertTrue(html.contains("\"timeline\"") || html.contains("id=\"timeline\""))
        XCTAssertNotNil(report["timeline"], "report.json has the timeline the page draws")
    }

    func testReportHTMLDrawsAStoresHistoryAndRefusesWhatIsNoStore() throws {
        _ = try run("Pipelines/orders.yaml")
        let out = directory + "/history.html"
        let drawn = try ImporterProcess.run(
            ["report", "html", directory + "/orders.sqlite", "--out", out], environment: ["OUT_DIR": directory])
        XCTAssertEqual(drawn.status, 0, drawn.stderr)
        let dom = try HeadlessChromium.dom(of: out)
        XCTAssertEqual(dom.components(separatedBy: "data-run=").count - 1, 1)
        XCTAssertTrue(dom.contains("The store's last runs"))

        let missing = try ImporterProcess.run(["report", "html", directory + "/none.sqlite", "--out", out])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("none.sqlite: the store does not exist yet"), missing.stderr)
    }

    /// A run of a million records with 50,000 rejections in 40 groups, a long timeline and 30
    /// runs of history: the page stays under 300 KB, and renders in under a second more than a
    /// blank page does.
    func testTheLargestPagesStaySmallAndQuick() throws {
        let (json, _) = try run("Pipelines/orders.yaml")
        var report = json
        report["totals"] = (report["totals"] as! [String: Any]).merging(["read": 1_000_000, "rejected": 50_000]) { $1 }
        let example: [String: Any] = [
            "source": "dumps/orders-2026-11-25.ndjson", "line": 123_456,
            "message": String(repeating: "a long message naming the field, the value and what to do; ", count: 4),
        ]
        report["errors"] = (0..<40).map { group -> [String: Any] in
            [
                "entity": "Line", "stage": "validate", "reason": ["type", "range", "required", "pattern"][group % 4],
                "field": "field\(group)", "count": 1250, "examples": Array(repeating: example, count: 10),
            ]
        }
        report["timeline"] = [
            "intervalSeconds": 2, "read": (0..<600).map { 20_000 + $0 }, "written": (0..<600).map { 19_000 + $0 },
            "rejected": (0..<600).map { $0 % 90 }, "retries": (0..<600).map { $0 % 7 },
        ]
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let decoded = try decoder.decode(RunReport.self, from: try JSONSerialization.data(withJSONObject: report))
        let history = (0..<30).map { index in
            RunSummary(
                runId: index == 0 ? decoded.runId : UUID().uuidString, pipeline: "Pipelines/orders.yaml",
                started: Date(timeIntervalSince1970: 1_790_000_000 - Double(index) * 86_400),
                finished: Date(timeIntervalSince1970: 1_790_000_100 - Double(index) * 86_400), status: .partial,
                modelVersion: 1, read: 1_000_000, inserted: 900_000, updated: 50_000, unchanged: 0, rejected: 50_000,
                rolledBack: 0)
        }
        let html = ReportPage(report: decoded, history: history).html
        XCTAssertLessThan(html.utf8.count, 300_000, "\(html.utf8.count) bytes")
        print("report.html of a million records, 50,000 rejected: \(html.utf8.count) bytes")
        let page = directory + "/large.html", empty = directory + "/empty.html"
        try html.write(toFile: page, atomically: false, encoding: .utf8)
        try "<!DOCTYPE html><html><body></body></html>".write(toFile: empty, atomically: false, encoding: .utf8)
        let blank = try HeadlessChromium.timedDOM(of: empty).seconds
        let (dom, large) = try HeadlessChromium.timedDOM(of: page)
        XCTAssertLessThan(large - blank, 1, "the page took \(large) s, a blank page \(blank) s")
        let found = figures(in: dom)
        XCTAssertEqual(found["total.read"], "1,000,000")
        XCTAssertEqual(found["reason.type"], "12,500")
    }
}
