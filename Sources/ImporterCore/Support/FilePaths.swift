/// Path text, taken apart and joined without Foundation's `NSString` path methods, which trap on
/// one-character strings on Linux (`path: x`, `.`, `*`).
package enum FilePaths {
    /// The directory part, as `NSString.deletingLastPathComponent` gives it: `a/b` → `a`,
    /// `/a` → `/`, `a` → `` (the current directory), `a/b/` → `a`.
    package static func directory(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let directory = withoutTrailingSlashes(String(trimmed[..<slash]))
        return directory.isEmpty && path.hasPrefix("/") ? "/" : directory
    }

    /// The last component: `a/b` → `b`, `a/b/` → `b`, `x` → `x`, `/` → `/`.
    package static func lastComponent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `directory/name`, with one slash between; `name` alone when `directory` is empty.
    package static func join(_ directory: String, _ name: String) -> String {
        if directory.isEmpty { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The name without its last extension: `a.yaml` → `a`, `.profile` and `x` unchanged.
    package static func deletingExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// `~` and `~/…` with the home directory put in; any other path unchanged.
    package static func expandingTilde(_ path: String, home: String) -> String {
        if path == "~" { return home }
        return path.hasPrefix("~/") ? join(home, String(path.dropFirst(2))) : path
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }
}
