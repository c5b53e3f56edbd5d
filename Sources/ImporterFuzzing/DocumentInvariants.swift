import ImporterCore
import ImporterFormats

/// What the document scanner owes any line (docs/documents.md): the records the tree path
/// makes of it, exactly, or a decline that leaves the line to the tree path.
enum DocumentInvariants {
    /// Documents with children `a` (each with children `b`) and `c`, read through the paths
    /// `p.q` (root) and `x.y`, `x.z.w` (elements of `a`).
    static let shape: DocumentShape = {
        var source = SourceConfig(entity: "Root", pattern: "fuzz.ndjson", paths: ["fuzz.ndjson"], format: .ndjson)
        source.map.fields = ["q": "p.q"]
        var a = ChildSource(path: ["a"], entity: "A")
        a.map.fields = ["y": "x.y", "w": "x.z.w"]
        a.children = [ChildSource(path: ["b"], entity: "B")]
        source.children = [a, ChildSource(path: ["c"], entity: "C")]
        return DocumentShape(source)
    }()

    /// Scans each line of `bytes` as a document, one scanner for all of them.
    static func check(_ bytes: [UInt8]) throws {
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false).map { Array($0) }
        for (index, outcome) in DocumentScannerCheck.compare(lines, shape: shape).enumerated() {
            if let difference = outcome.difference {
                throw FuzzViolation(
                    description: "line \(index + 1): the document scanner and the tree path differ: \(difference)")
            }
        }
    }
}
