// The SQLite the store is built on: the amalgamation beside this folder (sqlite3.c, which
// includes its parts), compiled with the options in Package.swift (docs/writes.md#the-sqlite-library).
#include "sqlite3.h"
