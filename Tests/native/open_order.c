/*
 * Opening a local store: NULL locale and storefront mean the catalog's (an earlier launch's choice does not
 * persist), and an open refused because another store holds the directory changes nothing of it.
 * usage: open_order CATALOG STATE_DIRECTORY
 */
#define _POSIX_C_SOURCE 200809L
#include <iosiap/iosiap.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "expect.h"
#include "wait_for.h"

static char title[64];

static void on_event(const iosiap_event *event, void *user_data) {
    (void)user_data;
    count_event(event);
    if (event->kind == IOSIAP_EVENT_PRODUCTS_RECEIVED && event->product_count > 0) {
        snprintf(title, sizeof title, "%s", iosiap_product_title(event->products[0]));
    }
}

/* The title of the coins as `store` shows them now. */
static const char *coins_title(iosiap_store *store) {
    const char *ids[] = {"com.iosiap.example.coins_100"};
    title[0] = '\0';
    iosiap_request_products(NULL, store, ids, 1);
    EXPECT(wait_for(store, IOSIAP_EVENT_PRODUCTS_RECEIVED));
    return title;
}

int main(int argc, char **argv) {
    iosiap_local_store_options options = IOSIAP_LOCAL_STORE_OPTIONS_INIT;
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    iosiap_store *store = NULL, *second = NULL;

    if (argc != 3) return 2;
    options.catalog_path = argv[1];
    options.state_directory = argv[2];
    callbacks.on_event = on_event;

    options.locale = "de_DE";
    options.storefront = "DEU";
    EXPECT(iosiap_store_open_local(&store, &options, &callbacks) == IOSIAP_OK);
    EXPECT(strcmp(coins_title(store), "100 Münzen") == 0);
    /* Another open of the same directory, in Japanese: refused, and the running store stays German. */
    options.locale = "ja_JP";
    options.storefront = "JPN";
    EXPECT(iosiap_store_open_local(&second, &options, &callbacks) == IOSIAP_E_STATE_DIRECTORY_IN_USE && second == NULL);
    EXPECT(strcmp(coins_title(store), "100 Münzen") == 0);
    iosiap_store_close(store);

    /* The next launch gives no locale: the catalog's, not the last launch's. */
    options.locale = NULL;
    options.storefront = NULL;
    EXPECT(iosiap_store_open_local(&store, &options, &callbacks) == IOSIAP_OK);
    EXPECT(strcmp(coins_title(store), "100 Coins") == 0);
    iosiap_store_close(store);

    printf("open order: %d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
