import ImporterCore

/// The document scanner against the tree path, for the tests and the fuzz targets: the fast
/// path must give exactly the records the tree path gives, or decline (docs/documents.md).
package enum DocumentScannerCheck {
    /// What scanning `documents` one after another with one scanner gave: per document, whether
    /// the scanner took it, and how its records differ from the tree path's when they do.
    package static func compare(_ documents: [[UInt8]], shape: DocumentShape) -> [(scanned: Bool, difference: String?)]
    {
        var scanner = DocumentScanner(shape: shape)
        var expander = DocumentExpander(shape: shape)
        var parser = StrictJSONParser()
        var offset: Int64 = 0
        return documents.enumerated().map { index, text in
            defer { offset += Int64(text.count) + 1 }
            let root = SourceRecord(line: index + 1, byteOffset: offset, raw: text[...], names: [], values: [])
            let tree = text.withUnsafeBufferPointer { parser.tree($0) }
            let expected: SourceDocument? =
                if case .success(let tree) = tree { expander.document(root, tree) } else { nil }
            guard let scanned = scanner.document(root) else { return (false, nil) }
            guard let expected else {
                return (true, "the scanner read a document that the tree parser refuses: \(tree)")
            }
            let (got, wanted) = (describe(scanned), describe(expected))
            return (true, got == wanted ? nil : "scanned:\n\(got)\ntree path:\n\(wanted)")
        }
    }

    /// Every record of `document`, one a line: where it is, its fields, its failure.
    package static func describe(_ document: SourceDocument) -> String {
        func record(_ record: SourceRecord) -> String {
            "line \(record.line) offset \(record.byteOffset) raw \(Array(record.raw)) \(record.names) \(record.values) absent \(record.absentArrays) \(record.failure?.message ?? "-")"
        }
        return
            ([record(document.root)]
            + document.elements.indices.map { index in
                let element = document.elements[index]
                return
                    "\(element.node) \(element.parent ?? -1) \(element.position) \(document.pointers[index]) \(record(element.record))"
            }).joined(separator: "\n")
    }
}
