import Foundation
import ImporterCore

/// Turns stored items into the bytes of a data file.
protocol ItemEncoder {
    /// What the file starts with (a CSV header row); empty for line formats.
    var header: [UInt8] { get }
    /// Appends one item, line end included.
    func append(_ row: any StoredRow, to bytes: inout [UInt8])
}

/// How an attribute's cells are written, from its type.
enum CellKind {
    case text, decimal, integer, double, boolean, date, binary

    init(_ type: AttributeType) {
        switch type {
        case .string, .uuid, .uri: self = .text
        case .binary: self = .binary
        case .decimal: self = .decimal
        case .int16, .int32, .int64: self = .integer
        case .double, .float: self = .double
        case .boolean: self = .boolean
        case .date: self = .date
        }
    }
}

extension Array where Element == UInt8 {
    /// Appends the base64 text of a stored binary value.
    mutating func appendBase64(_ row: any StoredRow, _ index: Int) {
        row.withBytes(index) { append(contentsOf: Data($0).base64EncodedString().utf8) }
    }

    /// Appends the decimal digits of `number` without making a String.
    mutating func appendDecimal(_ number: Int64) {
        if number < 0 { append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // scratch space for up to 24 digits
        Swift.withUnsafeMutableBytes(of: &digits) { scratch in
            var index = scratch.count
            repeat {
                index -= 1
                scratch[index] = UInt8(truncatingIfNeeded: magnitude % 10) + 48
                magnitude /= 10
            } while magnitude > 0
            self.append(contentsOf: scratch[index...])
        }
    }

    /// Appends a double as the shortest text that reads back to the same value.
    mutating func appendDouble(_ number: Double) {
        var text = number.description
        text.withUTF8 { append(contentsOf: $0) }
    }
}

/// `"name":` for each attribute of `entity`, in model order: what the JSON encoders write
/// before each value.
func jsonKeys(of entity: Entity) -> [[UInt8]] {
    entity.attributes.map { attribute in
        var key: [UInt8] = []
        JSONText.appendQuoted(attribute.name, to: &key)
        key.append(UInt8(ascii: ":"))
        return key
    }
}
