import Foundation

/// Core Data's `<attribute>` elements as attributes (docs/coredata.md): types, optional, defaults,
/// bounds (lengths for strings), regular expressions, renaming identifiers; what has no meaning
/// in a store of items (transient, Transformable, derived) is left out with a warning.
struct CoreDataAttributes {
    let file: String
    var warnings: [ModelWarning] = []

    /// `attributeType` values and the types they map to.
    static let types: [String: AttributeType] = [
        "String": .string, "Integer 16": .int16, "Integer 32": .int32, "Integer 64": .int64,
        "Decimal": .decimal, "Double": .double, "Float": .float, "Date": .date, "Boolean": .boolean,
        "UUID": .uuid, "URI": .uri, "Binary": .binary,
    ]

    /// Core Data's reference date, 2001-01-01T00:00:00Z, in seconds since 1970.
    static let referenceDate: Int64 = 978_307_200

    /// The attribute `element` declares, or nil (with a warning) when it is not stored data.
    mutating func attribute(_ element: XMLElementNode, entity: String) throws -> Attribute? {
        let place = FilePlace(file: file, line: element.line, key: element.attributes["name"])
        guard let name = element.attributes["name"] else {
            throw place.error("an attribute of '\(entity)' has no name")
        }
        try ModelChecks.checkName(name, at: place)
        let typeName = element.attributes["attributeType"] ?? "Undefined"
        if let reason = Self.leftOut(element, typeName: typeName) {
            warn(element, "\(entity).\(name) is not imported: \(reason)")
            return nil
        }
        guard let type = Self.types[typeName] else {
            throw place.error(
                "attribute type '\(typeName)' is unknown; use one of: \(Self.types.keys.sorted().joined(separator: ", "))"
            )
        }
        let info = element.userInfo
        let (minimum, maximum, maxLength) = try bounds(element, type: type, name: "\(entity).\(name)", place: place)
        let pattern = element.attributes["regularExpressionString"]
        if let pattern, (try? NSRegularExpression(pattern: pattern)) == nil {
            throw place.error("regularExpressionString '\(pattern)' is not a valid regular expression")
        }
        return Attribute(
            name: name, type: type, required: element.attributes["optional"] != "YES",
            minimum: minimum, maximum: maximum, maxLength: maxLength, pattern: pattern,
            allowedValues: try info["values"].map { try CoreDataUserInfo.list($0, place: place) },
            defaultValue: try defaultValue(element, type: type, place: place),
            renamedFrom: try CoreDataUserInfo.renamedFrom(element, place: place),
            conversion: try info["convert"].map { try CoreDataUserInfo.conversion($0, type: type, place: place) },
            line: element.line)
    }

    /// Why an attribute is not stored data, or nil when it is.
    private static func leftOut(_ element: XMLElementNode, typeName: String) -> String? {
        if element.attributes["transient"] == "YES" { return "it is transient (never saved by Core Data)" }
        if element.attributes["derived"] == "YES" { return "it is derived (Core Data computes it from other values)" }
        switch typeName {
        case "Transformable": return "Transformable values are archived objects; make it Binary to import their bytes"
        case "Undefined", "ObjectID": return "a \(typeName) attribute holds no stored value"
        case "Composite": return "composite attributes are not supported; declare its parts as attributes"
        default: return nil
        }
    }

    /// `minValueString`/`maxValueString`: bounds of a number, lengths of a string.
    private mutating func bounds(
        _ element: XMLElementNode, type: AttributeType, name: String,
        place: FilePlace
    ) throws -> (Double?, Double?, Int?) {
        let min = element.attributes["minValueString"], max = element.attributes["maxValueString"]
        if element.attributes["minDateTimeInterval"] != nil || element.attributes["maxDateTimeInterval"] != nil {
            warn(element, "the date bounds of \(name) are not checked by the importer")
        }
        if type.isText {
            if let min, min != "0" {
                warn(element, "the minimum length \(min) of \(name) is not checked by the importer")
            }
            guard let max else { return (nil, nil, nil) }
            guard let length = Int(max), length >= 0 else {
                throw place.error("maxValueString '\(max)' is not a length")
            }
            return (nil, nil, length)
        }
        let numeric = type.isInteger || [.decimal, .double, .float].contains(type)
        if !numeric {
            if min != nil || max != nil {
                warn(element, "the bounds of \(name) apply to numbers and strings only and are not checked")
            }
            return (nil, nil, nil)
        }
        func number(_ text: String?, _ what: String) throws -> Double? {
            guard let text else { return nil }
            guard let value = Double(text), value.isFinite else {
                throw place.error("\(what) '\(text)' is not a number")
            }
            return value
        }
        return (try number(min, "minValueString"), try number(max, "maxValueString"), nil)
    }

    /// `defaultValueString` (YES/NO for booleans) or `defaultDateTimeInterval` (seconds since 2001).
    private func defaultValue(_ element: XMLElementNode, type: AttributeType, place: FilePlace) throws -> Value? {
        if type == .date, let interval = element.attributes["defaultDateTimeInterval"] {
            guard let seconds = Double(interval), seconds.isFinite, abs(seconds) < 3e11 else {
                throw place.error("defaultDateTimeInterval '\(interval)' is not a number of seconds")
            }
            switch ISO8601.checkedYear(Int64(((seconds + Double(Self.referenceDate)) * 1000).rounded())) {
            case .success(let millis): return .date(millis)
            case .failure(let problem): throw place.error("defaultDateTimeInterval '\(interval)' \(problem.message)")
            }
        }
        guard var text = element.attributes["defaultValueString"] else { return nil }
        if type == .boolean { text = text == "YES" ? "true" : text == "NO" ? "false" : text }
        switch ValueCoercion.coerce(.text(text), to: type, dateFormat: .iso8601) {
        case .success(let value): return value
        case .failure(let problem):
            throw place.error("default '\(text)' is not a valid \(type.rawValue): \(problem.message)")
        }
    }

    private mutating func warn(_ element: XMLElementNode, _ message: String) {
        warnings.append(ModelWarning(file: file, line: element.line, message: message))
    }
}
