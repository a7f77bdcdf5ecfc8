/*
 * What a game hears when a waiting purchase of something the user owns ends, and what a restore gives while a
 * subscription is in its billing grace period, through the C ABI with `iosiap-store` acting from outside:
 * - an interrupted purchase of an owned non-consumable, resolved, and an Ask to Buy of an active subscription,
 *   approved, each end in PURCHASED with the transaction that grants the product (StoreKit answers a purchase of
 *   something owned with that transaction), never DECLINED; once the game finished that transaction, nothing is
 *   told again (no finished transaction is, outside a request) and the entitlement stands;
 * - a purchase declined by the parent is still DECLINED;
 * - a subscription in billing retry within its grace period is entitled, and a restore gives it back as RESTORED.
 * Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
 * over StoreKit, where a decline is told as nothing at all.
 * usage: owned_outcomes CATALOG STATE_DIRECTORY IOSIAP_STORE
 */
#define _POSIX_C_SOURCE 200112L /* nanosleep, setenv */
#include <iosiap/iosiap.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "store_tool.h"
#include "wait_for.h"

#ifdef IOSIAP_STOREKIT_STANDIN
#define DECLINES_TOLD 0 /* StoreKit tells none */
#else
#define DECLINES_TOLD 1 /* the season pass's */
#endif

static const char *pro = "com.iosiap.example.pro_upgrade";
static const char *silver = "com.iosiap.example.club_silver_monthly";
static const char *season = "com.iosiap.example.season_pass";
static uint64_t last_transaction;
static char last_product[128];
static int restored_silver;

static void on_event(const iosiap_event *event, void *user_data) {
    (void)user_data;
    count_event(event);
    snprintf(last_product, sizeof last_product, "%s", event->product_id ? event->product_id : "");
    if (!event->transaction) return;
    last_transaction = event->transaction->id;
    snprintf(last_product, sizeof last_product, "%s", event->transaction->product_id);
    if (event->kind == IOSIAP_EVENT_RESTORED && strcmp(event->transaction->product_id, silver) == 0) restored_silver++;
}

static uint64_t buy(iosiap_store *store, const char *product) {
    EXPECT(iosiap_request_payment(NULL, store, product, 1, NULL) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED) && strcmp(last_product, product) == 0);
    return last_transaction;
}

int main(int argc, char **argv) {
    const char *ids[] = {"com.iosiap.example.pro_upgrade", "com.iosiap.example.club_silver_monthly",
                         "com.iosiap.example.season_pass"};
    iosiap_store *store;
    uint64_t pro_transaction, silver_transaction;
    int owned = -1;

    if (argc != 4) return 2;
    use_store_tool(argv[3], argv[2], argv[1]);
    store = open_test_store(argv[1], argv[2], NULL, on_event);
    EXPECT(iosiap_request_products(NULL, store, ids, 3) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PRODUCTS_RECEIVED));

    /* Owned, not yet finished: the pro upgrade and an active silver subscription. */
    pro_transaction = buy(store, pro);
    silver_transaction = buy(store, silver);

    /* An interrupted purchase of pro, resolved from outside: it ends with the transaction that grants pro. */
    EXPECT(run_quiet("interrupted on"));
    EXPECT(iosiap_request_payment(NULL, store, pro, 1, NULL) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_DEFERRED));
    EXPECT(run_quiet("resolve 1"));
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED));
    EXPECT(strcmp(last_product, pro) == 0 && last_transaction == pro_transaction);
    EXPECT(count_kind[IOSIAP_EVENT_DECLINED] == 0);
    EXPECT(run_quiet("interrupted off"));

    /* Ask to Buy of the active subscription, approved from outside: the same, with silver's transaction. */
    EXPECT(run_quiet("ask-to-buy on"));
    EXPECT(iosiap_request_payment(NULL, store, silver, 1, NULL) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_DEFERRED));
    EXPECT(run_quiet("approve 2"));
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED));
    EXPECT(strcmp(last_product, silver) == 0 && last_transaction == silver_transaction);
    EXPECT(count_kind[IOSIAP_EVENT_DECLINED] == 0);

    /* A purchase the parent declines is still DECLINED. Over StoreKit nothing is told: a decline creates no
       transaction, and StoreKit tells the app nothing else (the game must not wait on a deferred purchase). */
    EXPECT(iosiap_request_payment(NULL, store, season, 1, NULL) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_DEFERRED));
    EXPECT(run_quiet("decline 3"));
#ifdef IOSIAP_STOREKIT_STANDIN
    EXPECT(!wait_for(store, IOSIAP_EVENT_DECLINED));
#else
    EXPECT(wait_for(store, IOSIAP_EVENT_DECLINED) && strcmp(last_product, season) == 0);
#endif
    EXPECT(run_quiet("ask-to-buy off"));
    EXPECT(iosiap_finish_transaction(store, pro_transaction) == IOSIAP_OK);
    EXPECT(iosiap_finish_transaction(store, silver_transaction) == IOSIAP_OK);

    /* Pro finished, then bought again while interrupted and resolved: neither PURCHASED again nor DECLINED. */
    EXPECT(run_quiet("interrupted on"));
    EXPECT(iosiap_request_payment(NULL, store, pro, 1, NULL) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_DEFERRED));
    EXPECT(run_quiet("resolve 4"));
    EXPECT(!wait_for(store, IOSIAP_EVENT_PURCHASED));  /* polls 5 s: the look for other processes' changes ran */
    EXPECT(count_kind[IOSIAP_EVENT_DECLINED] == DECLINES_TOLD);
    EXPECT(iosiap_is_entitled(&owned, store, pro) == IOSIAP_OK && owned == 1);
    EXPECT(run_quiet("interrupted off"));

    /* Silver's renewal fails to charge: billing retry within the grace period, still entitled. A restore gives
       what the entitlements give, silver included. */
    EXPECT(run_quiet("grace-period on"));
    EXPECT(run_quiet("billing-issues on"));
    EXPECT(run_quiet("renew com.iosiap.example.club_silver_monthly"));
    EXPECT(run_quiet("transactions | grep -q 'grace period'"));
    EXPECT(iosiap_is_entitled(&owned, store, silver) == IOSIAP_OK && owned == 1);
    EXPECT(iosiap_request_restore(NULL, store) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_RESTORE_FINISHED));
    EXPECT(restored_silver == 1);
    EXPECT(iosiap_is_entitled(&owned, store, silver) == IOSIAP_OK && owned == 1);

    iosiap_store_close(store);
    printf("owned_outcomes: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
