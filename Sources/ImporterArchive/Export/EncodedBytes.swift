import Foundation
import ImporterCore

// What the archive's item encoders (`ArchiveItemEncoder`) append their bytes with.

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
