import ArgumentParser
import Foundation
import ImporterCore
import ImporterFormats

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a pipeline: read, map, validate, version and write every record, then report.",
        discussion: """
            Error limits (the pipeline's errors: section): maxErrors 1000 rejected records, \
            maxErrorRatio 0.05 of the records read once minRecords 1000 were read. Past a limit \
            before the end of the input the run aborts (exit 3; committed batches stay); past \
            one with its last record it finishes partial (exit 1).
            Exit codes: 0 every record stored, 1 finished with rejections, 2 usage or configuration \
            error, or the store in use by another run (nothing written), 3 stopped (an error limit, a \
            store failure, SIGINT/SIGTERM: status interrupted), 4 a DynamoDB export that does not \
            match its manifest (nothing written).
            """)

    @OptionGroup var pipeline: PipelineOptions

    @Flag(help: "Read, map and validate only; write nothing (same as `importer validate`).")
    var dryRun = false

    @Flag(help: "Continue an interrupted run after its last committed batch; refused if an input changed since.")
    var resume = false

    @Flag(
        help:
            "Read and compare every record even when the inputs, pipeline and model are those of the last run that stored every record of them and nothing has written to the store since (such a run otherwise reads nothing and reports them unchanged)."
    )
    var readUnchanged = false

    @Flag(
        help:
            "Accept a model file whose checksum differs from the one the SQLite store recorded for its version; recorded in the store's migration history."
    )
    var acceptModelChange = false

    @OptionGroup var selection: SelectionOptions

    @OptionGroup var output: OutputOptions

    @OptionGroup var access: StoreAccessOptions

    func run() throws {
        var options = RunOptions(dryRun: dryRun, resume: resume, acceptModelChange: acceptModelChange)
        (options.shard, options.entities) = (selection.shard, selection.entityList)
        options.readUnchanged = readUnchanged
        try execute(pipeline, options: options, output: output, access: access, command: dryRun ? "validate" : "run")
    }
}

/// What part of a pipeline a run loads: some entities, one shard of the inputs (docs/dynamodb.md).
struct SelectionOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Process the K-th of N slices of every source: every N-th file of a source with at least N files, else every N-th block of records of each file. Reports go to <report dir>/shard-K-of-N; merge them with `importer report merge`. DynamoDB only.",
            valueName: "K/N"),
        transform: { text in
            guard let shard = Shard(text) else {
                throw ValidationError("--shard expects K/N with 1 ≤ K ≤ N, got '\(text)'")
            }
            return shard
        })
    var shard: Shard?

    @Option(
        help: ArgumentHelp(
            "Load only these entities (comma-separated); references to others are checked against the store.",
            valueName: "E,…"))
    var entities: String?

    var entityList: [String]? {
        entities.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
    }
}

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Read, map and validate a pipeline's inputs against the model; write nothing to the store.")

    @OptionGroup var pipeline: PipelineOptions

    @OptionGroup var output: OutputOptions

    @OptionGroup var access: StoreAccessOptions

    func run() throws {
        try execute(pipeline, options: RunOptions(dryRun: true), output: output, access: access, command: "validate")
    }
}

/// Where reports go and how much is printed while a run goes.
struct OutputOptions: ParsableArguments {
    @Option(help: "Write the reports here instead of the pipeline's report.directory.")
    var reportDir: String?

    @Flag(help: "No progress output (the summary is still printed).")
    var quiet = false
}

/// Runs a pipeline and exits with the report's exit code.
private func execute(
    _ pipeline: PipelineOptions, options: RunOptions, output: OutputOptions, access: StoreAccessOptions,
    command: String
) throws {
    let (config, versions, model, makeReader) = try exitOnIntegrityError {
        try exitOnConfigurationError { () -> (PipelineConfig, VersionedModel, Model, PipelineRun.RecordReaderMaker) in
            var (config, versions, model) = try pipeline.loadVersions()
            try PipelineRun.checkConfiguration(config, model: model, versions: versions)
            try PipelineRun.checkSelection(options, config: config, model: model)
            let makeReader = try ObjectInputs.prepare(&config)
            for warning in try InputPreflight.check(config, entities: options.entities) {
                FileHandle.standardError.write(Data("importer: warning: \(warning)\n".utf8))
            }
            return (config, versions, model, makeReader)
        }
    }
    try runPipeline(
        config, model: model, versions: versions, options: options, output: output, access: access, command: command,
        makeReader: makeReader)
}

/// Opens the destination, runs the pipeline, prints the summary and exits with the report's
/// exit code (`run`, `validate` and `restore`). A SQLite store is locked for the whole run
/// (`command` names the run in the lock); SIGINT and SIGTERM stop it cleanly.
func runPipeline(
    _ config: PipelineConfig, model: Model, versions: VersionedModel, options: RunOptions, output: OutputOptions,
    access: StoreAccessOptions, command: String, makeReader: @escaping PipelineRun.RecordReaderMaker
) throws {
    var options = options
    options.progress = output.quiet ? nil : ProgressLine().handler
    options.reportDirectory = output.reportDir
    let interruption = RunInterruption()
    options.interruption = interruption
    let signals = InterruptSignals(interruption)
    defer { withExtendedLifetime(signals) {} }
    let reportDirectory = options.reportDirectory(pipelineDefault: config.reportDirectory)
    let request = StoreLockRequest(
        options.dryRun ? .shared : .exclusive, command: command, runId: options.runId, wait: access.wait)
    let lock = try exitOnConfigurationError {
        try DestinationOpener.lock(config, request, reportDirectory: reportDirectory)
    }
    defer { lock?.release() }
    let store = try exitOnConfigurationError {
        try ReportFiles.prepare(directory: reportDirectory)
        return try DestinationOpener.open(
            config, model: model, dryRun: options.dryRun, acceptModelChange: options.acceptModelChange,
            reportDirectory: reportDirectory)
    }
    defer { store?.close() }
    let metrics = config.reportMetrics == .prometheus ? PrometheusFile() : nil
    let run = PipelineRun(
        config: config, model: model, versions: versions, store: store, options: options, makeReader: makeReader)
    var report: RunReport
    var reportError: ReportNotWrittenError?
    do {
        report = try run.start()
    } catch let error as ConfigurationError {
        FileHandle.standardError.write(Data("importer: \(error)\n".utf8))
        throw ExitCode(2)
    } catch let error as ReportNotWrittenError {
        (report, reportError) = (error.report, error)
    } catch {
        FileHandle.standardError.write(Data("importer: the run stopped: \(error)\n".utf8))
        throw ExitCode(3)
    }
    var summary = SummaryTable.render(report)
    if reportError == nil, let metrics {
        do { try metrics.write(to: reportDirectory) } catch {
            reportError = ReportNotWrittenError(report: report, directory: reportDirectory, underlying: error)
        }
    }
    if let reportError {
        summary += "importer: \(reportError)\n"
    } else {
        summary += "reports: \(reportDirectory)\n"
    }
    FileHandle.standardError.write(Data(summary.utf8))
    if reportError != nil { throw ExitCode(3) }
    if report.exitCode != 0 { throw ExitCode(report.exitCode) }
}
