/*
 * A C program on IOSiAP's C ABI: fetch products, buy coins, grant and finish, buy the pro upgrade,
 * restore, list entitlements. Events arrive in on_event, called by iosiap_poll on this thread.
 *
 * usage: iosiap-example-c CATALOG.storekit STATE_DIRECTORY
 *
 * Built against the StoreKit stand-in's SDK (scripts/build-sdk.sh --storekit-standin, which defines
 * IOSIAP_STOREKIT_STANDIN), it opens the store over StoreKit, as on an iPhone: usage iosiap-example-c
 * STATE_DIRECTORY (the journal's), the App Store named by IOSIAP_STOREKIT_CONFIGURATION and IOSIAP_STOREKIT_STATE.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep under -std=c99 */
#include <iosiap/iosiap.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#ifdef IOSIAP_STOREKIT_STANDIN
#include <iosiap/storekit_standin.h>
#endif

#define PREFIX "com.iosiap.example."

typedef struct game {
    iosiap_store *store;
    int coins;
    int finished_requests; /* terminal events seen */
} game;

static void on_event(const iosiap_event *event, void *user_data) {
    game *g = (game *)user_data;
    size_t i;
    switch (event->kind) {
    case IOSIAP_EVENT_PRODUCTS_RECEIVED:
        printf("products #%" PRIu64 ": %zu found\n", event->request_id, event->product_count);
        for (i = 0; i < event->product_count; i++) {
            const iosiap_product *product = event->products[i];
            printf("  %s: %s (%s)\n", iosiap_product_id(product), iosiap_product_title(product),
                   iosiap_product_display_price(product));
        }
        for (i = 0; i < event->invalid_product_id_count; i++) {
            printf("  invalid: %s\n", event->invalid_product_ids[i]);
        }
        g->finished_requests++;
        break;
    case IOSIAP_EVENT_PURCHASING:
        printf("purchasing #%" PRIu64 " %s\n", event->request_id, event->product_id);
        break;
    case IOSIAP_EVENT_PURCHASED: {
        const iosiap_transaction *t = event->transaction;
        printf("purchased #%" PRIu64 " %s x%d (transaction %" PRIu64 ")\n", event->request_id, t->product_id,
               t->quantity, t->id);
        if (strcmp(t->product_id, PREFIX "coins_100") == 0) {
            g->coins += 100 * t->quantity; /* grant first ... */
            printf("  grant: balance %d coins\n", g->coins);
        }
        if (iosiap_finish_transaction(g->store, t->id) == IOSIAP_OK) { /* ... then finish */
            printf("  finished %" PRIu64 "\n", t->id);
        }
        if (event->request_id != 0) g->finished_requests++;
        break;
    }
    case IOSIAP_EVENT_RESTORED:
        printf("restored #%" PRIu64 " %s\n", event->request_id, event->transaction->product_id);
        break;
    case IOSIAP_EVENT_RESTORE_FINISHED:
        printf("restore finished #%" PRIu64 ": %s, %zu restored\n", event->request_id,
               event->status == IOSIAP_OK ? "ok" : event->message, event->restored_count);
        g->finished_requests++;
        break;
    case IOSIAP_EVENT_CANCELLED:
    case IOSIAP_EVENT_DEFERRED:
    case IOSIAP_EVENT_PRODUCTS_FAILED:
    case IOSIAP_EVENT_FAILED:
        printf("event %d #%" PRIu64 " %s: %s\n", event->kind, event->request_id,
               event->product_id ? event->product_id : "-", event->message ? event->message : "");
        g->finished_requests++;
        break;
    default:
        printf("event %d\n", event->kind);
        break;
    }
}

/* The time between two frames. On iOS the main run loop runs there (StoreKit's purchase runs on the main actor);
   on Linux, the StoreKit stand-in's run loop runs only when a game runs it. */
static void between_frames(void) {
#ifdef IOSIAP_STOREKIT_STANDIN
    storekit_standin_run_main_loop(0.016);
#else
    struct timespec frame_time = {0, 16 * 1000 * 1000};
    nanosleep(&frame_time, NULL);
#endif
}

