import CJSONC
import ImporterCore

/// Turns a parsed json-c object into a record's names and values, keeping numbers as their exact
/// source text.
enum JSONObjectConverter {
    enum Problem: Error {
        case notAnObject(String)
        case notADynamoDBItem(String)
        case invalidUTF8
    }

    /// The object's keys and values, in document order.
    static func fields(of object: OpaquePointer) throws -> (names: [String], values: [FieldValue]) {
        guard json_object_get_type(object) == json_type_object else {
            throw Problem.notAnObject(typeName(json_object_get_type(object)))
        }
        var names: [String] = []
        var values: [FieldValue] = []
        let count = Int(json_object_object_length(object))
        names.reserveCapacity(count)
        values.reserveCapacity(count)
        var iterator = json_object_iter_begin(object)
        var end = json_object_iter_end(object)
        while json_object_iter_equal(&iterator, &end) == 0 {
            guard let namePointer = json_object_iter_peek_name(&iterator),
                  let name = String(validatingCString: namePointer)
            else { throw Problem.invalidUTF8 }
            names.append(name)
            values.append(try value(of: json_object_iter_peek_value(&iterator)))
            json_object_iter_next(&iterator)
        }
        return (names, values)
    }

    /// The attributes of a DynamoDB export line `{"Item":{"attr":{"S":"…"}}}`: S is text, N a
    /// number, BOOL a boolean, NULL null; other types (M, L, SS, B…) stay composite, which no
    /// attribute type accepts.
    static func dynamoDBFields(of object: OpaquePointer) throws -> (names: [String], values: [FieldValue]) {
        guard json_object_get_type(object) == json_type_object else {
            throw Problem.notAnObject(typeName(json_object_get_type(object)))
        }
        var found: OpaquePointer?
        guard json_object_object_length(object) == 1, json_object_object_get_ex(object, "Item", &found) != 0,
              let item = found, json_object_get_type(item) == json_type_object
        else { throw Problem.notADynamoDBItem("the line needs one key, \"Item\", holding an object") }
        var names: [String] = []
        var values: [FieldValue] = []
        var iterator = json_object_iter_begin(item)
        var end = json_object_iter_end(item)
        while json_object_iter_equal(&iterator, &end) == 0 {
            guard let namePointer = json_object_iter_peek_name(&iterator),
                  let name = String(validatingCString: namePointer)
            else { throw Problem.invalidUTF8 }
            guard let attribute = json_object_iter_peek_value(&iterator),
                  json_object_get_type(attribute) == json_type_object, json_object_object_length(attribute) == 1
            else { throw Problem.notADynamoDBItem("attribute '\(name)' is not a typed value such as {\"S\": \"text\"}") }
            let (types, typed) = try fields(of: attribute)
            names.append(name)
            switch (types[0], typed[0]) {
            case ("S", .text), ("BOOL", .bool): values.append(typed[0])
            case ("N", .text(let number)): values.append(.number(number))
            case ("B", .text(let base64)): values.append(.text(base64))
            case ("NULL", .bool(true)): values.append(.null)
            default: values.append(.composite(String(cString: json_object_to_json_string_ext(attribute, JSON_C_TO_STRING_PLAIN))))
            }
            json_object_iter_next(&iterator)
        }
        return (names, values)
    }

    private static func value(of object: OpaquePointer?) throws -> FieldValue {
        guard let object else { return .null }
        switch json_object_get_type(object) {
        case json_type_null:
            return .null
        case json_type_boolean:
            return .bool(json_object_get_boolean(object) != 0)
        case json_type_string:
            let length = Int(json_object_get_string_len(object))
            let pointer = UnsafeRawPointer(json_object_get_string(object)!).assumingMemoryBound(to: UInt8.self)
            guard let text = UTF8Text.string(UnsafeBufferPointer(start: pointer, count: length)) else {
                throw Problem.invalidUTF8
            }
            return .text(text)
        case json_type_int, json_type_double:
            // Doubles print their original source text; integers print exactly (int64 and uint64).
            return .number(String(cString: json_object_to_json_string_ext(object, JSON_C_TO_STRING_PLAIN)))
        default:
            guard let text = String(validatingCString: json_object_to_json_string_ext(object, JSON_C_TO_STRING_PLAIN)) else {
                throw Problem.invalidUTF8
            }
            return .composite(text)
        }
    }

