/// What the CSV sniffer asks of values: is a first row a header, and are its names usable.
package enum HeaderGuess {
    /// A first row is a header unless a cell holds a value of a type (a number, a date, a UUID,
    /// true or false): names are text. Null markers are left out.
    package static func isHeader(_ firstRow: [FieldValue]) -> Bool {
        for cell in firstRow {
            if case .text(let text) = cell, NullMarkers.index(of: text) != nil { continue }
            var types = TypeCandidates()
            types.observe(cell)
            if let type = types.narrowest, type != .string { return false }
        }
        return true
    }

    /// Names in place of a header's when some are empty or repeat (a record's fields are
    /// found by name): each header made an attribute name, then numbered apart. Nil when the
    /// header's own names will do.
    package static func columnNames(forHeader names: [String]) -> [String]? {
        let distinct = Set(names)
        guard distinct.count < names.count || distinct.contains("") else { return nil }
        var taken = Set<String>(), result: [String] = []
        for (position, name) in names.enumerated() {
            let unique = Identifiers.unique(Identifiers.attributeName(forField: name, position: position), in: taken)
            taken.insert(unique.lowercased())
            result.append(unique)
        }
        return result
    }

    /// `column1`, `column2`, …: the names of a file without a header.
    package static func numberedColumns(_ count: Int) -> [String] {
        (1...max(1, count)).map { "column\($0)" }
    }
}
