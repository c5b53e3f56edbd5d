import Foundation

/// Files the commands write whole: models, pipelines (`model convert`, `model infer`).
package enum TextFile {
    /// Writes `text` to `path` (replacing it, atomically); the error names the path and what to check.
    package static func write(_ text: String, to path: String) throws(ConfigurationError) {
        do {
            try OutputFile.write(Data(text.utf8), to: path)
        } catch {
            throw ConfigurationError(file: path, "\(error); check the directory exists and is writable")
        }
    }
}
