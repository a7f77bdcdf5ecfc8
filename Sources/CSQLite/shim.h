#ifndef IOSIAP_CSQLITE_SHIM_H
#define IOSIAP_CSQLITE_SHIM_H
// The system SQLite (Debian: libsqlite3-dev). SQLITE_TRANSIENT is a macro Swift cannot import.
#include <sqlite3.h>
static inline sqlite3_destructor_type iosiap_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
