/*
 * What the store knows about the user, through the C ABI on the local store: the storefront, a subscription
 * group's status with its renewal info, introductory offer eligibility and the transaction history; each call
 * blocks until the store answers. Bad input, the simulated error, freeing and a closed handle too.
 * Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
 * over StoreKit, with QA's changes made by `iosiap-store` from outside (the local store's C controls otherwise).
 * usage: store_queries CATALOG STATE_DIRECTORY IOSIAP_STORE
 */
#define _POSIX_C_SOURCE 200112L /* nanosleep, setenv */
#include <iosiap/iosiap.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "store_tool.h"
#include "wait_for.h"

static const char *gold = "com.iosiap.example.club_gold_monthly";
static const char *group = "5E1A7C01";
static uint64_t last_transaction;
static char last_product[128];

static void on_event(const iosiap_event *event, void *user_data) {
    (void)user_data;
    count_event(event);
    if (event->transaction) {
        last_transaction = event->transaction->id;
        snprintf(last_product, sizeof last_product, "%s", event->transaction->product_id);
    }
}

/* QA buys `quantity` of `product` from outside the game, which hears of it as PURCHASED: its transaction, else 0. */
static uint64_t bought_outside(iosiap_store *store, const char *product, int quantity) {
    uint64_t bought = 0;
#ifdef IOSIAP_STOREKIT_STANDIN
    char arguments[256];
    snprintf(arguments, sizeof arguments, "buy %s %d", product, quantity);
    if (!run_quiet(arguments) || !wait_for(store, IOSIAP_EVENT_PURCHASED) || strcmp(last_product, product) != 0) return 0;
    bought = last_transaction;
#else
    if (iosiap_local_buy(&bought, store, product, quantity) != IOSIAP_OK) return 0;
    if (!wait_for(store, IOSIAP_EVENT_PURCHASED) || last_transaction != bought) return 0;
#endif
    return bought;
}

/* With IOSIAP_DELIVERY_THREAD: a query asked from the callback, on the library's thread, answered there. */
static iosiap_store *volatile asking_store;
static volatile int answers, answer_status = -1;

static void on_event_asking(const iosiap_event *event, void *user_data) {
    iosiap_subscription_status_info *asked = NULL;
    (void)user_data;
    if (event->kind != IOSIAP_EVENT_PURCHASED || asking_store == NULL) return;
    answer_status = iosiap_subscription_status(&asked, asking_store, group);
    iosiap_subscription_status_free(asked);
    answers++;
}

/* The store opened again as open_test_store opens it, with events on the library's delivery thread. */
static iosiap_store *open_delivering_on_thread(const char *catalog_path, const char *state_directory) {
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    iosiap_store *store = NULL;
#ifdef IOSIAP_STOREKIT_STANDIN
    iosiap_storekit_options options = IOSIAP_STOREKIT_OPTIONS_INIT;
    char journal[4096];
    (void)catalog_path; /* the App Store's, named by the environment open_test_store set */
    snprintf(journal, sizeof journal, "%s/device", state_directory);
    options.state_directory = journal;
#else
    iosiap_local_store_options options = IOSIAP_LOCAL_STORE_OPTIONS_INIT;
    options.catalog_path = catalog_path;
    options.state_directory = state_directory;
#endif
    options.delivery = IOSIAP_DELIVERY_THREAD;
    callbacks.on_event = on_event_asking;
#ifdef IOSIAP_STOREKIT_STANDIN
    EXPECT(iosiap_store_open_storekit(&store, &options, &callbacks) == IOSIAP_OK);
#else
    EXPECT(iosiap_store_open_local(&store, &options, &callbacks) == IOSIAP_OK);
#endif
    return store;
}

struct history {
    uint64_t ids[8];
    int64_t revoked_ms[8];
    int count;
};

static void collect(const iosiap_transaction *transaction, void *user_data) {
    struct history *history = user_data;
    if (history->count < 8) {
        history->ids[history->count] = transaction->id;
        history->revoked_ms[history->count] = transaction->revocation_date_ms;
    }
    history->count++;
}

