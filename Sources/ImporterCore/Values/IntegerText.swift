/// Whole numbers read from text's bytes, as `Int64(text)` reads them (docs/values.md).
enum IntegerText {
    /// `[+-]?digits`, leading zeros allowed; nil for anything else or a number that overflows.
    @inline(__always)
    static func int64(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard !bytes.isEmpty else { return nil }
        let negative = bytes[0] == 45
        var index = bytes[0] == 43 || negative ? 1 : 0
        guard index < bytes.count else { return nil }
        var value: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- 48
            guard digit <= 9 else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowAgain) =
                negative
                ? times.subtractingReportingOverflow(Int64(digit)) : times.addingReportingOverflow(Int64(digit))
            guard !overflow, !overflowAgain else { return nil }
            value = sum
            index += 1
        }
        return value
    }
}
