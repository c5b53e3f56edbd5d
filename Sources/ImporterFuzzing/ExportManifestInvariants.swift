import ImporterCore
import ImporterFormats

/// The `dynamodb-export-manifest` target: an input is manifest-summary.json (its first line) and
/// manifest-files.json (the rest). Reading them gives a manifest or an integrity or configuration
/// error; a manifest that reads names only files inside the export folder, once each, with
/// counts that add up to the summary's.
enum ExportManifestInvariants {
    static func check(_ bytes: [UInt8]) throws {
        let newline = bytes.firstIndex(of: 10) ?? bytes.endIndex
        let manifest: ExportManifest
        do {
            manifest = try ExportManifest(
                summary: Array(bytes[..<newline]), files: Array(bytes[newline...]), export: "/fuzz/AWSDynamoDB/e")
        } catch is ExportIntegrityError {
            return
        } catch is ConfigurationError {
            return
        }
        let paths = manifest.files.map(\.relativePath)
        for path in paths
        where path.hasPrefix("/")
            || path.split(separator: "/", omittingEmptySubsequences: false).contains(where: {
                $0.isEmpty || $0 == ".." || $0 == "."
            })
        {
            throw FuzzViolation(description: "the manifest names '\(path)', outside the export folder")
        }
        guard Set(paths).count == paths.count else {
            throw FuzzViolation(description: "a data file is listed twice: \(paths)")
        }
        guard manifest.files.reduce(0, { $0 + $1.itemCount }) == manifest.itemCount else {
            throw FuzzViolation(description: "the files' counts do not add up to the summary's \(manifest.itemCount)")
        }
    }
}
