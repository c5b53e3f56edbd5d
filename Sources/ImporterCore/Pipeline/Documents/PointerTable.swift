/// The JSON pointers of a document's elements (`/districts/3/towns/17`), packed in one buffer.
/// A `String` each would cost an allocation per record, made by the thread that parsed it and
/// freed by the one that wrote it. Read only for rejections.
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
        let inherited = parent.map(range(of:)) ?? 0..<0
        var digits = 1
        var power = 10
        while power <= position {
            digits += 1
            power &*= 10
        }
        let count = inherited.count + arrayPointer.count + 1 + digits
        // Put together on the stack, then appended at once: a slice of `bytes` appended to it
        // would copy the whole buffer, and appending byte by byte checks its capacity each time.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { pointer in
            let base = pointer.baseAddress!
            if !inherited.isEmpty {
                bytes.withUnsafeBufferPointer {
                    base.update(from: $0.baseAddress! + inherited.lowerBound, count: inherited.count)
                }
            }
            var end = inherited.count
            arrayPointer.withUnsafeBufferPointer { segment in
                if let source = segment.baseAddress { (base + end).update(from: source, count: segment.count) }
            }
            end += arrayPointer.count
            base[end] = 47  // /
            var rest = position
            for offset in 1...digits {
                base[count - offset] = 48 + UInt8(rest % 10)
                rest /= 10
            }
            bytes.append(contentsOf: UnsafeBufferPointer(pointer))
        }
        ends.append(bytes.count)
    }

    package subscript(index: Int) -> String {
        String(decoding: bytes[range(of: index)], as: UTF8.self)
    }

    private func range(of index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }

}
