/// A stored item read in place, cell by cell, without making `Value`s: exports stream millions
/// of them. Cells are read by attribute position, as the attribute's type says.
package protocol StoredRow {
    func isNull(_ index: Int) -> Bool
    /// Integer types, and booleans as 0/1.
    func integer(_ index: Int) -> Int64
    /// double and float.
    func double(_ index: Int) -> Double
    /// string and decimal text, and dates as `YYYY-MM-DDTHH:MM:SS.sssZ`, as UTF-8 bytes valid
    /// only during `body`.
    func withText<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result
    /// The bytes of a binary value, valid only during `body`.
    func withBytes<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result
}

/// A row of `Value`s as a `StoredRow`: how stores without an in-place reader hand out rows.
package struct ValuesRow: StoredRow {
    package let values: [Value]

    package init(_ values: [Value]) { self.values = values }

    package func isNull(_ index: Int) -> Bool { values[index].isNull }

    package func integer(_ index: Int) -> Int64 {
        switch values[index] {
        case .integer(let number): return number
        case .boolean(let flag): return flag ? 1 : 0
        default: return 0
        }
    }

    package func double(_ index: Int) -> Double {
        if case .double(let number) = values[index] { return number }
        return 0
    }

    package func withText<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
    {
        var text: String
        switch values[index] {
        case .string(let value), .decimal(let value): text = value
        case .date(let millis): text = ISO8601.format(millis: millis)
        default: text = values[index].description
        }
        return try text.withUTF8(body)
    }

    package func withBytes<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        guard case .binary(let bytes) = values[index] else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try bytes.withUnsafeBytes(body)
    }
}
