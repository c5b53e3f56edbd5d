import ArgumentParser
import Foundation
import ImporterCore
import ImporterFormats

extension ModelCommand {
    /// `importer model infer FILE…`: a model and a starter pipeline from data files (docs/infer.md).
    struct Infer: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "infer",
            abstract: "Infer a model (one entity per file) and a starter pipeline from CSV, TSV, JSON or NDJSON files.",
            discussion: """
                Each file is read once, streaming (--sample N: its first N records only). Found: the CSV \
                delimiter, header and null markers (NA, NULL, \\N, empty); each column's narrowest type (int16/32/64, \
                double, date with its format, boolean, uuid, string; a leading zero keeps a number a string); \
                required where no null was seen; a key (a unique never-null column, else such a pair as hash and \
                range key, else a rowKey the pipeline computes); relationships where a column's values are mostly \
                another file's keys. JSON documents: an entity per array of objects (keyed by its own id, else by its \
                parent's key and position), nested objects read through map.fields, and the pipeline's children: tree. \
                The comments of the model say how each was found. Exit 2 when a file cannot be read, is empty, or its \
                format is unknown.
                """)

        @Argument(help: "The data files, one entity each (.csv, .tsv, .ndjson, .jsonl, .json, also .gz).")
        var files: [String]

        @Option(
            help: ArgumentHelp(
                "The format of every file: csv, tsv, ndjson or json (default: from the file name, else sniffed).",
                valueName: "F"))
        var format: String?

        @Option(help: ArgumentHelp("Write the model here (default: standard output).", valueName: "model.yaml"))
        var out: String?

        @Option(
            help: ArgumentHelp(
                "Also write a starter pipeline here; its model and source paths are relative to it. Needs --out.",
                valueName: "pipeline.yaml"))
        var pipeline: String?

        @Option(help: ArgumentHelp("Read only the first N records of each file.", valueName: "N"))
        var sample: Int?

        @Option(
            help: ArgumentHelp(
                "The model's name (default: the first file's directory name, else Inferred).", valueName: "NAME"))
        var name: String?

        @Flag(
            help:
                "Leave an entity with no key column or pair without a key (for you to name) instead of computing a rowKey from its fields."
        )
        var noKey = false

        /// Option errors, reported as configuration errors are (exit 2).
        private func checkOptions() throws {
            var problem: String?
            if let sample, sample < 1 { problem = "--sample must be 1 or more" }
            if pipeline != nil && out == nil { problem = "--pipeline needs --out: the pipeline names the model file" }
            if let format,
                InputFormat(rawValue: format) == nil
                    || [.dynamodbJSON, .dynamodbExport].contains(InputFormat(rawValue: format))
            {
                problem = "--format must be csv, tsv, ndjson or json, not '\(format)'"
            }
            if let name, !ModelInference.isValidName(name) {
                problem =
                    "--name '\(name)' is not a valid name; use letters, digits and _ and do not start with a digit"
            }
            guard let problem else { return }
            FileHandle.standardError.write(Data("importer: \(problem)\n".utf8))
            throw ExitCode(2)
        }

        func run() throws {
            try checkOptions()
            let inferred = try exitOnConfigurationError { () -> InferredModel in
                let profiles = try files.map {
                    try FileScanner.profile(
                        path: $0, format: format.flatMap(InputFormat.init(rawValue:)), sample: sample)
                }
                return try ModelInference.infer(profiles, modelName: modelName, computesKeys: !noKey)
            }
            let model = inferred.modelYAML
            // A model left without a key (--no-key) loads once the user names one.
            if !inferred.lacksKeys {
                _ = try exitOnConfigurationError { try ModelLoader.parse(text: model, file: out ?? "<inferred model>") }
            }
            guard let out else { return print(model, terminator: "") }
            try exitOnConfigurationError { try TextFile.write(model, to: out) }
            if let pipeline {
                let directory = RelativePaths.directory(of: pipeline)
                let text = inferred.pipelineYAML(
                    modelPath: RelativePaths.relative(out, from: directory),
                    sourcePaths: files.map { RelativePaths.relative($0, from: directory) },
                    name: FilePaths.deletingExtension(FilePaths.lastComponent(pipeline)))
                try exitOnConfigurationError { try TextFile.write(text, to: pipeline) }
                _ = try exitOnConfigurationError { try PipelineLoader().load(path: pipeline) }
            }
            for line in inferred.summary { FileHandle.standardError.write(Data("importer: \(line)\n".utf8)) }
        }

        /// The model's name: `--name`, else the first file's directory as a name.
        private var modelName: String {
            if let name { return name }
            let directory = FilePaths.lastComponent(RelativePaths.absolute(FilePaths.directory(of: files[0])))
            return ModelInference.modelName(fromDirectory: directory) ?? "Inferred"
        }
    }
}
