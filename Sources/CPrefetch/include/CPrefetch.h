#ifndef IMPORTER_CPREFETCH_H
#define IMPORTER_CPREFETCH_H

/// Asks the CPU to start loading the cache line at `address` for a read, without waiting for
/// it: a hash table probe issued a few records ahead then finds its slot in the cache.
/// (Swift has no prefetch of its own.)
static inline void importer_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
