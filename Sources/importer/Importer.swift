import ArgumentParser
import ImporterCore

@main
struct Importer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "importer",
        abstract: "Import, validate and inspect entity data: CSV/TSV/JSON/NDJSON dumps into a versioned store.",
        discussion: "Exit codes: 0 all records accounted for, none rejected; 1 finished with rejections; 2 usage, configuration or model error (nothing written); 3 aborted (error limits or a store failure; committed batches stay); 4 integrity error (an archive or a DynamoDB export that does not match its manifest; nothing written).",
        version: ToolVersion.current,
        subcommands: [RunCommand.self, ValidateCommand.self, ExportCommand.self, RestoreCommand.self, MigrateCommand.self,
                      InspectCommand.self, ModelCommand.self, ReportCommand.self])
}
