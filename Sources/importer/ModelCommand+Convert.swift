import ArgumentParser
import Foundation
import ImporterCore

extension ModelCommand {
    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "convert",
            abstract: "Convert a model between YAML and Core Data's .xcdatamodeld.",
            discussion: """
                Every version is converted. YAML goes to one file when the model has one version, else to a \
                directory of vN.yaml files. An .xcdatamodeld is named after the model (--out Locations.xcdatamodeld, \
                or a directory to write it in). The written model is read back and must have the same checksum as \
                the original; exit 2 on a model error.
                """)

        enum Target: String, ExpressibleByArgument, CaseIterable {
            case yaml, xcdatamodeld
        }

        @Argument(help: "A model: a YAML file, a directory of versions, an .xcdatamodeld or an .xcdatamodel.")
        var model: String

        @Option(help: "What to write: yaml or xcdatamodeld.")
        var to: Target

        @Option(help: "Where to write it.")
        var out: String

        func run() throws {
            let versions = try exitOnConfigurationError { try ModelLoader.load(path: model) }
            printWarnings(versions)
            let written = try exitOnConfigurationError { () -> String in
                let path = try write(versions)
                let reread = try ModelLoader.load(path: path)
                for (original, copy) in zip(versions.versions, reread.versions) where original.checksum != copy.checksum
                {
                    throw ConfigurationError(
                        file: path,
                        "version \(original.version) reads back with checksum \(copy.checksum), not \(original.checksum); please report this"
                    )
                }
                return path
            }
            print(
                "wrote \(written): \(versions.newest.name), \(versions.versions.count) version(s), checksums unchanged")
        }

        /// Writes the model and returns the path to read it back from.
        private func write(_ versions: VersionedModel) throws -> String {
            switch to {
            case .xcdatamodeld:
                let folder =
                    out.hasSuffix(".xcdatamodeld") ? out : FilePaths.join(out, "\(versions.newest.name).xcdatamodeld")
                try CoreDataPackageWriter.write(versions, to: folder)
                return folder
            case .yaml where versions.versions.count == 1 && !isDirectory(out):
                try TextFile.write(ModelYAMLWriter.text(of: versions.newest), to: out)
                return out
            case .yaml:
                if out.hasSuffix(".yaml") || out.hasSuffix(".yml") {
                    throw ConfigurationError(
                        file: out,
                        "the model has \(versions.versions.count) versions; give a directory for their vN.yaml files")
                }
                try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
                for version in versions.versions {
                    try TextFile.write(
                        ModelYAMLWriter.text(of: version), to: FilePaths.join(out, "v\(version.version).yaml"))
                }
                return out
            }
        }

        private func isDirectory(_ path: String) -> Bool {
            var directory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
        }
    }
}

/// Prints what a model declares that the importer does not use (docs/coredata.md).
func printWarnings(_ versions: VersionedModel) {
    for warning in versions.warnings {
        FileHandle.standardError.write(Data("importer: warning: \(warning)\n".utf8))
    }
}
