import Foundation

/// Writes `report.json`, `junit.xml` and `report.html` into the report directory, each whole
/// or not at all (docs/reports.md#report-files).
package enum ReportFiles {
    /// The files a finished run leaves, which a new run removes before it writes anything.
    static let names = ["report.json", "junit.xml", "report.html", "metrics.prom"]

    /// `history`: the store's latest runs, newest first, for the page's charts (nil: the store
    /// keeps none).
    package static func write(_ report: RunReport, to directory: String, history: [RunSummary]? = nil) throws {
        try OutputFile.write(encoder().encode(report), to: FilePaths.join(directory, "report.json"))
        try OutputFile.write(Data(junit(report).utf8), to: FilePaths.join(directory, "junit.xml"))
        let page = ReportPage(
            report: report, history: history, rejectsFile: FilePaths.join(directory, "rejects.ndjson"))
        try OutputFile.write(Data(page.html.utf8), to: FilePaths.join(directory, "report.html"))
    }

    /// Makes `directory` ready for a run's reports before the run writes anything: creates it,
    /// checks that files can be created in it, and removes the last run's report.json and
    /// junit.xml, so that a run that does not finish leaves no earlier green result to be read
    /// as its own. Throws `ConfigurationError` (exit 2) when the folder cannot take reports.
    package static func prepare(directory: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder), !isFolder.boolValue {
            throw ConfigurationError(
                file: directory, "the report directory is a file; name a folder with --report-dir or report.directory")
        }
        if let failed = makeFolder(directory) {
            throw ConfigurationError(
                file: directory,
                "cannot write reports here (cannot create \(failed.path): \(String(cString: strerror(failed.code)))); name another with --report-dir"
            )
        }
        do {
            let probe = OutputFile.temporaryPath(for: FilePaths.join(directory, "report.json"))
            close(try OutputFile.create(probe))
            unlink(probe)
        } catch {
            throw ConfigurationError(
                file: directory,
                "cannot write reports here (\(error)); make the folder writable or name another with --report-dir")
        }
        for name in names {
            let path = FilePaths.join(directory, name)
            guard unlink(path) == 0 || errno == ENOENT else {
                throw ConfigurationError(
                    file: path, "cannot remove the last run's report: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Creates `path` and the folders above it that are missing; the folder that could not be
    /// made and `errno`, if one could not.
    private static func makeFolder(_ path: String) -> (path: String, code: Int32)? {
        var isFolder: ObjCBool = false
        if path.isEmpty || FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            return path.isEmpty || isFolder.boolValue ? nil : (path, ENOTDIR)
        }
        let parent = FilePaths.directory(of: path)
        if parent != path, let failed = makeFolder(parent) { return failed }
        return mkdir(path, 0o755) == 0 || errno == EEXIST ? nil : (path, errno)
    }

    /// Report JSON: indented, keys sorted, dates ISO-8601.
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    /// One testsuite per entity; one failing testcase per rejection reason, for Jenkins' `junit`.
    static func junit(_ report: RunReport) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let failures =
            report.errors.count + report.entities.filter { !$0.counts.isBalanced || report.status.stoppedEarly }.count
        xml +=
            "<testsuites name=\(attribute("importer \(report.pipeline)")) tests=\"\(report.entities.count + report.errors.count)\" failures=\"\(failures)\" time=\"\(String(format: "%.3f", report.seconds))\">\n"
        for entity in report.entities {
            let groups = report.errors.filter { $0.entity == entity.entity }
            xml +=
                "  <testsuite name=\(attribute(entity.entity)) tests=\"\(groups.count + 1)\" failures=\"\(groups.count)\" time=\"\(String(format: "%.3f", entity.seconds))\">\n"
            let c = entity.counts
            xml += "    <testcase classname=\(attribute("importer.\(entity.entity)")) name=\"records accounted\">\n"
            xml +=
                "      <system-out>\(XMLText.escaped("read \(c.read), inserted \(c.inserted), updated \(c.updated), unchanged \(c.unchanged), rejected \(c.rejected), rolledBack \(c.rolledBack), notWritten \(c.notWritten), unknown \(c.unknown)"))</system-out>\n"
            if !c.isBalanced || report.status.stoppedEarly {
                xml +=
                    "      <failure message=\(attribute(report.abortReason ?? "records are not all accounted for"))/>\n"
            }
            xml += "    </testcase>\n"
            for group in groups {
                let name = "\(group.stage.rawValue)/\(group.reason.rawValue)"
                let lines = group.examples.map { "\($0.source):\($0.line): \($0.message)" }
                xml += "    <testcase classname=\(attribute("importer.\(entity.entity)")) name=\(attribute(name))>\n"
                xml +=
                    "      <failure message=\(attribute("\(group.count) record(s) rejected: \(name)"))>\(XMLText.escaped(lines.joined(separator: "\n")))</failure>\n"
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    private static func attribute(_ text: String) -> String { "\"\(XMLText.escaped(text))\"" }
}

/// A run ended (its report says how) but its report files could not be written.
package struct ReportNotWrittenError: Error, CustomStringConvertible, Sendable {
    /// The run's report, as it would have been written.
    package let report: RunReport
    package let directory: String
    package let underlying: any Error

    package init(report: RunReport, directory: String, underlying: any Error) {
        self.report = report
        self.directory = directory
        self.underlying = underlying
    }

    package var description: String { "the run's reports could not be written to \(directory): \(underlying)" }
}
