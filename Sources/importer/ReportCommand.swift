import ArgumentParser
import Foundation
import ImporterCore

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Work with run reports.",
        subcommands: [Merge.self, HTML.self])

    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge",
            abstract:
                "Sum the reports of a sharded run (`run --shard K/N`) into one report.json, junit.xml and rejects.ndjson.",
            discussion: """
                Each DIR is a shard's report folder (<report dir>/shard-K-of-N) or its report.json. \
                Counts per entity and per input are added up, rejection groups joined, and the \
                worst status kept. Exits with the merged run's exit code (0, 1 or 3), so a CI stage \
                after the shards passes or fails as one unsharded run would; 2 if a report cannot \
                be read, is given twice, or the reports are not all the shards of one run (one \
                pipeline, with the same variables, cut into the same N), or a sum passes the \
                largest count.
                """)

        @Argument(help: "The shards' report folders (or report.json files).")
        var reports: [String]

        @Option(help: "The folder to write the merged report.json, junit.xml and rejects.ndjson into.")
        var out: String

        func run() throws {
            let folders = reports.map { $0.hasSuffix(".json") ? FilePaths.directory(of: $0) : $0 }
            let files = folders.map { FilePaths.join($0, "report.json") }
            let merged = try exitOnConfigurationError { () -> RunReport in
                let decoder = JSONDecoder()
                decoder.dateDecodingStrategy = .iso8601
                let shards = try files.map { file in
                    guard let data = FileManager.default.contents(atPath: file) else {
                        throw ConfigurationError(
                            file: file,
                            "cannot read the report; give the folder of a shard's report (<report dir>/shard-K-of-N)")
                    }
                    do { return try decoder.decode(RunReport.self, from: data) } catch {
                        throw ConfigurationError(file: file, "not a report of importer run: \(error)")
                    }
                }
                return try ReportMerge.merge(shards, files: files)
            }
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            try ReportFiles.write(merged, to: out)
            try joinRejects(of: folders)
            FileHandle.standardError.write(
                Data((SummaryTable.render(merged) + "merged \(folders.count) reports into \(out)\n").utf8))
            if merged.exitCode != 0 { throw ExitCode(merged.exitCode) }
        }

        /// The shards' rejects.ndjson, one after the other.
        private func joinRejects(of folders: [String]) throws {
            var joined = Data()
            for folder in folders {
                if let rejects = FileManager.default.contents(atPath: FilePaths.join(folder, "rejects.ndjson")) {
                    joined.append(rejects)
                }
            }
            try OutputFile.write(joined, to: FilePaths.join(out, "rejects.ndjson"))
        }
    }
}
