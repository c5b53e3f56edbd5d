import Foundation

/// Paths as a pipeline file writes them: relative to its own directory.
package enum RelativePaths {
    /// `path` made absolute against the current directory, `.` and `..` resolved (symbolic
    /// links are kept).
    package static func absolute(_ path: String, currentDirectory: String = FileManager.default.currentDirectoryPath)
        -> String
    {
        let full = path.hasPrefix("/") ? path : FilePaths.join(currentDirectory, path)
        var parts: [Substring] = []
        for part in full.split(separator: "/") {
            if part == "." || part.isEmpty { continue }
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The absolute directory of a file `path`.
    package static func directory(of path: String) -> String {
        let absolute = absolute(path)
        let directory = FilePaths.directory(of: absolute)
        return directory.isEmpty ? "/" : directory
    }

    /// `path` relative to the absolute `directory`: `data/a.csv`, `../data/a.csv`.
    package static func relative(_ path: String, from directory: String) -> String {
        let target = absolute(path).split(separator: "/"), base = absolute(directory).split(separator: "/")
        var common = 0
        while common < target.count, common < base.count, target[common] == base[common] { common += 1 }
        let ups = [Substring](repeating: "..", count: base.count - common)
        let rest = ups + target[common...]
        return rest.isEmpty ? "." : rest.joined(separator: "/")
    }
}
