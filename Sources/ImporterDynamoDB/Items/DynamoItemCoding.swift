import Foundation
import ImporterAWS
import ImporterCore

/// An item that DynamoDB returned and that does not fit the entity's attribute types.
package struct DynamoItemDecodingError: Error, Sendable, CustomStringConvertible {
    package let attribute: String
    /// What the item held, e.g. `{"S": "abc"}`.
    package let found: String
    /// What the attribute's type needs, e.g. `an N holding an integer in -32768...32767`.
    package let expected: String

    package var description: String {
        "attribute '\(attribute)': found \(found), expected \(expected)"
    }
}

/// The DynamoDB item encoding of an entity's values (docs/values.md): DynamoDB JSON out, typed values back.
///
/// Numbers are always written as plain decimal text (no exponent, no `inf`/`nan`), so a value's
/// text is exact and the same on every platform; DynamoDB accepts it as an `N`.
package struct DynamoItemCoding: Sendable {
    package let entity: Entity
    package let dates: DateEncoding

    package init(entity: Entity, dates: DateEncoding = .iso8601) {
        self.entity = entity
        self.dates = dates
    }

    // MARK: Encoding

    /// The item as DynamoDB JSON (`{"attr":{"S":"…"},…}`), nulls omitted; attributes in model order.
    ///
    /// `values` holds one value per attribute, by position. Doubles must be finite (docs/values.md
    /// refuses `inf`/`nan` before a value is made).
    package func encode(_ values: [Value]) -> String {
        String(decoding: itemText(values), as: UTF8.self)
    }

    /// `encode`'s text as bytes: what a write request carries (`ItemContent.text`).
    package func itemText(_ values: [Value]) -> [UInt8] {
        precondition(
            values.count == entity.attributes.count,
            "\(entity.name): \(values.count) values for \(entity.attributes.count) attributes")
        var json: [UInt8] = [UInt8(ascii: "{")]
        json.reserveCapacity(64 * values.count)
        var first = true
        for (attribute, value) in zip(entity.attributes, values) {
            guard let (tag, payload) = typedText(value) else { continue }
            if !first { json.append(UInt8(ascii: ",")) }
            first = false
            JSONText.appendQuoted(attribute.name, to: &json)
            json.append(contentsOf: #":{""#.utf8)
            json.append(contentsOf: tag.utf8)
            json.append(contentsOf: #"":"#.utf8)
            switch tag {
            case "BOOL": json.append(contentsOf: payload.utf8)
            default: JSONText.appendQuoted(payload, to: &json)
            }
            json.append(UInt8(ascii: "}"))
        }
        json.append(UInt8(ascii: "}"))
        return json
    }

    /// The item as typed attribute values, nulls omitted: what decoding `encode`'s text gives.
    package func encodeObject(_ values: [Value]) -> DynamoItem {
        var item: DynamoItem = [:]
        for (attribute, value) in zip(entity.attributes, values) {
            if let typed = attributeValue(value) { item[attribute.name] = typed }
        }
        return item
    }

    /// One value as a typed attribute value; nil for null.
    package func attributeValue(_ value: Value) -> AttributeValue? {
        guard let (tag, text) = typedText(value) else { return nil }
        switch tag {
        case "S": return .s(text)
        case "N": return .n(text)
        case "B": return .b(text)
        default: return .bool(text == "true")
        }
    }

    /// An item's key alone (`["id": .s("…")]`).
    package func key(_ key: Value) -> DynamoItem {
        var item: DynamoItem = [:]
        for (name, part) in zip(entity.keyAttributes, entity.keyParts(key)) {
            item[name] = attributeValue(part) ?? .null
        }
        return item
    }

    /// The key schema's type of a key attribute (`AttributeType.canBeKey`, or a date range
    /// key): `S` for text and ISO-8601 dates, else `N`.
    package static func keyType(of type: AttributeType, dates: DateEncoding = .iso8601) -> String {
        type.isText || (type == .date && dates == .iso8601) ? "S" : "N"
    }

    /// DynamoDB's type tag and the value's text under it (`BOOL`'s is the JSON literal); nil for null.
    private func typedText(_ value: Value) -> (tag: String, text: String)? {
        switch value {
        case .null: return nil
        case .string(let text): return ("S", text)
        case .integer(let number): return ("N", String(number))
        case .decimal(let text): return ("N", text)
        case .double(let number): return ("N", DynamoNumberText.plain(number))
        case .date(let millis):
            switch dates {
            case .iso8601: return ("S", ISO8601.format(millis: millis))
            case .epochSeconds: return ("N", DynamoNumberText.epochSeconds(millis: millis))
            }
        case .boolean(let flag): return ("BOOL", flag ? "true" : "false")
        case .binary(let bytes): return ("B", Base64.encode(bytes))
        case .pair: return ("S", value.description)  // a key's parts are attributes of their own (`key(_:)`)
        }
    }

    // MARK: DynamoItem size

    /// Bytes DynamoDB counts toward its 400 KB item limit: for every non-null attribute, the
    /// UTF-8 length of its name plus its value's size.
    ///
    /// The rules of the DynamoDB Developer Guide, "DynamoDB item sizes and formats"
    /// (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html):
    /// - a string is its number of UTF-8 bytes;
    /// - a number is "approximately (1 byte per two significant digits) + (1 byte)", leading
    ///   and trailing zeros trimmed — taken here as ⌈significant digits / 2⌉ + 1;
    /// - a Boolean (or null) is 1 byte.
    /// Nulls are omitted from the item (see `encode`), so they count nothing. With `version`,
    /// the item's version attribute is counted as holding it (the values are not copied).
    package func itemSize(_ values: [Value], version: Int64? = nil) -> Int {
        precondition(
            values.count == entity.attributes.count,
            "\(entity.name): \(values.count) values for \(entity.attributes.count) attributes")
        var size = 0
        for (index, (attribute, stored)) in zip(entity.attributes, values).enumerated() {
            let value = index == entity.versionIndex ? version.map(Value.integer) ?? stored : stored
            guard let (tag, text) = typedText(value) else { continue }
            size += attribute.name.utf8.count
            switch tag {
            case "S": size += text.utf8.count
            case "N": size += (DynamoNumberText.significantDigitCount(text) + 1) / 2 + 1
            case "B":
                size +=
                    text.utf8.count / 4 * 3 - text.utf8.reversed().prefix(2).filter { $0 == UInt8(ascii: "=") }.count
            default: size += 1
            }
        }
        return size
    }

    // MARK: Decoding

    /// Parses an item as DynamoDB returns it back to values by attribute position; missing
    /// attributes (and `{"NULL": true}`) are `.null`. Attributes the entity does not have are ignored.
    ///
    /// Throws `DynamoItemDecodingError` (attribute name, what was found, what was expected) for
    /// a wrong type or an unparsable or out-of-range number or date.
    package func decode(_ item: DynamoItem) throws -> [Value] {
        try entity.attributes.map { attribute in
            guard let raw = item[attribute.name] else { return .null }
            return try decode(raw, as: attribute)
        }
    }

    private func decode(_ raw: AttributeValue, as attribute: Attribute) throws -> Value {
        if raw == .null { return .null }
        func fail(_ expected: String) -> DynamoItemDecodingError {
            DynamoItemDecodingError(attribute: attribute.name, found: raw.description, expected: expected)
        }
        func text(_ tag: String, _ expected: String) throws -> String {
            switch (tag, raw) {
            case ("S", .s(let text)), ("N", .n(let text)): return text
            default: throw fail(expected)
            }
        }

        switch attribute.type {
        case .string:
            return .string(try text("S", "an S (string)"))
        case .uuid:
            guard let canonical = UUIDText.canonical(try text("S", "an S holding a UUID")) else {
                throw fail("an S holding a UUID")
            }
            return .string(canonical)
        case .uri:
            return .string(try text("S", "an S (a URI)"))
        case .binary:
            guard case .b(let base64) = raw, let bytes = Base64.decode(base64) else {
                throw fail("a B (binary, base64 in JSON)")
            }
            return .binary(bytes)
        case .int16, .int32, .int64:
            let range = attribute.type.integerRange!
            let expected =
                "an N holding a whole number in \(range.lowerBound)...\(range.upperBound) (\(attribute.type.rawValue))"
            guard let number = DynamoNumberText.integer(try text("N", expected)), range.contains(number) else {
                throw fail(expected)
            }
            return .integer(number)
        case .decimal:
            let expected = "an N holding a decimal number"
            guard let canonical = DecimalText.canonical(try text("N", expected)) else { throw fail(expected) }
            return .decimal(canonical)
        case .double, .float:
            let expected = "an N holding a finite number (\(attribute.type.rawValue))"
            guard let number = Double(try text("N", expected)), number.isFinite else { throw fail(expected) }
            return .double(number)
        case .date:
            switch dates {
            case .iso8601:
                let expected = "an S holding a date as YYYY-MM-DDTHH:MM:SS.sssZ (dateEncoding iso8601)"
                switch ISO8601.parse(try text("S", expected)) {
                case .success(let millis): return .date(millis)
                case .failure(let problem): throw fail("\(expected); the text \(problem.message)")
                }
            case .epochSeconds:
                let expected =
                    "an N holding epoch seconds with at most millisecond precision (dateEncoding epochSeconds)"
                guard let millis = DynamoNumberText.epochMillis(seconds: try text("N", expected)) else {
                    throw fail(expected)
                }
                return .date(millis)
            }
        case .boolean:
            guard case .bool(let flag) = raw else { throw fail("a BOOL (true or false)") }
            return .boolean(flag)
        }
    }
}

/// DynamoDB `N` text: plain decimal digits, exact.
enum DynamoNumberText {
    /// A finite double as plain decimal text of its shortest round-trip digits: `1e-07` becomes
    /// `0.0000001`, `1e+21` becomes `1000000000000000000000`, `-0.0` becomes `0` (DynamoDB
    /// numbers have no negative zero). Parsing the text with `Double(_:)` gives the double back.
    static func plain(_ number: Double) -> String {
        precondition(
            number.isFinite, "DynamoDB numbers cannot hold \(number); inf and nan are refused at input (docs/values.md)"
        )
        return DecimalText.canonical(String(describing: number))!
    }

    /// Epoch milliseconds as seconds with the fraction's trailing zeros dropped
    /// (`1709288130250` → `1709288130.25`, `1709288130000` → `1709288130`, `-1500` → `-1.5`).
    static func epochSeconds(millis: Int64) -> String {
        DecimalText.canonical("\(millis)e-3")!
    }

    /// Epoch seconds text back to milliseconds; nil if it is not a number, has a non-zero
    /// digit below the millisecond, or is out of Int64's range.
    static func epochMillis(seconds text: String) -> Int64? {
        guard let seconds = DecimalText.canonical(text), let millis = DecimalText.canonical(seconds + "e3") else {
            return nil
        }
        return Int64(millis)
    }

    /// A whole number's value; nil for a fraction, a non-number or a value outside Int64.
    /// Accepts any form DynamoDB may return (`12`, `1.2E+1`, `12.0`).
    static func integer(_ text: String) -> Int64? {
        if let number = Int64(text) { return number }
        guard let canonical = DecimalText.canonical(text) else { return nil }
        return Int64(canonical)
    }

    /// Significant digits of number text: digits with leading and trailing zeros trimmed.
    static func significantDigitCount(_ text: String) -> Int {
        var digits = text.utf8.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
            .filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }[...]
        while digits.first == UInt8(ascii: "0") { digits.removeFirst() }
        while digits.last == UInt8(ascii: "0") { digits.removeLast() }
        return digits.count
    }
}
