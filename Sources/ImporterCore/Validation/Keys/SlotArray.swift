import Foundation

/// Zeroed, fixed-size storage for a large hash table. Tables of 2 MiB and more ask for
/// transparent huge pages, so their random probes miss the TLB far less often.
package final class SlotArray<Slot> {
    let pointer: UnsafeMutablePointer<Slot>
    let count: Int

    private static var hugePage: Int { 2 << 20 }

    init(count: Int) {
        self.count = count
        let bytes = count * MemoryLayout<Slot>.stride
        var memory: UnsafeMutableRawPointer?
        if bytes >= Self.hugePage, posix_memalign(&memory, Self.hugePage, bytes) == 0, let memory {
            _ = madvise(memory, bytes, MADV_HUGEPAGE)  // advice only: without it the table still works
        } else {
            memory = malloc(max(bytes, 1))
        }
        guard let memory else { fatalError("out of memory for a table of \(bytes) bytes") }
        memset(memory, 0, bytes)
        pointer = memory.bindMemory(to: Slot.self, capacity: count)
    }

    deinit { free(pointer) }

    subscript(index: Int) -> Slot {
        get { pointer[index] }
        set { pointer[index] = newValue }
    }
}
