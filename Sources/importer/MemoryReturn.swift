import CMalloc

/// How the command's process gives freed memory back to the system (docs/documents.md#large-documents).
///
/// glibc's malloc raises its `mmap` threshold each time a large block is freed, up to 32 MiB,
/// and then keeps up to twice that much freed memory in the process. A fixed threshold of 8 MiB
/// hands the largest buffers (a large document's text and its records' arrays) back as soon as
/// they are freed, while the smaller ones that the stages allocate and free for every chunk stay
/// where malloc reuses them (a 1 MiB threshold made a million-row CSV import 10% slower).
///
/// A fixed threshold also leaves the trim threshold at its default, 128 KiB: each heap would
/// hand back its free top at that size, and the next chunks would fault its pages in again
/// (a million-row CSV import took 54,000 page faults). A trim threshold of 16 MiB keeps that
/// much at the top of each heap (20,000 faults; 8 MB more resident at the peak).
enum MemoryReturn {
    static func configure() {
        #if os(Linux)
            _ = mallopt(M_MMAP_THRESHOLD, 8 << 20)
            _ = mallopt(M_TRIM_THRESHOLD, 16 << 20)
        #endif
    }
}
