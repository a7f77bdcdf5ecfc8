#ifndef IOSIAP_CCRYPTO_SHIM_H
#define IOSIAP_CCRYPTO_SHIM_H
/* OpenSSL 3's libcrypto (Debian: libssl-dev). Wrappers for what Swift cannot import: macros and the
 * type-checked STACK_OF helpers. */
#include <openssl/asn1.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

static inline void iosiap_crypto_free(void *pointer) { OPENSSL_free(pointer); }

/* EVP_PKEY_Q_keygen is variadic, which Swift cannot call. */
static inline EVP_PKEY *iosiap_generate_p256_key(void) { return EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256"); }

/* Sets a certificate's validity: from `start` (Unix seconds) for `days` days. */
static inline int iosiap_x509_set_validity(X509 *certificate, time_t start, int days) {
    return X509_time_adj_ex(X509_getm_notBefore(certificate), 0, 0, &start) != NULL &&
           X509_time_adj_ex(X509_getm_notAfter(certificate), days, 0, &start) != NULL;
}

static inline STACK_OF(X509) *iosiap_x509_stack_new(void) { return sk_X509_new_null(); }
static inline int iosiap_x509_stack_push(STACK_OF(X509) *stack, X509 *certificate) { return sk_X509_push(stack, certificate); }
static inline int iosiap_x509_stack_count(const STACK_OF(X509) *stack) { return sk_X509_num(stack); }
static inline X509 *iosiap_x509_stack_at(const STACK_OF(X509) *stack, int index) { return sk_X509_value(stack, index); }
/* Frees the stack and the certificates in it. */
static inline void iosiap_x509_stack_free_all(STACK_OF(X509) *stack) { sk_X509_pop_free(stack, X509_free); }
/* Frees the stack only. */
static inline void iosiap_x509_stack_free(STACK_OF(X509) *stack) { sk_X509_free(stack); }

#endif
