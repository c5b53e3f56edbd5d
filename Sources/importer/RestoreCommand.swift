import ArgumentParser
import Foundation
import ImporterArchive
import ImporterCore

struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Verify a backup archive, then load it into a pipeline's store with every item's version kept.",
        discussion: """
            Every data file's size, SHA-256 and item count are checked against the archive's \
            manifest first; any difference, an unsafe path or a link is exit 4 with nothing written. \
            The data then goes through the pipeline's validation and write settings, with \
            versions: preserve. Into SQLite the restore is one transaction.
            """)

    @Argument(help: "The archive written by `importer export`: a file, or s3://BUCKET/KEY.")
    var archive: String

    @OptionGroup var pipeline: PipelineOptions

    @OptionGroup var output: OutputOptions

    @OptionGroup var access: StoreAccessOptions

    func run() throws {
        let (config, versions, model) = try exitOnConfigurationError { try pipeline.loadVersions(requireInputs: false) }
        let input = try exitOnConfigurationError { try ObjectInputs.archive(archive, config: config) }
        let verified: VerifiedArchive
        do {
            verified = try ArchiveVerifier.verify(input)
        } catch let error as IntegrityError {
            FileHandle.standardError.write(Data("importer: \(error)\n".utf8))
            throw ExitCode(4)
        }
        let plan = try exitOnConfigurationError {
            let plan = try RestorePlan(archive: verified, pipeline: config, model: model, versions: versions)
            try PipelineRun.checkConfiguration(plan.config, model: model, versions: versions)
            return plan
        }
        if !output.quiet {
            let items = verified.manifest.entities.map { "\($0.entity) \($0.items)" }.joined(separator: ", ")
            FileHandle.standardError.write(
                Data("verified \(archive): \(items) items, created \(verified.manifest.createdAt)\n".utf8))
        }
        try runPipeline(
            plan.config, model: model, versions: versions, options: RunOptions(checkpoints: false), output: output,
            access: access, command: "restore", makeReader: plan.makeReader)
    }
}
