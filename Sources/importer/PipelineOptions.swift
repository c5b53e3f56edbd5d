import ArgumentParser
import Foundation
import ImporterCore
import ImporterFormats

/// The options every command that reads a pipeline file shares.
struct PipelineOptions: ParsableArguments {
    @Argument(help: "The pipeline file (YAML).")
    var pipeline: String

    @Option(
        name: .customLong("var"),
        help: ArgumentHelp(
            "Sets a ${VARIABLE} of the pipeline file (overrides the environment).", valueName: "KEY=VALUE"))
    var variables: [String] = []

    /// The pipeline file and the model version it uses. `requireInputs: false` for commands
    /// that do not read the pipeline's sources.
    func load(requireInputs: Bool = true) throws -> (PipelineConfig, Model) {
        let (config, _, model) = try loadVersions(requireInputs: requireInputs)
        return (config, model)
    }

    /// The pipeline file, every version of its model, and the version it uses.
    func loadVersions(requireInputs: Bool = true) throws -> (PipelineConfig, VersionedModel, Model) {
        var values: [String: String] = [:]
        for assignment in variables {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw ValidationError("--var expects KEY=VALUE, got '\(assignment)'")
            }
            values[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
        }
        var loader = PipelineLoader(variables: values)
        loader.requireInputs = requireInputs
        let config = try loader.load(path: pipeline)
        let versions = try ModelLoader.load(path: config.modelPath)
        printWarnings(versions)
        guard let pinned = config.modelVersion else { return (config, versions, versions.newest) }
        guard let model = versions.version(pinned) else {
            throw ConfigurationError(
                file: config.file, key: "modelVersion",
                "model version \(pinned) is not in \(config.modelPath); it has \(versions.versions.map { String($0.version) }.joined(separator: ", "))"
            )
        }
        return (config, versions, model)
    }
}

/// Prints a configuration error, or a store's refusal of the model, and exits with 2;
/// rethrows anything else.
func exitOnConfigurationError<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ConfigurationError {
        FileHandle.standardError.write(Data("importer: \(error)\n".utf8))
        throw ExitCode(2)
    } catch let error as StoreError where error.isRefusal {
        FileHandle.standardError.write(Data("importer: \(error.rendered)\n".utf8))
        throw ExitCode(2)
    }
}

/// Prints an integrity error (a DynamoDB export that does not match its manifest) and exits
/// with 4, nothing written; rethrows anything else.
func exitOnIntegrityError<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ExportIntegrityError {
        FileHandle.standardError.write(Data("importer: \(error)\n".utf8))
        throw ExitCode(4)
    }
}
