import ArgumentParser
import Foundation
import ImporterArchive
import ImporterCore
import ImporterSQLite

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a consistent snapshot of a pipeline's store into a backup archive.",
        discussion: """
            The archive type follows the file name: .tar.gz/.tgz, .tar.zst, .tar.xz, .tar or .zip. \
            It holds manifest.json (counts, sizes and SHA-256 of every data file), model.yaml and \
            data/<Entity>.<ext>; `importer restore` checks all of it before writing anything. \
            With --out s3://BUCKET/KEY (.tar, .tar.gz or .tar.zst) the archive is uploaded in \
            parts as it is written, with no local copy; a failed export aborts the upload.
            """)

    @OptionGroup var pipeline: PipelineOptions

    @Option(help: "The archive to write (replaced if it exists): a path, or s3://BUCKET/KEY.")
    var out: String

    @Option(
        help:
            "Data file format: ndjson, csv or dynamodb-json (archives; default ndjson); json or ndjson with --documents (default: from --out's name)."
    )
    var format: String?

    @Option(
        help: ArgumentHelp(
            "Write the documents of this root entity, children nested, as a .json or .ndjson file instead of an archive.",
            valueName: "ENTITY"))
    var documents: String?

    @OptionGroup var access: StoreAccessOptions

    func run() throws {
        if let documents { return try exportDocuments(of: documents) }
        let format = try exitOnConfigurationError { () -> ExportFormat in
            guard let format = ExportFormat(rawValue: self.format ?? "ndjson") else {
                throw ConfigurationError(
                    file: out,
                    "--format \(self.format!): an archive's data files are ndjson, csv or dynamodb-json (json is for --documents)"
                )
            }
            return format
        }
        let started = Date()
        let (config, model, lock, store, destination, kind) = try exitOnConfigurationError {
            () -> (PipelineConfig, Model, StoreLock?, Store, ArchiveDestination, ArchiveKind) in
            guard let kind = ArchiveKind(fileName: out) else {
                throw ConfigurationError(
                    file: out, "cannot tell the archive type from the name; end it with \(ArchiveKind.knownSuffixes)")
            }
            let (config, model) = try pipeline.load(requireInputs: false)
            let destination = try ObjectOutputs.destination(out, kind: kind, config: config)
            let lock = try DestinationOpener.lock(
                config, StoreLockRequest(.shared, command: "export", wait: access.wait),
                reportDirectory: config.reportDirectory)
            return (config, model, lock, try DestinationOpener.openForReading(config, model: model), destination, kind)
        }
        defer {
            store.close()
            lock?.release()
        }
        let manifest: Manifest
        do {
            manifest = try Exporter(
                store: store, model: model, format: format, sourceType: config.destination.kind.rawValue
            )
            .export(to: destination, kind: kind)
        } catch {
            var message = "importer: the export stopped: \(error)\n"
            if let left = ObjectOutputs.abortFailure(of: destination) { message += "importer: \(left)\n" }
            FileHandle.standardError.write(Data(message.utf8))
            throw ExitCode(3)
        }
        var summary = ""
        for file in manifest.entities {
            summary += "\(file.entity): \(file.items) items, \(file.bytes) bytes (\(file.file))\n"
        }
        let size = ObjectOutputs.size(of: destination)
        summary += String(
            format: "exported to %@ (%lld bytes) in %.2f s\n", out, size, Date().timeIntervalSince(started))
        FileHandle.standardError.write(Data(summary.utf8))
    }
}

extension ExportCommand {
    /// `--documents ROOT`: the store's items as the documents a source read (docs/documents.md#export).
    private func exportDocuments(of root: String) throws {
        let started = Date()
        let (config, model, lock, store, layout) = try exitOnConfigurationError {
            () -> (PipelineConfig, Model, StoreLock?, Store, DocumentExporter.Layout) in
            let name = out.lowercased()
            let layout: DocumentExporter.Layout
            switch format ?? (name.hasSuffix(".json") ? "json" : "ndjson") {
            case "json": layout = .json
            case "ndjson": layout = .ndjson
            case let other:
                throw ConfigurationError(file: out, "--format \(other): documents are written as json or ndjson")
            }
            guard !out.hasPrefix("s3://") else {
                throw ConfigurationError(file: out, "--documents writes a local file; name a path")
            }
            let (config, model) = try pipeline.load(requireInputs: false)
            let lock = try DestinationOpener.lock(
                config, StoreLockRequest(.shared, command: "export", wait: access.wait),
                reportDirectory: config.reportDirectory)
            return (config, model, lock, try DestinationOpener.openForReading(config, model: model), layout)
        }
        defer {
            store.close()
            lock?.release()
        }
        let exporter = try exitOnConfigurationError {
            try DocumentExporter(store: store, model: model, config: config, root: root)
        }
        do {
            let count = try exporter.export(to: out, layout: layout)
            let seconds = String(format: "%.2f", Date().timeIntervalSince(started))
            FileHandle.standardError.write(
                Data("\(root): \(count) documents exported to \(out) in \(seconds) s\n".utf8))
        } catch {
            FileHandle.standardError.write(Data("importer: the export stopped: \(error)\n".utf8))
            throw ExitCode(3)
        }
    }
}
