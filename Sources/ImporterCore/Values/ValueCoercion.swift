/// Why a field could not become a value of its attribute's type.
package struct CoercionProblem: Error, Sendable {
    /// `.type` when the text is not of the type at all, `.range` when it is but does not fit.
    package let reason: RejectReason
    package let message: String
}

/// Turns reader fields into typed values (docs/values.md).
package enum ValueCoercion {
    /// Inlined into the validator's loop over a record's fields: called, it took each field as a
    /// copy of its own, made and destroyed per field.
    @inline(__always)
    package static func coerce(_ field: FieldValue, to type: AttributeType, dateFormat: DateFormat) -> Result<
        Value, CoercionProblem
    > {
        switch field {
        case .null:
            return .success(.null)
        case .composite(let json):
            guard type == .string else {
                return .failure(
                    CoercionProblem(
                        reason: .type,
                        message:
                            "is a JSON object or array, not a \(type.rawValue); only a string attribute holds one (as its JSON text)"
                    ))
            }
            return .success(.string(JSONText.compact(json)))
        case .collection(let kind, let json):
            guard type == .string else {
                return .failure(
                    CoercionProblem(
                        reason: .type,
                        message:
                            "is a DynamoDB \(kind) (\(DynamoDBTypes.name(of: kind))), which only a string attribute holds (as its JSON text), not a \(type.rawValue)"
                    ))
            }
            return .success(.string(json))
        case .bool(let flag):
            guard type == .boolean else {
                return .failure(CoercionProblem(reason: .type, message: "is a JSON boolean, not a \(type.rawValue)"))
            }
            return .success(.boolean(flag))
        case .number(let text):
            if type == .boolean {
                return .failure(CoercionProblem(reason: .type, message: "is the number \(text), not true or false"))
            }
            return coerce(text: text, to: type, dateFormat: dateFormat, fromJSONNumber: true)
        case .text(let text):
            return coerce(text: text, to: type, dateFormat: dateFormat, fromJSONNumber: false)
        }
    }

    /// What `coerce` makes of a text field, read from its bytes for the types that need no
    /// text made (whole numbers, doubles and floats, ISO-8601 dates); nil for another type, or
    /// for bytes that `coerce` must read (spaces around them, another spelling, a problem).
    @inline(__always)
    package static func plainValue(of bytes: UnsafeBufferPointer<UInt8>, as type: AttributeType, dateFormat: DateFormat)
        -> Value?
    {
        guard let first = bytes.first, let last = bytes.last, first != 32, first != 9, last != 32, last != 9 else {
            return nil
        }
        switch type {
        case .int16, .int32, .int64:
            guard let number = IntegerText.int64(bytes), type.integerRange!.contains(number) else { return nil }
            return .integer(number)
        case .double:
            return DoubleText.plain(bytes).map(Value.double)
        case .float:
            guard let number = DoubleText.plain(bytes), Float(number).isFinite else { return nil }
            return .double(Double(Float(number)))
        case .date:
            guard dateFormat == .iso8601, case .success(let millis) = ISO8601.parse(bytes: bytes) else { return nil }
            return .date(millis)
        default:
            return nil
        }
    }

    private static func coerce(text: String, to type: AttributeType, dateFormat: DateFormat, fromJSONNumber: Bool)
        -> Result<Value, CoercionProblem>
    {
        switch type {
        case .string:
            return .success(.string(text))
        case .uuid, .uri, .binary:
            return coerceCoreDataText(text, to: type, fromJSONNumber: fromJSONNumber)
        case .int16, .int32, .int64:
            let trimmed = trimmingSpaces(text)
            guard let number = integer(trimmed) else {
                if isInteger(trimmed) {
                    return .failure(
                        CoercionProblem(reason: .range, message: "'\(text)' does not fit in \(type.rawValue)"))
                }
                return .failure(CoercionProblem(reason: .type, message: "'\(text)' is not a whole number"))
            }
            guard type.integerRange!.contains(number) else {
                return .failure(
                    CoercionProblem(
                        reason: .range,
                        message:
                            "\(number) is out of the \(type.rawValue) range \(type.integerRange!.lowerBound)...\(type.integerRange!.upperBound)"
                    ))
            }
            return .success(.integer(number))
        case .decimal:
            guard let canonical = DecimalText.canonical(trimmingSpaces(text)) else {
                return .failure(CoercionProblem(reason: .type, message: "'\(text)' is not a decimal number"))
            }
            return .success(.decimal(canonical))
        case .double, .float:
            var plain = text
            let number: Double
            if let read = plain.withUTF8(DoubleText.plain) {
                number = read
            } else {
                let trimmed = trimmingSpaces(text)
                guard isDecimalLiteral(trimmed), let read = Double(trimmed) else {
                    return .failure(
                        CoercionProblem(reason: .type, message: "'\(text)' is not a number (inf and nan are refused)"))
                }
                number = read
            }
            guard number.isFinite else {
                return .failure(
                    CoercionProblem(reason: .range, message: "'\(text)' is too large for a \(type.rawValue)"))
            }
            if type == .float {
                let single = Float(number)
                guard single.isFinite else {
                    return .failure(CoercionProblem(reason: .range, message: "'\(text)' is too large for a float"))
                }
                return .success(.double(Double(single)))
            }
            return .success(.double(number))
        case .date:
            let format = fromJSONNumber && dateFormat == .iso8601 ? DateFormat.epochSeconds : dateFormat
            switch format.parse(trimmingSpaces(text)) {
            case .success(let millis): return .success(.date(millis))
            case .failure(let problem):
                return .failure(
                    CoercionProblem(
                        reason: problem == .yearOutOfRange ? .range : .type, message: "'\(text)' \(problem.message)"))
            }
        case .boolean:
            switch trimmingSpaces(text).lowercased() {
            case "true", "1", "yes": return .success(.boolean(true))
            case "false", "0", "no": return .success(.boolean(false))
            default:
                return .failure(
                    CoercionProblem(reason: .type, message: "'\(text)' is not a boolean (true/false, 1/0, yes/no)"))
            }
        }
    }

    /// uuid, uri and binary (docs/model.md): text of a form, stored canonically.
    private static func coerceCoreDataText(_ text: String, to type: AttributeType, fromJSONNumber: Bool) -> Result<
        Value, CoercionProblem
    > {
        switch type {
        case .uuid:
            guard let canonical = UUIDText.canonical(trimmingSpaces(text)) else {
                return .failure(
                    CoercionProblem(reason: .type, message: "'\(text)' is not a UUID (32 hex digits, as 8-4-4-4-12)"))
            }
            return .success(.string(canonical))
        case .uri:
            guard URIText.isAbsolute(text) else {
                return .failure(
                    CoercionProblem(
                        reason: .type, message: "'\(text)' is not an absolute URI (scheme:rest, without spaces)"))
            }
            return .success(.string(text))
        default:
            guard !fromJSONNumber, let bytes = Base64.decode(text) else {
                return .failure(
                    CoercionProblem(
                        reason: .type, message: "'\(text.prefix(40))' is not base64 (A–Z a–z 0–9 + /, padded with =)"))
            }
            return .success(.binary(bytes))
        }
    }

    private static func trimmingSpaces(_ text: String) -> String {
        var text = text
        let padded = text.withUTF8 { bytes in
            guard let first = bytes.first, let last = bytes.last else { return false }
            return first == 32 || last == 32 || first == 9 || last == 9
        }
        guard padded else { return text }
        return String(
            text.trimmingPrefix { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// `Int64(text)`, read over the text's bytes.
    private static func integer(_ text: String) -> Int64? {
        var text = text
        return text.withUTF8(IntegerText.int64)
    }

    private static func isInteger(_ text: String) -> Bool {
        let digits = text.utf8.drop { $0 == 43 || $0 == 45 }
        return !digits.isEmpty && digits.allSatisfy { $0 >= 48 && $0 <= 57 }
    }

    /// Digits, sign, point and exponent only: no `inf`, `nan`, hex or spaces.
    private static func isDecimalLiteral(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy {
                ($0 >= 48 && $0 <= 57) || $0 == 43 || $0 == 45 || $0 == 46 || $0 == 101 || $0 == 69
            }
    }
}
