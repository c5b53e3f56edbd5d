import ArgumentParser
import Foundation
import ImporterCore
import Logging

@main
struct Importer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "importer",
        abstract: "Import, validate and inspect entity data: CSV/TSV/JSON/NDJSON dumps into a versioned store.",
        discussion:
            "Exit codes: 0 all records accounted for, none rejected; 1 finished with rejections; 2 usage, configuration or model error (nothing written); 3 stopped (an error limit, a signal, a store or network failure; committed batches stay); 4 integrity error (an archive or a DynamoDB export that does not match its manifest; nothing written).",
        version: ToolVersion.current,
        subcommands: [
            RunCommand.self, ValidateCommand.self, ExportCommand.self, RestoreCommand.self, MigrateCommand.self,
            InspectCommand.self, ModelCommand.self, ReportCommand.self,
        ])

    /// Parses and runs a command, and ends with a code of the one exit-code table
    /// (docs/reports.md#exit-codes): a usage error is 2 (not ArgumentParser's 64), an error no
    /// command turned into a code of its own is 3.
    static func main() {
        // The library logs its warnings and notices; they are shown as the command's own lines.
        LoggingSystem.bootstrap(StandardErrorLogHandler.init)
        MemoryReturn.configure()
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            try checkHelpTopic(arguments)
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch let error as ExitCode {
            exit(withError: error)
        } catch {
            switch exitCode(for: error) {
            case .success:
                exit(withError: error)  // --help, --version
            case .validationFailure:
                FileHandle.standardError.write(Data("\(fullMessage(for: error))\n".utf8))
                Foundation.exit(2)
            default:
                let message = (error as? StoreError)?.rendered ?? fullMessage(for: error)
                FileHandle.standardError.write(Data("importer: \(message)\n".utf8))
                Foundation.exit(3)
            }
        }
    }

    /// `importer help NAME…` names commands that exist (ArgumentParser shows the top help for
    /// any other name, exit 0).
    private static func checkHelpTopic(_ arguments: [String]) throws {
        guard arguments.first == "help" else { return }
        var subcommands = configuration.subcommands
        var path: [String] = []
        for name in arguments.dropFirst() where !name.hasPrefix("-") {
            guard let next = subcommands.first(where: { $0._commandName == name }) else {
                let names = subcommands.map { $0._commandName }.joined(separator: ", ")
                let within = path.isEmpty ? "" : " in \(path.joined(separator: " "))"
                throw ValidationError("no command '\(name)'\(within); one of: \(names)")
            }
            path.append(name)
            subcommands = next.configuration.subcommands
        }
    }
}
