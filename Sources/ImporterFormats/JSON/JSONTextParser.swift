import ImporterCore

/// How a JSON record's fields are laid out.
package enum JSONRecordLayout: Sendable {
    /// A plain object: its keys are the fields.
    case object
    /// DynamoDB's export item, `{"Item":{"attr":{"S":"…"}}}`.
    case dynamoDBItem
    /// A document, parsed whole by a `DocumentReader`: the record is its raw text only.
    case document
}

/// Parses one complete JSON text at a time into a record's fields, strictly (RFC 8259): a scanner
/// for the common flat object, the strict parser for everything else and for DynamoDB export
/// items (`DynamoDBItemDecoder`). One thread uses it at a time.
final class JSONTextParser {
    private let layout: JSONRecordLayout
    private var scanner = FlatObjectScanner()
    private var strict = StrictJSONParser()
    private var items = DynamoDBItemDecoder()

    init(layout: JSONRecordLayout = .object) {
        self.layout = layout
    }

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
    func parseRecord(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<(names: [String], values: [FieldValue]), Rejection>
    {
        switch layout {
        case .object:
            if let fields = scanner.fields(bytes) { return .success(fields) }
            return strict.objectFields(bytes).mapError(Self.rejection).map { names, values in
                (names, values.map(extendedValue))
            }
        case .dynamoDBItem:
            return parseItem(bytes)
        case .document:
            return .success(([], []))
        }
    }

    /// A field holding a MongoDB Extended JSON wrapper (`{"$oid": …}`) as the value it stands
    /// for (docs/documents.md#mongodb-values); any other field as it is.
    private func extendedValue(_ value: FieldValue) -> FieldValue {
        guard case .composite(let text) = value, text.utf8.count < 512,
            text.utf8.drop(while: { $0 != UInt8(ascii: "\"") }).dropFirst().first == UInt8(ascii: "$")
        else { return value }
        var bytes = Array(text.utf8)
        let parsed = bytes.withUnsafeMutableBufferPointer { strict.tree(UnsafeBufferPointer($0)) }
        guard case .success(let tree) = parsed else { return value }
        return ExtendedJSON.value(of: 0, in: tree) ?? value
    }

    static func rejection(_ problem: StrictJSONParser.SyntaxError) -> Rejection {
        switch problem.kind {
        case .encoding:
            return Rejection(
                stage: .read, reason: .encoding,
                "the record's text is not valid UTF-8 (byte \(problem.offset + 1)); if the file is in another encoding, set the source's 'encoding:' (e.g. windows-1252), else fix the bytes"
            )
        case .syntax:
            return Rejection(
                stage: .read, reason: .malformed, "invalid JSON at byte \(problem.offset + 1): \(problem.message)")
        }
    }

    /// A DynamoDB export item, typed (`DynamoDBItemDecoder`).
    private func parseItem(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<
        (names: [String], values: [FieldValue]), Rejection
    > {
        switch items.fields(bytes) {
        case .success(let fields): return .success(fields)
        case .failure(.syntax(let problem)): return .failure(Self.rejection(problem))
        case .failure(.notAnItem(let problem)):
            return .failure(Rejection(stage: .read, reason: .malformed, "not a DynamoDB export item: \(problem)"))
        }
    }
}

@inline(__always)
func isJSONSpace(_ byte: UInt8) -> Bool { byte == 32 || byte == 10 || byte == 13 || byte == 9 }
