/// JSON pointers in documents (`/districts/3/towns/17`), packed in one buffer: a document's
/// elements', and a chunk's records'. A `String` each would cost an allocation per record, made
/// by the thread that parsed it and freed by the one that wrote it. Read only for rejections.
package struct PointerTable: Sendable {
    private var bytes: [UInt8] = []
    private var ends: [Int] = []

    package init() {}

    package var count: Int { ends.count }

    package mutating func append(_ pointer: String) {
        bytes.append(contentsOf: pointer.utf8)
        ends.append(bytes.count)
    }

    /// Appends the pointer of element `position` of the array at `arrayPointer` (`/towns`) in
    /// the element whose pointer is this table's `parent`th, or in the root (nil).
    package mutating func append(position: Int, of arrayPointer: [UInt8], under parent: Int?) {
        // Byte by byte: a slice of `bytes` appended to it would copy the whole buffer.
        if let parent {
            for index in range(of: parent) { bytes.append(bytes[index]) }
        }
        bytes.append(contentsOf: arrayPointer)
        bytes.append(47)  // /
        if position == 0 {
            bytes.append(48)  // 0
        } else {
            let start = bytes.count
            var rest = position
            while rest > 0 {
                bytes.append(48 + UInt8(rest % 10))
                rest /= 10
            }
            bytes[start...].reverse()
        }
        ends.append(bytes.count)
    }

    /// Appends `other`'s pointer at `index`.
    mutating func append(_ other: PointerTable, at index: Int) {
        let range = other.range(of: index)
        other.bytes.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[range])) }
        ends.append(bytes.count)
    }

    package subscript(index: Int) -> String {
        String(decoding: bytes[range(of: index)], as: UTF8.self)
    }

    private func range(of index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

    /// The table of the pointers at `positions`, in that order.
    func selecting(_ positions: [Int]) -> PointerTable {
        var table = PointerTable()
        table.ends.reserveCapacity(positions.count)
        for position in positions { table.append(self, at: position) }
        return table
    }
}
