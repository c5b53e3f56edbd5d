import CMalloc

/// How the command's process gives freed memory back to the system (docs/documents.md#large-documents).
///
/// glibc's malloc raises its `mmap` threshold each time a large block is freed, up to 32 MiB,
/// and then keeps up to twice that much freed memory in the process. A fixed threshold of 8 MiB
/// hands the largest buffers (a large document's text and its records' arrays) back as soon as
/// they are freed, while the smaller ones that the stages allocate and free for every chunk stay
/// where malloc reuses them (a 1 MiB threshold made a million-row CSV import 10% slower).
enum MemoryReturn {
    static func configure() {
        #if os(Linux)
            _ = mallopt(M_MMAP_THRESHOLD, 8 << 20)
        #endif
    }
}
