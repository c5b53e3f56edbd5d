/// The texts a CSV dump may write for null: empty, `NA`, `NULL`, `\N`. Inference counts each
/// per column; which of them become the source's `csv.nullValues` is decided per file
/// (`choose`): empty always, `NULL` and `\N` when seen, `NA` only where it stands in a column
/// of numbers, dates, booleans or UUIDs (else it may be a value: Namibia, "not applicable").
package enum NullMarkers {
    /// The markers, in the order `nullValues` lists them.
    package static let all = ["", "NA", "NULL", "\\N"]

    /// The index of `text` in `all`, if it is a marker.
    @inline(__always)
    static func index(of text: String) -> Int? {
        // `==` of small strings compares their inline bytes: no iteration.
        switch text.utf8.count {
        case 0: return 0
        case 2: return text == "NA" ? 1 : text == "\\N" ? 3 : nil
        case 4: return text == "NULL" ? 2 : nil
        default: return nil
        }
    }

    /// The index of the text `bytes` in `all`, if it is a marker.
    @inline(__always)
    static func index(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        switch bytes.count {
        case 0: return 0
        case 2: return bytes[0] == 78 && bytes[1] == 65 ? 1 : bytes[0] == 92 && bytes[1] == 78 ? 3 : nil  // NA, \N
        case 4: return bytes[0] == 78 && bytes[1] == 85 && bytes[2] == 76 && bytes[3] == 76 ? 2 : nil  // NULL
        default: return nil
        }
    }

    /// Whether `text` is one of the markers.
    package static func isMarker(_ text: String) -> Bool { index(of: text) != nil }

    /// The hash standing for marker `index` in a column's key hashes until the marker is
    /// decided (`KeyHash.null` + 1 + index).
    static func placeholder(_ index: Int) -> UInt64 { UInt64(index) + 1 }

    /// Which markers are null for a file whose columns are `columns`.
    static func choose(_ columns: [ColumnProfile]) -> [Bool] {
        var chosen = [true, false, false, false]
        for column in columns {
            if column.markerCounts[2] > 0 { chosen[2] = true }
            if column.markerCounts[3] > 0 { chosen[3] = true }
            if column.markerCounts[1] > 0,
                column.types.count == 0 || column.types.narrowest.map({ $0 != .string }) ?? false
            {
                chosen[1] = true
            }
        }
        return chosen
    }
}
