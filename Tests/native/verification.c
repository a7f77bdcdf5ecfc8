/*
 * Verification through the C ABI: on the device, on a server (Tests/python/verification_server.py on
 * loopback), iosiap_verify_transaction for a backend, and bad verification options.
 * Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
 * over StoreKit, where on the device is StoreKit's own verdict and a server is asked after it passed (iosiap.h,
 * iosiap_storekit_options.verification): its App Store is the local store on CATALOG in STATE_DIRECTORY, each
 * scenario's journal in a folder of it, and the JWS it hands over verifies with that App Store's root. Trusting
 * another root is the local store's on-device verifier only: it is checked in the local build alone.
 * usage: verification CATALOG STATE_DIRECTORY SERVER_PORT
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep, setenv */
#include <iosiap/iosiap.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "wait_for.h"

#ifdef IOSIAP_STOREKIT_STANDIN
/* The stand-in's App Store is a local store opened with its default bundle id (StandInAppStore.shared), which
   signs it into every transaction StoreKit hands over. */
#define BUNDLE_ID "com.example.game"
#else
#define BUNDLE_ID "com.iosiap.example"
#endif

typedef struct seen {
    int kind, status, verified, ended;
    char jws[8192];
} seen;

static void on_event(const iosiap_event *event, void *user_data) {
    seen *s = (seen *)user_data;
    if (event->kind == IOSIAP_EVENT_PURCHASING || event->request_id == 0) return;
    s->kind = event->kind;
    s->status = event->status;
    s->verified = event->verified;
    if (event->transaction && event->transaction->signed_jws) {
        snprintf(s->jws, sizeof s->jws, "%s", event->transaction->signed_jws);
    }
    s->ended++;
}

/* Polls between frames until `count` requests have ended (at most about 10 s). */
static void wait_ended(iosiap_store *store, seen *s, int count) {
    int frame;
    for (frame = 0; frame < 5000 && s->ended < count; frame++) {
        iosiap_poll(store, 0);
        between_frames(2);
    }
}

/* Opens the store (open_store.h) with `verification` and `callbacks`, its state in `directory`: over StoreKit the
   journal is there, on the App Store main names. The open's status. */
static int open_store(iosiap_store **out, const char *catalog, const char *directory,
                      const iosiap_verification_options *verification, const iosiap_callbacks *callbacks) {
    test_store_options how = {BUNDLE_ID, IOSIAP_DELIVERY_POLL, NULL, NULL};
    how.verification = verification;
    how.journal = directory;
    return open_test_store_with(out, catalog, directory, &how, callbacks);
}

/* Opens a store in `directory` with `verification`, loads the coins and buys them once. */
static iosiap_store *buy(const char *catalog, const char *directory, const iosiap_verification_options *verification, seen *s) {
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    iosiap_store *store = NULL;
    const char *ids[] = {"com.iosiap.example.coins_100"};
    callbacks.on_event = on_event;
    callbacks.user_data = s;
    if (open_store(&store, catalog, directory, verification, &callbacks) != IOSIAP_OK) return NULL;
    iosiap_request_products(NULL, store, ids, 1);
    wait_ended(store, s, 1);
    iosiap_request_payment(NULL, store, ids[0], 1, NULL);
    wait_ended(store, s, 2);
    return store;
}

static uint8_t *read_file(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    uint8_t *bytes = malloc(65536);
    *length = file && bytes ? fread(bytes, 1, 65536, file) : 0;
    if (file) fclose(file);
    return bytes;
}