    static func typeName(_ type: json_type) -> String {
        switch type {
        case json_type_array: return "an array"
        case json_type_string: return "a string"
        case json_type_int, json_type_double: return "a number"
        case json_type_boolean: return "a boolean"
        case json_type_null: return "null"
        default: return "not an object"
        }
    }
}

/// How a JSON record's fields are laid out.
public enum JSONRecordLayout: Sendable {
    /// A plain object: its keys are the fields.
    case object
    /// DynamoDB's export item, `{"Item":{"attr":{"S":"…"}}}`.
    case dynamoDBItem
}

/// Parses one complete JSON text at a time into a record's fields, strictly (RFC 8259): a scanner
/// for the common flat object, the strict parser for everything else, and for DynamoDB export
/// items json-c after the strict parser has checked the text. One thread uses it at a time.
final class JSONTextParser {
    private let tokener: UnsafeMutablePointer<json_tokener>
    private let layout: JSONRecordLayout
    private var scanner = FlatObjectScanner()
    private var strict = StrictJSONParser()

    init(layout: JSONRecordLayout = .object) {
        tokener = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH)!
        self.layout = layout
    }

    deinit { json_tokener_free(tokener) }

    /// The record whose JSON text is `bytes[range]`: its fields, or its rejection.
    func record(_ bytes: [UInt8], _ range: Range<Int>, line: Int, offset: Int64) -> SourceRecord {
        var record = SourceRecord(line: line, byteOffset: offset, raw: bytes[range], names: [], values: [])
        switch bytes.withUnsafeBufferPointer({ parseRecord(UnsafeBufferPointer(rebasing: $0[range])) }) {
        case .success(let fields):
            record.names = fields.names
            record.values = fields.values
        case .failure(let rejection):
            record.failure = rejection
        }
        return record
    }

    /// Parses `bytes` as one JSON object, or returns the rejection of the text.
    func parseRecord(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<(names: [String], values: [FieldValue]), Rejection> {
        switch layout {
        case .object:
            if let fields = scanner.fields(bytes) { return .success(fields) }
            return strict.objectFields(bytes).mapError(rejection)
        case .dynamoDBItem:
            if let problem = strict.validate(bytes) { return .failure(rejection(problem)) }
            return parseWithJSONC(bytes)
        }
    }

    private func rejection(_ problem: StrictJSONParser.SyntaxError) -> Rejection {
        switch problem.kind {
        case .encoding:
            return Rejection(stage: .read, reason: .encoding,
                "the record's text is not valid UTF-8 (byte \(problem.offset + 1)); fix the bytes or re-export the file as UTF-8")
        case .syntax:
            return Rejection(stage: .read, reason: .malformed, "invalid JSON at byte \(problem.offset + 1): \(problem.message)")
        }
    }

    /// A DynamoDB export item parsed with json-c (the text is valid JSON already).
    private func parseWithJSONC(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<(names: [String], values: [FieldValue]), Rejection> {
        json_tokener_reset(tokener)
        let parsed = bytes.withMemoryRebound(to: CChar.self) { text in
            json_tokener_parse_ex(tokener, text.baseAddress, Int32(text.count))
        }
        guard let object = parsed else {
            let error = json_tokener_get_error(tokener)
            return .failure(Rejection(stage: .read, reason: .malformed,
                "invalid JSON at byte \(json_tokener_get_parse_end(tokener) + 1): \(String(cString: json_tokener_error_desc(error)))"))
        }
        defer { json_object_put(object) }
        do {
            return .success(try JSONObjectConverter.dynamoDBFields(of: object))
        } catch JSONObjectConverter.Problem.notAnObject(let kind) {
            return .failure(Rejection(stage: .read, reason: .malformed, "the record is \(kind), not a JSON object"))
        } catch JSONObjectConverter.Problem.notADynamoDBItem(let problem) {
            return .failure(Rejection(stage: .read, reason: .malformed, "not a DynamoDB export item: \(problem)"))
        } catch {
            return .failure(Rejection(stage: .read, reason: .encoding,
                "the record's text is not valid UTF-8; fix the bytes or re-export the file as UTF-8"))
        }
    }
}

@inline(__always)
func isJSONSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 10 || byte == 13 || byte == 9 }
