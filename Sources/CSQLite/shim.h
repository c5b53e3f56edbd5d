#include <sqlite3.h>

/// Turns off SQLite's memory statistics, whose global mutex every allocation would take; a
/// no-op (SQLITE_MISUSE) once SQLite is initialized. `sqlite3_config` is variadic, which Swift
/// does not import.
static inline int importer_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
