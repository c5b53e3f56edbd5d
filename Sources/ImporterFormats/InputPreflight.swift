import Foundation
import ImporterCore

/// What is checked of a run's inputs before the store is opened (docs/pipeline.md#sources): a
/// local CSV or TSV file whose header names a column twice refuses the run (a
/// `ConfigurationError` naming the file and the column: exit 2, nothing written); an empty
/// (0-byte) input is a warning, and the run goes on.
package enum InputPreflight {
    /// Checks the inputs of `config`'s sources of `entities` (nil: every source), and returns
    /// the warnings, one line each. `s3://` objects are checked by their listed size only.
    package static func check(_ config: PipelineConfig, entities: [String]?) throws -> [String] {
        var warnings: [String] = []
        for source in config.sources where entities?.contains(source.entity) ?? true {
            for path in source.paths {
                let size =
                    path.hasPrefix("s3://")
                    ? config.objects[path]?.size
                    : (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value
                if size == 0 {
                    warnings.append(
                        "\(path): the input is empty (0 bytes), so it has no \(source.entity) records; the run goes on without it"
                    )
                    continue
                }
                guard !path.hasPrefix("s3://"), [.csv, .tsv].contains(source.format ?? InputFormat(path: path) ?? .csv)
                else { continue }
                // A file that cannot be opened is the reader's to report, as it is for every format.
                guard
                    let text = try? ReaderFactory.openText(path: path, source: source)
                else { continue }
                let reader = CSVReader(
                    source: text, name: path, options: source.csv, maxRecordBytes: source.maxRecordBytes)
                do { _ = try reader.columnNames() } catch let error as ConfigurationError { throw error } catch {}
            }
        }
        return warnings
    }
}
