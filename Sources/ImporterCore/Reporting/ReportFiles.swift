import Foundation

/// Writes `report.json` and `junit.xml` into the report directory.
public enum ReportFiles {
    public static func write(_ report: RunReport, to directory: String) throws {
        try encoder().encode(report).write(to: URL(fileURLWithPath: directory).appendingPathComponent("report.json"))
        try Data(junit(report).utf8).write(to: URL(fileURLWithPath: directory).appendingPathComponent("junit.xml"))
    }

    /// Report JSON: indented, keys sorted, dates ISO-8601.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// One testsuite per entity; one failing testcase per rejection reason, for Jenkins' `junit`.
    static func junit(_ report: RunReport) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let failures = report.errors.count + report.entities.filter { !$0.counts.isBalanced || report.status == .aborted }.count
        xml += "<testsuites name=\(attribute("importer \(report.pipeline)")) tests=\"\(report.entities.count + report.errors.count)\" failures=\"\(failures)\" time=\"\(String(format: "%.3f", report.seconds))\">\n"
        for entity in report.entities {
            let groups = report.errors.filter { $0.entity == entity.entity }
            xml += "  <testsuite name=\(attribute(entity.entity)) tests=\"\(groups.count + 1)\" failures=\"\(groups.count)\" time=\"\(String(format: "%.3f", entity.seconds))\">\n"
            let c = entity.counts
            xml += "    <testcase classname=\(attribute("importer.\(entity.entity)")) name=\"records accounted\">\n"
            xml += "      <system-out>\(XMLText.escaped("read \(c.read), inserted \(c.inserted), updated \(c.updated), unchanged \(c.unchanged), rejected \(c.rejected), rolledBack \(c.rolledBack)"))</system-out>\n"
            if !c.isBalanced || report.status == .aborted {
                xml += "      <failure message=\(attribute(report.abortReason ?? "records are not all accounted for"))/>\n"
            }
            xml += "    </testcase>\n"
            for group in groups {
                let name = "\(group.stage.rawValue)/\(group.reason.rawValue)"
                let lines = group.examples.map { "\($0.source):\($0.line): \($0.message)" }
                xml += "    <testcase classname=\(attribute("importer.\(entity.entity)")) name=\(attribute(name))>\n"
                xml += "      <failure message=\(attribute("\(group.count) record(s) rejected: \(name)"))>\(XMLText.escaped(lines.joined(separator: "\n")))</failure>\n"
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    private static func attribute(_ text: String) -> String { "\"\(XMLText.escaped(text))\"" }
}
