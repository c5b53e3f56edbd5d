import ImporterCore

/// The order of key values in the indexes of the store's tables (SQLite's BINARY collation):
/// text by its UTF-8 bytes, integers by value, pairs by hash key, then range key. Keys of other
/// types are not ordered here.
enum KeyOrder {
    /// Whether `a` sorts strictly before `b` in the store's index; false when it does not, or
    /// when that is not known here (other types, a text beside an integer).
    static func precedes(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x.utf8.lexicographicallyPrecedes(y.utf8)
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
