import ArgumentParser
import Foundation
import ImporterArchive
import ImporterCore

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export a consistent snapshot of a pipeline's store into a backup archive.",
        discussion: """
            The archive type follows the file name: .tar.gz/.tgz, .tar.zst, .tar.xz, .tar or .zip. \
            It holds manifest.json (counts, sizes and SHA-256 of every data file), model.yaml and \
            data/<Entity>.<ext>; `importer restore` checks all of it before writing anything.
            """)

    @OptionGroup var pipeline: PipelineOptions

    @Option(help: "The archive to write (replaced if it exists).")
    var out: String

    @Option(help: "Data file format: ndjson, csv or dynamodb-json.")
    var format: ExportFormat = .ndjson

    func run() throws {
        let started = Date()
        let (config, model, store, kind) = try exitOnConfigurationError { () -> (PipelineConfig, Model, Store, ArchiveKind) in
            guard let kind = ArchiveKind(fileName: out) else {
                throw ConfigurationError(file: out, "cannot tell the archive type from the name; end it with \(ArchiveKind.knownSuffixes)")
            }
            let (config, model) = try pipeline.load(requireInputs: false)
            return (config, model, try DestinationOpener.openForReading(config, model: model), kind)
        }
        defer { store.close() }
        let manifest: Manifest
        do {
            manifest = try Exporter(store: store, model: model, format: format, sourceType: config.destination.kind.rawValue)
                .export(to: out, kind: kind)
        } catch {
            FileHandle.standardError.write(Data("importer: the export stopped: \(error)\n".utf8))
            throw ExitCode(3)
        }
        var summary = ""
        for file in manifest.entities {
            summary += "\(file.entity): \(file.items) items, \(file.bytes) bytes (\(file.file))\n"
        }
        let size = ((try? FileManager.default.attributesOfItem(atPath: out))?[.size] as? NSNumber)?.int64Value ?? 0
        summary += String(format: "exported to %@ (%lld bytes) in %.2f s\n", out, size, Date().timeIntervalSince(started))
        FileHandle.standardError.write(Data(summary.utf8))
    }
}

extension ExportFormat: ExpressibleByArgument {}
