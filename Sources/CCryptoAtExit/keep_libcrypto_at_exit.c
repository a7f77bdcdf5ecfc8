/*
 * OpenSSL 3 registers OPENSSL_cleanup with atexit at its first initialisation, unless that first call passes
 * OPENSSL_INIT_NO_ATEXIT (OpenSSL's OPENSSL_init_crypto(3)). The cleanup frees libcrypto's global state while
 * exit runs, and any thread of ours still verifying a purchase then reads freed memory: a game that returns from
 * main without closing its store, or after a close that stopped waiting for a server verification
 * (iosiap_store_close), would crash or hang on its way out. Initialising first, when the library is loaded, keeps
 * the state until the process is gone. Tests/native/exit_while_verifying.c exits while threads verify.
 */
#include <openssl/crypto.h>

#include "keep_libcrypto_at_exit.h"

void iosiap_internal_keep_libcrypto_at_exit(void) {
    (void)OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, NULL);
}

__attribute__((constructor)) static void keep_libcrypto_at_exit_when_loaded(void) {
    iosiap_internal_keep_libcrypto_at_exit();
}
