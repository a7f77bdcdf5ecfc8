/*
 * What the store knows about the user, through the C ABI on the local store: the storefront, a subscription
 * group's status with its renewal info, introductory offer eligibility and the transaction history; each call
 * blocks until the store answers. Bad input, the simulated error, freeing and a closed handle too.
 * usage: store_queries CATALOG STATE_DIRECTORY
 */
#define _POSIX_C_SOURCE 199309L /* nanosleep */
#include <iosiap/iosiap.h>

#include <stdio.h>
#include <string.h>

#include "expect.h"
#include "wait_for.h"

static const char *gold = "com.iosiap.example.club_gold_monthly";
static const char *group = "5E1A7C01";

static void on_event(const iosiap_event *event, void *user_data) {
    (void)user_data;
    count_event(event);
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
    iosiap_local_store_options options = IOSIAP_LOCAL_STORE_OPTIONS_INIT;
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    iosiap_store *store = NULL;
    iosiap_subscription_status_info *status = NULL;
    struct history history;
    char *storefront = NULL;
    int eligible = -1;
    uint64_t gold_id = 0, coins_id = 0, pro_id = 0;

    if (argc != 3) return 2;
    options.catalog_path = argv[1];
    options.state_directory = argv[2];
    callbacks.on_event = on_event;
    EXPECT(iosiap_store_open_local(&store, &options, &callbacks) == IOSIAP_OK);

    /* The storefront, as the store has it now. */
    EXPECT(iosiap_storefront(&storefront, store) == IOSIAP_OK && storefront && strcmp(storefront, "USA") == 0);
    iosiap_string_free(storefront);
    EXPECT(iosiap_local_set_storefront(store, "JPN") == IOSIAP_OK);
    EXPECT(iosiap_storefront(&storefront, store) == IOSIAP_OK && storefront && strcmp(storefront, "JPN") == 0);
    iosiap_string_free(storefront);
    EXPECT(iosiap_storefront(NULL, store) == IOSIAP_E_INVALID_ARGUMENT);

    /* Never subscribed: no status, eligible for the introductory offer, an empty history. */
    status = (iosiap_subscription_status_info *)&history;
    EXPECT(iosiap_subscription_status(&status, store, group) == IOSIAP_OK && status == NULL);
    EXPECT(iosiap_is_eligible_for_intro_offer(&eligible, store, group) == IOSIAP_OK && eligible == 1);
    EXPECT(iosiap_transaction_history(store, NULL, NULL) == 0);

    /* Subscribed: the status with its signed renewal info; the introductory offer is used. */
    EXPECT(iosiap_local_buy(&gold_id, store, gold, 1) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED));
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
    EXPECT(iosiap_local_set_auto_renew(store, gold, 0) == IOSIAP_OK);
    EXPECT(iosiap_local_expire_subscription(store, gold) == IOSIAP_OK);
    status = NULL;
    EXPECT(iosiap_subscription_status(&status, store, group) == IOSIAP_OK && status != NULL);
    if (status) {
        EXPECT(status->state == IOSIAP_SUBSCRIPTION_EXPIRED && status->will_auto_renew == 0);
        EXPECT(status->expiration_reason == IOSIAP_EXPIRATION_AUTO_RENEW_DISABLED);
    }
    iosiap_subscription_status_free(status);

    /* The history: every transaction, oldest first, the refunded one with its revocation date. */
    EXPECT(iosiap_local_buy(&coins_id, store, "com.iosiap.example.coins_100", 2) == IOSIAP_OK);
    EXPECT(iosiap_local_buy(&pro_id, store, "com.iosiap.example.pro_upgrade", 1) == IOSIAP_OK);
    EXPECT(iosiap_local_refund(store, pro_id, 0) == IOSIAP_OK);
    memset(&history, 0, sizeof history);
    EXPECT(iosiap_transaction_history(store, collect, &history) == 3 && history.count == 3);
    EXPECT(history.ids[0] == gold_id && history.ids[1] == coins_id && history.ids[2] == pro_id);
    EXPECT(history.revoked_ms[1] == 0 && history.revoked_ms[2] > 0);
    EXPECT(iosiap_transaction_history(store, NULL, NULL) == 3);

    /* Bad input changes nothing; an unknown group is an error, not "eligible"; the simulated error fails. */
    eligible = -1;
    EXPECT(iosiap_is_eligible_for_intro_offer(&eligible, store, "NO_SUCH_GROUP") == IOSIAP_E_INVALID_ARGUMENT && eligible == -1);
    EXPECT(strcmp(iosiap_last_error_message(), "the catalog has no subscription group 'NO_SUCH_GROUP'") == 0);
    status = (iosiap_subscription_status_info *)&history;  /* the same error, never "never subscribed" */
    EXPECT(iosiap_subscription_status(&status, store, "NO_SUCH_GROUP") == IOSIAP_E_INVALID_ARGUMENT && status == NULL);
    EXPECT(strcmp(iosiap_last_error_message(), "the catalog has no subscription group 'NO_SUCH_GROUP'") == 0);
    EXPECT(iosiap_is_eligible_for_intro_offer(NULL, store, group) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_is_eligible_for_intro_offer(&eligible, store, NULL) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_subscription_status(&status, store, NULL) == IOSIAP_E_INVALID_ARGUMENT && status == NULL);
    EXPECT(iosiap_subscription_status(&status, store, "") == IOSIAP_E_INVALID_ARGUMENT && status == NULL);
    EXPECT(iosiap_subscription_status(&status, store, "\xff") == IOSIAP_E_INVALID_UTF8 && status == NULL);
    EXPECT(iosiap_subscription_status(NULL, store, group) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_local_set_simulated_error(store, IOSIAP_API_SUBSCRIPTION_STATUS, IOSIAP_E_STORE_UNREACHABLE) == IOSIAP_OK);
    EXPECT(iosiap_subscription_status(&status, store, group) == IOSIAP_E_STORE_UNREACHABLE && status == NULL);
    EXPECT(iosiap_local_set_simulated_error(store, IOSIAP_API_SUBSCRIPTION_STATUS, IOSIAP_OK) == IOSIAP_OK);

    iosiap_store_close(store);
    EXPECT(iosiap_transaction_history(store, collect, &history) == IOSIAP_E_STORE_NOT_OPEN);
    EXPECT(iosiap_storefront(&storefront, store) == IOSIAP_E_STORE_NOT_OPEN && storefront == NULL);

    /* The local store answers a query asked from the callback on the delivery thread at once. */
    options.delivery = IOSIAP_DELIVERY_THREAD;
    callbacks.on_event = on_event_asking;
    EXPECT(iosiap_store_open_local(&store, &options, &callbacks) == IOSIAP_OK);
    asking_store = store;
    EXPECT(iosiap_local_buy(&gold_id, store, gold, 1) == IOSIAP_OK);
    {
        struct timespec pause = {0, 2 * 1000 * 1000};
        int frame;
        for (frame = 0; frame < 2500 && answers == 0; frame++) nanosleep(&pause, NULL);
    }
    EXPECT(answers > 0 && answer_status == IOSIAP_OK);
    iosiap_store_close(store);
    printf("store_queries: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
