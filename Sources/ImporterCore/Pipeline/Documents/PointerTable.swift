/// The JSON pointers of a chunk's records in their documents (`/districts/3/towns/17`), packed
/// in one buffer: a `String` each would cost an allocation per record, made by the thread
/// that parsed it and freed by the one that wrote it. Read only for rejections.
struct PointerTable: Sendable {
    private var bytes: [UInt8] = []
    private var ends: [Int] = []

    var count: Int { ends.count }

    mutating func append(_ pointer: String) {
        bytes.append(contentsOf: pointer.utf8)
        ends.append(bytes.count)
    }

    subscript(index: Int) -> String {
        String(decoding: bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]], as: UTF8.self)
    }

    /// The table of the pointers at `positions`, in that order.
    func selecting(_ positions: [Int]) -> PointerTable {
        var table = PointerTable()
        table.ends.reserveCapacity(positions.count)
        for position in positions { table.append(self[position]) }
        return table
    }
}