int main(int argc, char **argv) {
    iosiap_store *store = NULL;
    iosiap_subscription_status_info *status = NULL;
    struct history history;
    char *storefront = NULL;
    int eligible = -1, frame;
    uint64_t gold_id = 0, coins_id = 0, pro_id = 0;
#ifdef IOSIAP_STOREKIT_STANDIN
    char arguments[64];
#endif

    if (argc != 4) return 2;
    use_store_tool(argv[3], argv[2], argv[1]);
    if ((store = open_test_store(argv[1], argv[2], NULL, on_event)) == NULL) return 1;

    /* The storefront, as the store has it now. */
    EXPECT(iosiap_storefront(&storefront, store) == IOSIAP_OK && storefront && strcmp(storefront, "USA") == 0);
    iosiap_string_free(storefront);
    EXPECT(QA(iosiap_local_set_storefront(store, "JPN"), "storefront JPN"));
    EXPECT(iosiap_storefront(&storefront, store) == IOSIAP_OK && storefront && strcmp(storefront, "JPN") == 0);
    iosiap_string_free(storefront);
    EXPECT(iosiap_storefront(NULL, store) == IOSIAP_E_INVALID_ARGUMENT);

    /* Never subscribed: no status, eligible for the introductory offer, an empty history. */
    status = (iosiap_subscription_status_info *)&history;
    EXPECT(iosiap_subscription_status(&status, store, group) == IOSIAP_OK && status == NULL);
    EXPECT(iosiap_is_eligible_for_intro_offer(&eligible, store, group) == IOSIAP_OK && eligible == 1);
    EXPECT(iosiap_transaction_history(store, NULL, NULL) == 0);

    /* Subscribed: the status with its signed renewal info; the introductory offer is used. */
    EXPECT((gold_id = bought_outside(store, gold, 1)) != 0);
    EXPECT(iosiap_subscription_status(&status, store, group) == IOSIAP_OK && status != NULL);
    if (status) {
        EXPECT(status->size == sizeof(iosiap_subscription_status_info));
        EXPECT(status->state == IOSIAP_SUBSCRIPTION_SUBSCRIBED && status->will_auto_renew == 1);
        EXPECT(status->transaction && status->transaction->id == gold_id && strcmp(status->transaction->product_id, gold) == 0);
        EXPECT(strcmp(status->auto_renew_product_id, gold) == 0 && status->expiration_reason == IOSIAP_EXPIRATION_NONE);
        EXPECT(status->is_in_billing_retry == 0 && status->grace_period_expiration_date_ms == 0);
        EXPECT(status->signed_renewal_info && strchr(status->signed_renewal_info, '.'));
    }
    iosiap_subscription_status_free(status);
    iosiap_subscription_status_free(NULL);
    EXPECT(iosiap_is_eligible_for_intro_offer(&eligible, store, group) == IOSIAP_OK && eligible == 0);

    /* Auto-renew off, then it ends: expired, and why. */
    EXPECT(QA(iosiap_local_set_auto_renew(store, gold, 0), "auto-renew com.iosiap.example.club_gold_monthly off"));
    EXPECT(QA(iosiap_local_expire_subscription(store, gold), "expire com.iosiap.example.club_gold_monthly"));
    status = NULL;
    EXPECT(iosiap_subscription_status(&status, store, group) == IOSIAP_OK && status != NULL);
    if (status) {
        EXPECT(status->state == IOSIAP_SUBSCRIPTION_EXPIRED && status->will_auto_renew == 0);
        EXPECT(status->expiration_reason == IOSIAP_EXPIRATION_AUTO_RENEW_DISABLED);
    }
    iosiap_subscription_status_free(status);

    /* The history: every transaction, oldest first, the refunded one with its revocation date. */
    EXPECT((coins_id = bought_outside(store, "com.iosiap.example.coins_100", 2)) != 0);
    EXPECT((pro_id = bought_outside(store, "com.iosiap.example.pro_upgrade", 1)) != 0);
#ifdef IOSIAP_STOREKIT_STANDIN
    snprintf(arguments, sizeof arguments, "refund %llu", (unsigned long long)pro_id);
#endif
    EXPECT(QA(iosiap_local_refund(store, pro_id, 0), arguments));
    memset(&history, 0, sizeof history);
    EXPECT(iosiap_transaction_history(store, collect, &history) == 3 && history.count == 3);
    EXPECT(history.ids[0] == gold_id && history.ids[1] == coins_id && history.ids[2] == pro_id);
    EXPECT(history.revoked_ms[1] == 0 && history.revoked_ms[2] > 0);
    EXPECT(iosiap_transaction_history(store, NULL, NULL) == 3);

    /* Bad input changes nothing; an unknown group is an error, not "eligible"; the simulated error fails. */
    eligible = -1;
#ifdef IOSIAP_STOREKIT_STANDIN
    /* The StoreKit backend checks no group (iosiap.h): StoreKit's eligibility is passed on for any group
       ("Product.SubscriptionInfo.isEligibleForIntroOffer(for:)"; the stand-in's is false for one it does not know). */
    EXPECT(iosiap_is_eligible_for_intro_offer(&eligible, store, "NO_SUCH_GROUP") == IOSIAP_OK && eligible == 0);
    /* Nor for a status: never the library's INVALID_ARGUMENT, never a record (the stand-in's
       Product.SubscriptionInfo.status(for:) fails for a group its App Store does not have). */
    status = (iosiap_subscription_status_info *)&history;
    EXPECT(iosiap_subscription_status(&status, store, "NO_SUCH_GROUP") != IOSIAP_E_INVALID_ARGUMENT && status == NULL);
#else
    EXPECT(iosiap_is_eligible_for_intro_offer(&eligible, store, "NO_SUCH_GROUP") == IOSIAP_E_INVALID_ARGUMENT && eligible == -1);
    EXPECT(strcmp(iosiap_last_error_message(), "the catalog has no subscription group 'NO_SUCH_GROUP'") == 0);
    status = (iosiap_subscription_status_info *)&history;  /* the same error, never "never subscribed" */
    EXPECT(iosiap_subscription_status(&status, store, "NO_SUCH_GROUP") == IOSIAP_E_INVALID_ARGUMENT && status == NULL);
    EXPECT(strcmp(iosiap_last_error_message(), "the catalog has no subscription group 'NO_SUCH_GROUP'") == 0);
#endif
    EXPECT(iosiap_is_eligible_for_intro_offer(NULL, store, group) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_is_eligible_for_intro_offer(&eligible, store, NULL) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_subscription_status(&status, store, NULL) == IOSIAP_E_INVALID_ARGUMENT && status == NULL);
    EXPECT(iosiap_subscription_status(&status, store, "") == IOSIAP_E_INVALID_ARGUMENT && status == NULL);
    EXPECT(iosiap_subscription_status(&status, store, "\xff") == IOSIAP_E_INVALID_UTF8 && status == NULL);
    EXPECT(iosiap_subscription_status(NULL, store, group) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(QA(iosiap_local_set_simulated_error(store, IOSIAP_API_SUBSCRIPTION_STATUS, IOSIAP_E_STORE_UNREACHABLE),
              "error set subscription-status store-unreachable"));
    EXPECT(iosiap_subscription_status(&status, store, group) == IOSIAP_E_STORE_UNREACHABLE && status == NULL);
    EXPECT(QA(iosiap_local_set_simulated_error(store, IOSIAP_API_SUBSCRIPTION_STATUS, IOSIAP_OK),
              "error clear subscription-status"));

    iosiap_store_close(store);
    EXPECT(iosiap_transaction_history(store, collect, &history) == IOSIAP_E_STORE_NOT_OPEN);
    EXPECT(iosiap_storefront(&storefront, store) == IOSIAP_E_STORE_NOT_OPEN && storefront == NULL);

    /* A query asked from the callback on the delivery thread is answered there: the local store's at once,
       StoreKit's holding up the events after it until it answers (iosiap.h). */
    store = open_delivering_on_thread(argv[1], argv[2]);
    asking_store = store;
    EXPECT(QA(iosiap_local_buy(&gold_id, store, gold, 1), "buy com.iosiap.example.club_gold_monthly"));
    for (frame = 0; frame < 2500 && answers == 0; frame++) between_frames(2);
    EXPECT(answers > 0 && answer_status == IOSIAP_OK);
    iosiap_store_close(store);
    printf("store_queries: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
