/// A set of byte lengths, a bit each (lengths of 63 and more share the last): a key or a cell
/// whose length is not in the set is told apart from the words of those lengths without
/// comparing its bytes to them.
struct ByteLengths {
    private let bits: UInt64

    init(_ lengths: some Sequence<Int>) { bits = lengths.reduce(0) { $0 | Self.bit($1) } }

    @inline(__always)
    func contains(_ length: Int) -> Bool { bits & Self.bit(length) != 0 }

    @inline(__always)
    private static func bit(_ length: Int) -> UInt64 { 1 << UInt64(min(length, 63)) }
}