int main(int argc, char **argv) {
    iosiap_verification_options verification = IOSIAP_VERIFICATION_OPTIONS_INIT;
#ifndef IOSIAP_STOREKIT_STANDIN
    iosiap_local_store_options options = IOSIAP_LOCAL_STORE_OPTIONS_INIT;
#endif
    iosiap_store *store;
    seen s;
    char directory[512], url[256], root_path[600];
    char *payload = NULL;
    uint8_t *root;
    size_t root_length;

    if (argc != 4) return 2;
    /* wait_for.h's counting by kind is not used: events are kept in `seen` here. */
    (void)count_event;
    (void)wait_for;
#ifdef IOSIAP_STOREKIT_STANDIN
    /* StoreKit's App Store: the local store on CATALOG in STATE_DIRECTORY (as open_test_store has it), unless the
       environment names another. */
    setenv("IOSIAP_STOREKIT_CONFIGURATION", argv[1], 0);
    setenv("IOSIAP_STOREKIT_STATE", argv[2], 0);
#endif

    /* On the device: the local store's own root by default; over StoreKit, StoreKit's verdict. */
    memset(&s, 0, sizeof s);
    verification.mode = IOSIAP_VERIFY_ON_DEVICE;
    snprintf(directory, sizeof directory, "%s/on-device", argv[2]);
    store = buy(argv[1], directory, &verification, &s);
    EXPECT(store != NULL);
    EXPECT(s.kind == IOSIAP_EVENT_PURCHASED && s.verified == 1 && strlen(s.jws) > 100);
    {
        int verifies = -1;
        EXPECT(iosiap_store_verifies(&verifies, store) == IOSIAP_OK && verifies == 1);
        EXPECT(iosiap_store_verifies(NULL, store) == IOSIAP_E_INVALID_ARGUMENT);
    }
    iosiap_store_close(store);

    /* Opened without verification, a store says so: the local store delivers unchecked; StoreKit still verifies. */
    {
        int verifies = -1;
        char unchecked[512];
        snprintf(unchecked, sizeof unchecked, "%s/unchecked", argv[2]);
        EXPECT(open_store(&store, argv[1], unchecked, NULL, NULL) == IOSIAP_OK);
        EXPECT(iosiap_store_verifies(&verifies, store) == IOSIAP_OK);
#ifdef IOSIAP_STOREKIT_STANDIN
        EXPECT(verifies == 1);
#else
        EXPECT(verifies == 0);
#endif
        iosiap_store_close(store);
    }

    /* A backend verifies the same JWS with the store's root, and refuses it otherwise. */
#ifdef IOSIAP_STOREKIT_STANDIN
    /* The stand-in hands over the JWS its App Store's local store signed (Transaction.jwsRepresentation), whose
       root is in that store's state. */
    snprintf(root_path, sizeof root_path, "%s/signing/root.der", getenv("IOSIAP_STOREKIT_STATE"));
#else
    snprintf(root_path, sizeof root_path, "%s/signing/root.der", directory);
#endif
    root = read_file(root_path, &root_length);
    EXPECT(root_length > 100);
    EXPECT(iosiap_verify_transaction(&payload, s.jws, root, root_length, BUNDLE_ID, "Sandbox") == IOSIAP_OK);
    EXPECT(payload && strstr(payload, "\"productId\":\"com.iosiap.example.coins_100\""));
    iosiap_string_free(payload);
    iosiap_string_free(NULL);
    EXPECT(iosiap_verify_transaction(&payload, s.jws, NULL, 0, BUNDLE_ID, "Sandbox") == IOSIAP_E_VERIFY_UNTRUSTED_CHAIN);
    EXPECT(payload == NULL);
    EXPECT(iosiap_verify_transaction(&payload, s.jws, root, root_length, "com.other", "Sandbox") == IOSIAP_E_VERIFY_INVALID_APP_IDENTIFIER);
    EXPECT(iosiap_verify_transaction(&payload, s.jws, root, root_length, BUNDLE_ID, NULL) == IOSIAP_E_VERIFY_INVALID_ENVIRONMENT);
    EXPECT(iosiap_verify_transaction(&payload, "a.b", root, root_length, BUNDLE_ID, "Sandbox") == IOSIAP_E_VERIFY_INVALID_FORMAT);
    EXPECT(iosiap_verify_transaction(&payload, s.jws, root, root_length, BUNDLE_ID, "Staging") == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_verify_transaction(NULL, s.jws, root, root_length, BUNDLE_ID, "Sandbox") == IOSIAP_E_INVALID_ARGUMENT);

#ifndef IOSIAP_STOREKIT_STANDIN /* over StoreKit ON_DEVICE is StoreKit's own verdict: no trusted root applies (iosiap.h) */
    /* Trusting another root on the device: the purchase is reported, neither granted nor finished. */
    memset(&s, 0, sizeof s);
    verification.trusted_root_der = root;
    verification.trusted_root_der_length = root_length;
    snprintf(directory, sizeof directory, "%s/other-root", argv[2]);
    store = buy(argv[1], directory, &verification, &s);
    EXPECT(s.kind == IOSIAP_EVENT_VERIFICATION_FAILED && s.status == IOSIAP_E_VERIFY_UNTRUSTED_CHAIN && s.verified == 0);
    iosiap_store_close(store);
#endif
    free(root);

    /* On a server (over StoreKit, asked once StoreKit's verdict passed). */
    memset(&s, 0, sizeof s);
    verification = (iosiap_verification_options)IOSIAP_VERIFICATION_OPTIONS_INIT;
    verification.mode = IOSIAP_VERIFY_SERVER;
    snprintf(url, sizeof url, "http://127.0.0.1:%s/valid", argv[3]);
    verification.server_url = url;
    snprintf(directory, sizeof directory, "%s/server-valid", argv[2]);
    store = buy(argv[1], directory, &verification, &s);
    EXPECT(s.kind == IOSIAP_EVENT_PURCHASED && s.verified == 1);
    iosiap_store_close(store);
    memset(&s, 0, sizeof s);
    snprintf(url, sizeof url, "http://127.0.0.1:%s/rejected", argv[3]);
    snprintf(directory, sizeof directory, "%s/server-rejected", argv[2]);
    store = buy(argv[1], directory, &verification, &s);
    EXPECT(s.kind == IOSIAP_EVENT_VERIFICATION_FAILED && s.status == IOSIAP_E_VERIFY_REJECTED_BY_SERVER);
    iosiap_store_close(store);
    memset(&s, 0, sizeof s);
    snprintf(url, sizeof url, "http://127.0.0.1:%s/error500", argv[3]);
    verification.attempts = 1;
    snprintf(directory, sizeof directory, "%s/server-down", argv[2]);
    store = buy(argv[1], directory, &verification, &s);
    EXPECT(s.kind == IOSIAP_EVENT_VERIFICATION_FAILED && s.status == IOSIAP_E_VERIFY_RETRYABLE);
    iosiap_store_close(store);

    /* Bad options, refused before anything opens by the C ABI layer both stores share (VerificationOptions.swift). */
    snprintf(directory, sizeof directory, "%s/bad", argv[2]);
    verification.mode = 9;
    EXPECT(open_store(&store, argv[1], directory, &verification, NULL) == IOSIAP_E_INVALID_ARGUMENT);
    verification.mode = IOSIAP_VERIFY_SERVER;
    verification.server_url = "ftp://example.com/verify";
    EXPECT(open_store(&store, argv[1], directory, &verification, NULL) == IOSIAP_E_INVALID_ARGUMENT &&
           strstr(iosiap_last_error_message(), "ftp://"));
    verification.server_url = NULL;
    EXPECT(open_store(&store, argv[1], directory, &verification, NULL) == IOSIAP_E_INVALID_ARGUMENT);
    verification.version = 7;
    EXPECT(open_store(&store, argv[1], directory, &verification, NULL) == IOSIAP_E_INVALID_ARGUMENT);
#ifndef IOSIAP_STOREKIT_STANDIN /* iosiap_local_store_options' version 1; iosiap_storekit_options had `verification` from its first */
    /* A version 1 caller's struct ends before `verification`: the library must not read it. */
    options.catalog_path = argv[1];
    options.state_directory = directory;
    options.version = 1;
    options.verification = (const iosiap_verification_options *)(void *)&failures;
    EXPECT(iosiap_store_open_local(&store, &options, NULL) == IOSIAP_OK);
    iosiap_store_close(store);
#endif

    printf("verification: %d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
