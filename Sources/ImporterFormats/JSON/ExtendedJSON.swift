import Foundation
import ImporterCore

/// MongoDB Extended JSON (canonical and relaxed, as `mongoexport` writes it): an object whose
/// keys are exactly one of its wrappers is one value, never a nested object (docs/documents.md#mongodb-values).
enum ExtendedJSON {
    /// The value the object at `index` stands for, or nil when it is an ordinary object.
    static func value(of index: Int, in tree: JSONTree) -> FieldValue? {
        let first = tree.nodes[index].firstChild
        guard tree.nodes[index].kind == .object, first >= 0, tree.nodes[first].key?.utf8.first == UInt8(ascii: "$")
        else { return nil }
        let members = Array(tree.children(of: index))
        guard members.count <= 2, let first = tree.nodes[members[0]].key, first.hasPrefix("$") else { return nil }
        func text(_ member: Int) -> String? {
            if case .text(let text) = tree.nodes[member].value, tree.nodes[member].kind == .scalar { return text }
            return nil
        }
        if members.count == 2 {
            // The legacy binary form: {"$binary": "base64", "$type": "00"}.
            guard first == "$binary", tree.nodes[members[1]].key == "$type", let base64 = text(members[0]) else {
                return nil
            }
            return .text(base64)
        }
        let member = members[0]
        switch first {
        case "$oid", "$uuid", "$symbol":
            return text(member).map(FieldValue.text)
        case "$numberInt", "$numberLong", "$numberDecimal":
            guard let number = text(member) else { return nil }
            return .number(number)
        case "$numberDouble":
            guard let number = text(member) else { return nil }
            // Infinity, -Infinity and NaN are not JSON numbers: as text, a decimal or double
            // attribute refuses them with a type rejection.
            return Double(number)?.isFinite == true ? .number(number) : .text(number)
        case "$date":
            if let iso = text(member) { return .text(iso) }
            // Canonical: {"$date": {"$numberLong": "1700000000000"}}; a bare number in old exports.
            let millis: String?
            if case .number(let number) = tree.nodes[member].value, tree.nodes[member].kind == .scalar {
                millis = number
            } else if let inner = ExtendedJSON.value(of: member, in: tree), case .number(let number) = inner {
                millis = number
            } else {
                millis = nil
            }
            guard let millis, let count = Int64(millis) else { return nil }
            return .text(isoText(millisecondsSinceEpoch: count))
        case "$binary":
            // Canonical v2: {"$binary": {"base64": "…", "subType": "00"}}.
            guard tree.nodes[member].kind == .object,
                let data = tree.node(at: ["base64"], from: member), let base64 = text(data)
            else { return nil }
            return .text(base64)
        default:
            return nil
        }
    }

    /// `2023-11-14T22:13:20.000Z` for a count of milliseconds since 1970.
    static func isoText(millisecondsSinceEpoch millis: Int64) -> String {
        // Years 0 to 9999: written as the model's timestamps are, without the C library's calendar.
        if (-62_167_219_200_000..<253_402_300_800_000).contains(millis) { return ISO8601.format(millis: millis) }
        let seconds = millis.quotientAndRemainder(dividingBy: 1000)
        let (whole, fraction) = seconds.remainder < 0 ? (seconds.quotient - 1, seconds.remainder + 1000) : seconds
        var time = time_t(whole)
        var parts = tm()
        gmtime_r(&time, &parts)
        let year = Int(parts.tm_year) + 1900
        guard (0...9999).contains(year) else {
            // Beyond four digits: the year as it is, then the same fields.
            func digits(_ value: Int32, _ count: Int) -> String {
                let text = String(value)
                return String(repeating: "0", count: max(0, count - text.count)) + text
            }
            return "\(digits(parts.tm_year + 1900, 4))-\(digits(parts.tm_mon + 1, 2))-\(digits(parts.tm_mday, 2))T"
                + "\(digits(parts.tm_hour, 2)):\(digits(parts.tm_min, 2)):\(digits(parts.tm_sec, 2))."
                + "\(digits(Int32(fraction), 3))Z"
        }
        // YYYY-MM-DDTHH:MM:SS.sssZ, written digit by digit: no string per field.
        return String(unsafeUninitializedCapacity: 24) { text in
            var index = 0
            func put(_ value: Int, _ count: Int, then separator: UInt8) {
                var value = value
                for offset in stride(from: count - 1, through: 0, by: -1) {
                    text[index + offset] = UInt8(48 + value % 10)
                    value /= 10
                }
                text[index + count] = separator
                index += count + 1
            }
            put(year, 4, then: 45)  // -
            put(Int(parts.tm_mon) + 1, 2, then: 45)
            put(Int(parts.tm_mday), 2, then: 84)  // T
            put(Int(parts.tm_hour), 2, then: 58)  // :
            put(Int(parts.tm_min), 2, then: 58)
            put(Int(parts.tm_sec), 2, then: 46)  // .
            put(Int(fraction), 3, then: 90)  // Z
            return index
        }
    }
}
