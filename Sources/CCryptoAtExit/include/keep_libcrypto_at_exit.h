#ifndef IOSIAP_KEEP_LIBCRYPTO_AT_EXIT_H
#define IOSIAP_KEEP_LIBCRYPTO_AT_EXIT_H

/* Initialises libcrypto without its exit-time cleanup, if nothing initialised it before (keep_libcrypto_at_exit.c
   does so as the library is loaded). Called again, it does nothing: ChainVerifier calls it so that a game linking a
   static archive of the library (the macOS slice of the XCFramework) links this file, and with it that call.
   Named in our prefix and hidden: it is no part of the C ABI, and in a game's static link it must not meet a name
   of the game's. */
__attribute__((visibility("hidden"))) void iosiap_internal_keep_libcrypto_at_exit(void);

#endif
