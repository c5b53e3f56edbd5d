/// Names for what inference finds: entities from file names, attributes from headers, each a
/// valid model name (`[A-Za-z_][A-Za-z0-9_]*`) and different from the others without case (SQLite
/// column names ignore case).
enum Identifiers {
    /// `order-lines.csv.gz` → `OrderLine`: the file name without its extensions, its words
    /// capitalised and joined, a plural's `s` dropped.
    static func entityName(forFile path: String, singular makeSingular: Bool = true) -> String {
        var name = FilePaths.lastComponent(path)
        if name.lowercased().hasSuffix(".gz") { name.removeLast(3) }
        name = FilePaths.deletingExtension(name)
        let words = name.split { !isIdentifierCharacter($0) || $0 == "_" }
        var joined = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if makeSingular { joined = singular(joined) }
        if joined.isEmpty { return "Entity" }
        if joined.first!.isNumber { joined = "_" + joined }
        if joined.lowercased().hasPrefix("sqlite_") { joined = "T" + joined }
        return joined
    }

    /// A header as an attribute name: characters a name cannot hold become `_`; a leading digit
    /// gets a `_` before it; an empty header becomes `column<N>` (N counts from 1).
    static func attributeName(forField field: String, position: Int) -> String {
        var name = String(field.map { isIdentifierCharacter($0) ? $0 : "_" })
        while name.contains("__") { name = name.replacingOccurrences(of: "__", with: "_") }
        if name.count > 1, name.hasSuffix("_") { name.removeLast() }
        if name.isEmpty || name == "_" { return "column\(position + 1)" }
        if name.first!.isNumber { name = "_" + name }
        return name
    }

    /// A dotted path into nested objects as an attribute name: `currency.code` → `currencyCode`.
    static func attributeName(forPath path: String, position: Int) -> String {
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).enumerated().map {
            let part = attributeName(forField: String($1), position: position)
            return $0 == 0 ? part : part.prefix(1).uppercased() + part.dropFirst()
        }
        return attributeName(forField: parts.joined(), position: position)
    }

    /// `name`, or `name2`, `name3`, … : the first not in `taken` (compared without case).
    static func unique(_ name: String, in taken: Set<String>) -> String {
        guard taken.contains(name.lowercased()) else { return name }
        var number = 2
        while taken.contains("\(name)\(number)".lowercased()) { number += 1 }
        return "\(name)\(number)"
    }

    /// `Stations` → `Station`, `Categories` → `Category`, `Addresses` → `Address`; `Status`,
    /// `Glass` and short words unchanged.
    static func singular(_ word: String) -> String {
        let lower = word.lowercased()
        guard lower.count > 3, lower.hasSuffix("s") else { return word }
        if lower.hasSuffix("ies") { return word.dropLast(3) + "y" }
        if lower.hasSuffix("sses") || lower.hasSuffix("xes") || lower.hasSuffix("ches") || lower.hasSuffix("shes") {
            return String(word.dropLast(2))
        }
        if lower.hasSuffix("ss") || lower.hasSuffix("us") || lower.hasSuffix("is") { return word }
        return String(word.dropLast())
    }

    /// Lower case letters and digits only: `location_id` and `LocationID` compare equal.
    static func folded(_ name: String) -> String {
        String(name.lowercased().filter { $0.isLetter || $0.isNumber })
    }

    /// YAML plain scalars that would read as booleans or null are quoted.
    static func yaml(_ name: String) -> String {
        let reserved: Set<String> = ["y", "n", "yes", "no", "true", "false", "on", "off", "null", "~"]
        return reserved.contains(name.lowercased()) ? JSONText.quote(name) : name
    }

    private static func isIdentifierCharacter(_ character: Character) -> Bool {
        guard character.isASCII, let scalar = character.unicodeScalars.first else { return false }
        return scalar == "_" || isASCIILetter(scalar) || ("0"..."9").contains(scalar)
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
