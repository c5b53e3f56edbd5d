import ArgumentParser
import Foundation
import ImporterCore

struct ModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Check a model's versions, show the migration between two of them, or convert a model.",
        subcommands: [Check.self, Diff.self, Convert.self, Infer.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract:
                "Check every version of a model (a YAML file, a directory of vN.yaml, an .xcdatamodeld) and every step between them.",
            discussion:
                "Exit 0 when every version loads and every step from one version to the next can be migrated; 2 otherwise, with what is refused."
        )

        @Argument(help: "A model file, a directory of model versions, or a Core Data .xcdatamodeld or .xcdatamodel.")
        var model: String

        func run() throws {
            let versions = try exitOnConfigurationError { try ModelLoader.load(path: model) }
            printWarnings(versions)
            let steps = versions.steps(from: versions.versions[0].version, to: versions.newest.version)
            let refusals = steps.flatMap(\.refusals)
            for version in versions.versions {
                print(
                    "\(version.name) version \(version.version): \(version.entities.count) entities, checksum \(version.checksum) (\(version.file))"
                )
            }
            guard refusals.isEmpty else {
                for refusal in refusals { FileHandle.standardError.write(Data("importer: \(refusal)\n".utf8)) }
                throw ExitCode(2)
            }
            if !steps.isEmpty {
                print(
                    "every step can be migrated: \(versions.versions.map { String($0.version) }.joined(separator: " → "))"
                )
            }
        }
    }

    struct Diff: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract: "Print the inferred migration from one model version file to another, and what is refused.",
            discussion:
                "Two files of one model directory are compared step by step through the versions between them. Exit 0 when the migration is possible, 2 when something is refused."
        )

        @Argument(help: "The older model version file.")
        var old: String

        @Argument(help: "The newer model version file.")
        var new: String

        func run() throws {
            let steps = try exitOnConfigurationError { () -> [MigrationStep] in
                let from = try ModelLoader.loadFile(old), to = try ModelLoader.loadFile(new)
                guard from.name == to.name else {
                    throw ConfigurationError(
                        file: new, key: "model", "model \(to.name) is not model \(from.name) of \(old)")
                }
                guard from.version < to.version else {
                    throw ConfigurationError(
                        file: new, key: "version",
                        "version \(to.version) is not newer than version \(from.version) of \(old)")
                }
                let directory = FilePaths.directory(of: old)
                guard directory == FilePaths.directory(of: new) else { return [MigrationStep(from: from, to: to)] }
                let versions = try ModelLoader.load(path: directory.isEmpty ? "." : directory)
                return versions.steps(from: from.version, to: to.version)
            }
            print(steps.map(\.description).joined(separator: "\n"), terminator: "")
            if steps.contains(where: { !$0.refusals.isEmpty }) { throw ExitCode(2) }
        }
    }
}
