import Foundation

/// A reader for the INI format of `~/.aws/credentials`: `[name]` sections, `key = value` lines
/// (`:` accepted too, as botocore does), whole-line comments starting with `#` or `;`, blank lines.
/// Names, keys and values are trimmed; keys are lowercased. A repeated section or key: the later one wins.
enum SharedCredentialsFile {
    /// Section name → key → value.
    static func parse(_ text: String, file: String) throws(AWSConfigurationError) -> [String: [String: String]] {
        var sections: [String: [String: String]] = [:]
        var current: String?
        let body = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        for (index, rawLine) in body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count >= 2 else {
                    throw .malformedCredentialsFile(
                        file: file, line: index + 1, problem: "a section header without `]`")
                }
                let name = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else {
                    throw .malformedCredentialsFile(file: file, line: index + 1, problem: "an empty section name")
                }
                current = name
                if sections[name] == nil { sections[name] = [:] }
                continue
            }
            guard let delimiter = line.firstIndex(where: { $0 == "=" || $0 == ":" }) else {
                throw .malformedCredentialsFile(file: file, line: index + 1, problem: "a line without `=`")
            }
            let key = line[..<delimiter].trimmingCharacters(in: .whitespaces).lowercased()
            guard !key.isEmpty else {
                throw .malformedCredentialsFile(file: file, line: index + 1, problem: "a value without a key")
            }
            guard let section = current else {
                throw .malformedCredentialsFile(file: file, line: index + 1, problem: "a key before any [section]")
            }
            sections[section, default: [:]][key] = line[line.index(after: delimiter)...]
                .trimmingCharacters(in: .whitespaces)
        }
        return sections
    }
}