/* Polls like a frame loop until `count` requests have ended, for at most ten seconds. */
static int wait_for(game *g, int count) {
    int frame;
    for (frame = 0; frame < 600; frame++) {
        if (iosiap_poll(g->store, 0) < 0) return -1;
        if (g->finished_requests >= count) return 0;
        between_frames();
    }
    fprintf(stderr, "timed out\n");
    return -1;
}

static int fail(const char *what, int status) {
    fprintf(stderr, "%s: %s (%d): %s\n", what, iosiap_status_text(status), status, iosiap_last_error_message());
    return 1;
}

static void print_entitlement(const iosiap_transaction *transaction, void *user_data) {
    (void)user_data;
    printf("  owns %s (transaction %" PRIu64 ")\n", transaction->product_id, transaction->id);
}

int main(int argc, char **argv) {
    game g = {NULL, 0, 0};
#ifdef IOSIAP_STOREKIT_STANDIN
    iosiap_storekit_options options = IOSIAP_STOREKIT_OPTIONS_INIT;
#else
    iosiap_local_store_options options = IOSIAP_LOCAL_STORE_OPTIONS_INIT;
#endif
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    const char *ids[] = {PREFIX "coins_100", PREFIX "pro_upgrade", PREFIX "no_such_product"};
    int status, entitled = 0, count;

    if (iosiap_version() != IOSIAP_VERSION_NUMBER) {
        fprintf(stderr, "header %d and library %d differ\n", IOSIAP_VERSION_NUMBER, iosiap_version());
        return 1;
    }
    callbacks.on_event = on_event;
    callbacks.user_data = &g;
#ifdef IOSIAP_STOREKIT_STANDIN
    if (argc != 2) {
        fprintf(stderr, "usage: %s STATE_DIRECTORY\n", argv[0]);
        return 2;
    }
    options.state_directory = argv[1];
    if ((status = iosiap_store_open_storekit(&g.store, &options, &callbacks)) != IOSIAP_OK) return fail("open", status);
#else
    if (argc != 3) {
        fprintf(stderr, "usage: %s CATALOG.storekit STATE_DIRECTORY\n", argv[0]);
        return 2;
    }
    options.catalog_path = argv[1];
    options.state_directory = argv[2];
    options.bundle_id = "com.iosiap.example";
    if ((status = iosiap_store_open_local(&g.store, &options, &callbacks)) != IOSIAP_OK) return fail("open", status);
#endif
    printf("can make payments: %d\n", iosiap_can_make_payments(g.store));
    {
        int verifies = 0;
        if ((status = iosiap_store_verifies(&verifies, g.store)) != IOSIAP_OK) return fail("verifies", status);
        printf("transactions verified: %s\n", verifies ? "yes" : "no (delivered unchecked: for development only)");
    }

    if ((status = iosiap_request_products(NULL, g.store, ids, 3)) != IOSIAP_OK) return fail("products", status);
    if (wait_for(&g, 1) != 0) return 1;

    if ((status = iosiap_request_payment(NULL, g.store, PREFIX "coins_100", 3, NULL)) != IOSIAP_OK) return fail("buy coins", status);
    if (wait_for(&g, 2) != 0) return 1;
    if ((status = iosiap_request_payment(NULL, g.store, PREFIX "pro_upgrade", 1,
                                         "7C9A4A2E-5B0D-4F8E-9C1B-2D3E4F5A6B7C")) != IOSIAP_OK) return fail("buy pro", status);
    if (wait_for(&g, 3) != 0) return 1;
    if ((status = iosiap_request_restore(NULL, g.store)) != IOSIAP_OK) return fail("restore", status);
    if (wait_for(&g, 4) != 0) return 1;

    if ((status = iosiap_is_entitled(&entitled, g.store, PREFIX "pro_upgrade")) != IOSIAP_OK) return fail("entitled", status);
    printf("pro upgrade owned: %s\n", entitled ? "yes" : "no");
    printf("entitlements:\n");
    if ((count = iosiap_entitlements(g.store, print_entitlement, NULL)) < 0) return fail("entitlements", count);
    printf("coins: %d\n", g.coins);
    iosiap_store_close(g.store);
    return 0;
}
