#ifndef IOSIAP_KEEP_LIBCRYPTO_AT_EXIT_H
#define IOSIAP_KEEP_LIBCRYPTO_AT_EXIT_H

/* Initialises libcrypto without its exit-time cleanup, if nothing initialised it before (keep_libcrypto_at_exit.c
   does so as the library is loaded). Called again, it does nothing: ChainVerifier calls it so that a game linking a
   static archive of the library (the macOS slice of the XCFramework) links this file, and with it that call.
   No part of the C ABI: the prefix keeps it from meeting a name of the game's in a static link, and hidden
   visibility keeps it out of every build's exports (the version scripts export iosiap_*). */
__attribute__((visibility("hidden"))) void iosiap_internal_keep_libcrypto_at_exit(void);

#endif
