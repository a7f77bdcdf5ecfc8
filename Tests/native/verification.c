/*
 * Verification through the C ABI: on the device, on a server (Tests/python/verification_server.py on
 * loopback), iosiap_verify_transaction for a backend, and bad verification options.
 * usage: verification CATALOG STATE_DIRECTORY SERVER_PORT
 */
#define _POSIX_C_SOURCE 200809L
#include <iosiap/iosiap.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "expect.h"

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

static void wait_for(iosiap_store *store, seen *s, int count) {
    struct timespec pause = {0, 2 * 1000 * 1000};
    int frame;
    for (frame = 0; frame < 5000 && s->ended < count; frame++) {
        iosiap_poll(store, 0);
        nanosleep(&pause, NULL);
    }
}

/* Opens a store in `directory` with `verification`, loads the coins and buys them once. */
static iosiap_store *buy(const char *catalog, const char *directory, const iosiap_verification_options *verification, seen *s) {
    iosiap_local_store_options options = IOSIAP_LOCAL_STORE_OPTIONS_INIT;
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    iosiap_store *store = NULL;
    const char *ids[] = {"com.iosiap.example.coins_100"};
    options.catalog_path = catalog;
    options.state_directory = directory;
    options.bundle_id = "com.iosiap.example";
    options.verification = verification;
    callbacks.on_event = on_event;
    callbacks.user_data = s;
    if (iosiap_store_open_local(&store, &options, &callbacks) != IOSIAP_OK) return NULL;
    iosiap_request_products(NULL, store, ids, 1);
    wait_for(store, s, 1);
    iosiap_request_payment(NULL, store, ids[0], 1, NULL);
    wait_for(store, s, 2);
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
    iosiap_local_store_options options = IOSIAP_LOCAL_STORE_OPTIONS_INIT;
    iosiap_store *store;
    seen s;
    char directory[512], url[256], root_path[600];
    char *payload = NULL;
    uint8_t *root;
    size_t root_length;

    if (argc != 4) return 2;

    /* On the device: the local store's own root by default. */
    memset(&s, 0, sizeof s);
    verification.mode = IOSIAP_VERIFY_ON_DEVICE;
    snprintf(directory, sizeof directory, "%s/on-device", argv[2]);
    store = buy(argv[1], directory, &verification, &s);
    EXPECT(store != NULL);
    EXPECT(s.kind == IOSIAP_EVENT_PURCHASED && s.verified == 1 && strlen(s.jws) > 100);
    iosiap_store_close(store);

    /* A backend verifies the same JWS with the store's root, and refuses it otherwise. */
    snprintf(root_path, sizeof root_path, "%s/signing/root.der", directory);
    root = read_file(root_path, &root_length);
    EXPECT(root_length > 100);
    EXPECT(iosiap_verify_transaction(&payload, s.jws, root, root_length, "com.iosiap.example", "Sandbox") == IOSIAP_OK);
    EXPECT(payload && strstr(payload, "\"productId\":\"com.iosiap.example.coins_100\""));
    iosiap_string_free(payload);
    iosiap_string_free(NULL);
    EXPECT(iosiap_verify_transaction(&payload, s.jws, NULL, 0, "com.iosiap.example", "Sandbox") == IOSIAP_E_VERIFY_UNTRUSTED_CHAIN);
    EXPECT(payload == NULL);
    EXPECT(iosiap_verify_transaction(&payload, s.jws, root, root_length, "com.other", "Sandbox") == IOSIAP_E_VERIFY_INVALID_APP_IDENTIFIER);
    EXPECT(iosiap_verify_transaction(&payload, s.jws, root, root_length, "com.iosiap.example", NULL) == IOSIAP_E_VERIFY_INVALID_ENVIRONMENT);
    EXPECT(iosiap_verify_transaction(&payload, "a.b", root, root_length, "com.iosiap.example", "Sandbox") == IOSIAP_E_VERIFY_INVALID_FORMAT);
    EXPECT(iosiap_verify_transaction(&payload, s.jws, root, root_length, "com.iosiap.example", "Staging") == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_verify_transaction(NULL, s.jws, root, root_length, "com.iosiap.example", "Sandbox") == IOSIAP_E_INVALID_ARGUMENT);

    /* Trusting another root on the device: the purchase is reported, neither granted nor finished. */
    memset(&s, 0, sizeof s);
    verification.trusted_root_der = root;
    verification.trusted_root_der_length = root_length;
    snprintf(directory, sizeof directory, "%s/other-root", argv[2]);
    store = buy(argv[1], directory, &verification, &s);
    EXPECT(s.kind == IOSIAP_EVENT_VERIFICATION_FAILED && s.status == IOSIAP_E_VERIFY_UNTRUSTED_CHAIN && s.verified == 0);
    iosiap_store_close(store);
    free(root);

    /* On a server. */
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

    /* Bad options. */
    options.catalog_path = argv[1];
    snprintf(directory, sizeof directory, "%s/bad", argv[2]);
    options.state_directory = directory;
    options.verification = &verification;
    verification.mode = 9;
    EXPECT(iosiap_store_open_local(&store, &options, NULL) == IOSIAP_E_INVALID_ARGUMENT);
    verification.mode = IOSIAP_VERIFY_SERVER;
    verification.server_url = "ftp://example.com/verify";
    EXPECT(iosiap_store_open_local(&store, &options, NULL) == IOSIAP_E_INVALID_ARGUMENT && strstr(iosiap_last_error_message(), "ftp://"));
    verification.server_url = NULL;
    EXPECT(iosiap_store_open_local(&store, &options, NULL) == IOSIAP_E_INVALID_ARGUMENT);
    verification.version = 7;
    EXPECT(iosiap_store_open_local(&store, &options, NULL) == IOSIAP_E_INVALID_ARGUMENT);
    /* A version 1 caller's struct ends before `verification`: the library must not read it. */
    options.version = 1;
    options.verification = (const iosiap_verification_options *)(void *)&failures;
    EXPECT(iosiap_store_open_local(&store, &options, NULL) == IOSIAP_OK);
    iosiap_store_close(store);

    printf("verification: %d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
