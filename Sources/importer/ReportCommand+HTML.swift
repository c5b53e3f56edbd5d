import ArgumentParser
import Foundation
import ImporterCore
import ImporterSQLite

extension ReportCommand {
    /// `importer report html STORE-OR-PIPELINE --out page.html` (docs/reports.md#reporthtml).
    struct HTML: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "html",
            abstract: "Draw a store's last runs as one self-contained HTML page.",
            discussion: """
                Given a pipeline file: its SQLite store's last 30 runs, and the latest run's report from the \
                pipeline's report directory when there is one (the page that run wrote, redrawn with today's \
                history). Given a SQLite store file: its last 30 runs. Exit 2 when the store does not exist or is \
                not a store, or the pipeline's destination is DynamoDB (which keeps no history of runs).
                """)

        @Argument(help: "A pipeline file (.yaml, .yml) or a SQLite store file.")
        var source: String

        @Option(help: "Write the page here.")
        var out: String

        @Option(
            name: .customLong("var"),
            help: ArgumentHelp("Sets a ${VARIABLE} of the pipeline file.", valueName: "KEY=VALUE"))
        var variables: [String] = []

        func run() throws {
            let page = try exitOnConfigurationError { () -> ReportPage in
                let isPipeline = source.hasSuffix(".yaml") || source.hasSuffix(".yml")
                guard isPipeline else { return try makePage(store: source, report: nil) }
                let options = try PipelineOptions.parse([source] + variables.flatMap { ["--var", $0] })
                let (config, _) = try options.load(requireInputs: false)
                guard config.destination.kind == .sqlite, let path = config.destination.path else {
                    throw ConfigurationError(
                        file: source,
                        "its destination is DynamoDB, which keeps no history of runs; the page of each run is its report directory's report.html"
                    )
                }
                return try makePage(
                    store: path, report: latestReport(in: config.reportDirectory), reports: config.reportDirectory)
            }
            try exitOnConfigurationError { try TextFile.write(page.html, to: out) }
            FileHandle.standardError.write(Data("importer: wrote \(out)\n".utf8))
        }

        private func makePage(store path: String, report: RunReport?, reports: String? = nil) throws -> ReportPage {
            let store = try SQLiteStore(existingPath: path)
            defer { store.close() }
            let history: [RunSummary]
            do { history = try store.recentRuns(limit: ReportPage.historyRuns) } catch {
                throw ConfigurationError(
                    file: path, "cannot read the store's runs (\(error)); is it an importer store?")
            }
            return ReportPage(
                report: report, history: history, subject: path,
                rejectsFile: reports.map { FilePaths.join($0, "rejects.ndjson") })
        }

        /// The report.json in `directory`, if one can be read.
        private func latestReport(in directory: String) -> RunReport? {
            guard let data = FileManager.default.contents(atPath: FilePaths.join(directory, "report.json")) else {
                return nil
            }
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try? decoder.decode(RunReport.self, from: data)
        }
    }
}
