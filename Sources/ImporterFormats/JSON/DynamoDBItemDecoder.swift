import ImporterCore

/// A DynamoDB JSON item line, `{"Item":{"attr":{"S":"…"}}}`, as a record's fields, parsed strictly
/// (`StrictJSONParser`, docs/pipeline.md#sources) and typed exactly (docs/pipeline.md#s3-sources):
///
/// - `S` is text; `N` its exact decimal text (a number field, never through a double); `B` its
///   base64 text (a binary attribute decodes it); `BOOL` a boolean; `NULL` null.
/// - `SS`, `NS`, `BS`, `L` and `M` become a `collection` holding the exact text of the typed value
///   (`{"SS":["a","b"]}`), which only a string attribute accepts.
/// - Anything else (an unknown type, `{"N": 5}`, `{"NULL": false}`) rejects the line, naming the
///   attribute.
struct DynamoDBItemDecoder {
    private var strict = StrictJSONParser()

    typealias Fields = (names: [String], values: [FieldValue])

    /// The attributes of the item that is the whole of `bytes`, or why the line is refused.
    mutating func fields(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Fields, Problem> {
        let item: Fields
        switch itemFields(bytes) {
        case .success(let fields): item = fields
        case .failure(let problem): return .failure(problem)
        }
        var values: [FieldValue] = []
        values.reserveCapacity(item.names.count)
        for (name, value) in zip(item.names, item.values) {
            guard let field = typedValue(value) else {
                return .failure(
                    .notAnItem(
                        "attribute '\(name)' is \(Self.shown(value)), not a DynamoDB typed value such as {\"S\": \"text\"} (one of S, N (a number in a string), B, BOOL, NULL (true), SS, NS, BS, L, M)"
                    ))
            }
            values.append(field)
        }
        return .success((item.names, values))
    }

    /// The fields of the item object of the line `bytes`. The line as AWS writes it,
    /// `{"Item":{…}}`, is checked and split in one pass of the item object; any other spelling
    /// (spaces, another key), or an error, goes through the line's own parse, whose messages
    /// point into the line.
    private mutating func itemFields(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Fields, Problem> {
        let prefix = Self.itemPrefix
        if bytes.count > prefix.count, bytes.last == UInt8(ascii: "}"), bytes.starts(with: prefix),
            case .success(let fields) = strict.objectFields(
                UnsafeBufferPointer(rebasing: bytes[(prefix.count - 1)..<(bytes.count - 1)]))
        {
            return .success(fields)
        }
        let line: Fields
        switch strict.objectFields(bytes) {
        case .success(let fields): line = fields
        case .failure(let error): return .failure(.syntax(error))
        }
        guard line.names == ["Item"], case .composite(let itemText) = line.values[0], itemText.hasPrefix("{"),
            case .success(let item) = parse(itemText)
        else { return .failure(.notAnItem("the line needs one key, \"Item\", holding an object")) }
        return .success(item)
    }

    /// `{"Item":{`: how AWS's export lines start.
    private static let itemPrefix = Array(#"{"Item":{"#.utf8)

    /// Why a line is not an item.
    enum Problem: Error {
        case syntax(StrictJSONParser.SyntaxError)
        case notAnItem(String)
    }

    /// One attribute's `{"TYPE": value}` as a field; nil when it is not a typed value.
    private mutating func typedValue(_ value: FieldValue) -> FieldValue? {
        guard case .composite(let text) = value, text.hasPrefix("{"), case .success(let typed) = parse(text),
            typed.names.count == 1
        else { return nil }
        let type = typed.names[0]
        switch (type, typed.values[0]) {
        case ("S", .text(let string)), ("B", .text(let string)):
            return .text(string)
        case ("N", .text(let number)) where DecimalText.canonical(number) != nil:
            return .number(number)
        case ("BOOL", .bool(let flag)):
            return .bool(flag)
        case ("NULL", .bool(true)):
            return .null
        case ("M", .composite(let inner)) where inner.hasPrefix("{"):
            return .collection(type: type, json: text)
        case (_, .composite(let inner))
        where type != "M" && DynamoDBTypes.collections.contains(type) && inner.hasPrefix("["):
            return .collection(type: type, json: text)
        default:
            return nil
        }
    }

    /// A value's text, shortened, for a message.
    private static func shown(_ value: FieldValue) -> String {
        switch value {
        case .composite(let text), .text(let text), .number(let text): return String(text.prefix(60))
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .collection(_, let text): return String(text.prefix(60))
        }
    }

    private mutating func parse(_ text: String) -> Result<Fields, StrictJSONParser.SyntaxError> {
        var text = text
        return text.withUTF8 { strict.objectFields($0) }
    }
}
