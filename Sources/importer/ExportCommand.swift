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

    @Option(help: "Data file format: ndjson, csv or dynamodb-json.")
    var format: ExportFormat = .ndjson

    @OptionGroup var access: StoreAccessOptions

    func run() throws {
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

extension ExportFormat: ExpressibleByArgument {}
