import Foundation

/// Zeroed, fixed-size storage for a large hash table. Tables of 2 MiB and more are anonymous
/// memory, zeroed by the kernel a page at a time as probes first touch it (no pass over all of
/// it up front, and none at all over pages a small run never reaches), aligned for transparent
/// huge pages, so that their random probes miss the TLB far less often.
package final class SlotArray<Slot> {
    let pointer: UnsafeMutablePointer<Slot>
    let count: Int
    /// The mapping to unmap, for tables that are one.
    private let mapping: (start: UnsafeMutableRawPointer, bytes: Int)?

    private static var hugePage: Int { 2 << 20 }

    init(count: Int) {
        self.count = count
        let bytes = max(count * MemoryLayout<Slot>.stride, 1)
        let memory: UnsafeMutableRawPointer
        if bytes >= Self.hugePage,
            let start = mmap(nil, bytes + Self.hugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            start != MAP_FAILED
        {
            mapping = (start, bytes + Self.hugePage)
            memory = start.alignedUp(toMultipleOf: Self.hugePage)
            _ = madvise(memory, bytes, MADV_HUGEPAGE)  // advice only: without it the table still works
        } else {
            guard let allocated = calloc(bytes, 1) else { fatalError("out of memory for a table of \(bytes) bytes") }
            mapping = nil
            memory = allocated
        }
        pointer = memory.bindMemory(to: Slot.self, capacity: count)
    }

    deinit {
        if let mapping { munmap(mapping.start, mapping.bytes) } else { free(pointer) }
    }

    subscript(index: Int) -> Slot {
        get { pointer[index] }
        set { pointer[index] = newValue }
    }
}
