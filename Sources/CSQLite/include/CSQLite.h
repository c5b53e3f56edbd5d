// The SQLite the store is built on: the amalgamation beside this folder, compiled with the
// options in Package.swift (docs/writes.md#the-sqlite-library).
#include "sqlite3.h"
