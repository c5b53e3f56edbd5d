import Foundation
import ImporterCore

/// The order of key values in the indexes of the store's tables (SQLite's BINARY collation):
/// text by its UTF-8 bytes, integers by value, pairs by hash key, then range key. Keys of other
/// types are not ordered here.
enum KeyOrder {
    /// Whether `a` sorts strictly before `b` in the store's index; false when it does not, or
    /// when that is not known here (other types, a text beside an integer).
    static func precedes(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.string(var x), .string(var y)):
            return x.withUTF8 { a in
                y.withUTF8 { b in
                    let common = min(a.count, b.count)
                    let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
                    return order < 0 || (order == 0 && a.count < b.count)
                }
            }
        case (.integer(let x), .integer(let y)): return x < y
        case (.pair(let hashA, let rangeA), .pair(let hashB, let rangeB)):
            return precedes(hashA, hashB) || (same(hashA, hashB) && precedes(rangeA, rangeB))
        default: return false
        }
    }

    /// The same in the index: the same bytes (Swift's `==` on strings is canonical equivalence).
    private static func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
        case (.integer(let x), .integer(let y)): return x == y
        default: return false
        }
    }
}
