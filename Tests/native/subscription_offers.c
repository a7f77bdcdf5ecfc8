/*
 * Offer codes and win-back offers through the C ABI with the local store, on a catalog whose gold subscription
 * has both (made by test-native.sh from the example catalog): the game asks for the offer code sheet (recorded,
 * nothing shown), a code redeemed from outside the game arrives as PURCHASED without a request with offer type 3,
 * a code not for this user is refused; the product's win-back offers are listed, a win-back payment by an active
 * subscriber fails as ineligible, and by a lapsed one is charged with offer type 4: here one the user redeemed in
 * the App Store, which reaches the game as a purchase intent carrying the offer, paid with it. Last, QA starts such
 * an intent and redeems a code with `iosiap-store intent` and `redeem-code` while this game's store is open, and the
 * game receives both.
 * Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
 * over StoreKit (AppStore.presentOfferCodeRedeemSheet on the game's window scene, Transaction.updates,
 * PurchaseIntent.intents, Product.PurchaseOption.winBackOffer), where QA's changes are all made by `iosiap-store`.
 * usage: subscription_offers CATALOG STATE_DIRECTORY IOSIAP_STORE
 */
#define _POSIX_C_SOURCE 200112L /* nanosleep, setenv */
#include <iosiap/iosiap.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "store_tool.h"
#include "wait_for.h"

#define GOLD "com.iosiap.example.club_gold_monthly"
#define CLUB "5E1A7C01" /* gold's subscription group */
static const char *gold = GOLD;
static uint64_t last_request;
static int last_offer_type;
static char last_offer_id[64];
static int last_status;
static uint64_t last_transaction;
static int intent_offer_type = -1;
static char intent_offer_id[64];

static void on_event(const iosiap_event *event, void *user_data) {
    (void)user_data;
    count_event(event);
    last_request = event->request_id;
    last_status = event->status;
    if (event->transaction) {
        last_transaction = event->transaction->id;
        last_offer_type = event->transaction->offer_type;
        snprintf(last_offer_id, sizeof last_offer_id, "%s", event->transaction->offer_id ? event->transaction->offer_id : "");
    }
    if (event->kind == IOSIAP_EVENT_PURCHASE_INTENT && event->size > offsetof(iosiap_event, intent_offer_id)) {
        intent_offer_type = event->intent_offer_type;
        snprintf(intent_offer_id, sizeof intent_offer_id, "%s", event->intent_offer_id ? event->intent_offer_id : "");
    }
}

/* QA redeems offer code `code` of gold outside the game, which hears of it as PURCHASED: its transaction, else 0. */
static uint64_t redeemed_outside(iosiap_store *store, const char *code) {
    uint64_t redeemed = 0;
#ifdef IOSIAP_STOREKIT_STANDIN
    char arguments[256];
    snprintf(arguments, sizeof arguments, "redeem-code %s %s", gold, code);
    if (!run_quiet(arguments) || !wait_for(store, IOSIAP_EVENT_PURCHASED)) return 0;
    redeemed = last_transaction;
#else
    if (iosiap_local_redeem_offer_code(&redeemed, store, gold, code) != IOSIAP_OK || redeemed == 0) return 0;
    if (!wait_for(store, IOSIAP_EVENT_PURCHASED) || last_transaction != redeemed) return 0;
#endif
    return redeemed;
}

int main(int argc, char **argv) {
    iosiap_payment_options options = IOSIAP_PAYMENT_OPTIONS_INIT;
    iosiap_store *store = NULL;
    const iosiap_product *product = NULL;
    iosiap_offer offer = IOSIAP_OFFER_INIT;
    uint64_t redeemed = 0, request = 0;

    if (argc != 4) return 2;
    use_store_tool(argv[3], argv[2], argv[1]);
    if ((store = open_test_store(argv[1], argv[2], NULL, on_event)) == NULL) return 1;
    EXPECT(iosiap_request_products(NULL, store, &gold, 1) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PRODUCTS_RECEIVED));

    /* The product lists its win-back offers, with their terms. */
    EXPECT(iosiap_store_product(&product, store, gold) == IOSIAP_OK);
    EXPECT(iosiap_product_win_back_offer_count(product) == 2);
    EXPECT(iosiap_product_win_back_offer(&offer, product, 0) == IOSIAP_OK && strcmp(offer.id, "gold_half_price_back") == 0);
    EXPECT(offer.payment_mode == IOSIAP_OFFER_PAY_AS_YOU_GO && offer.period_count == 2);

    /* A user who never subscribed: no win-back offer (the App Store's answer, after the request). */
    options.win_back_offer_id = "gold_half_price_back";
    EXPECT(iosiap_request_payment_with_options(&request, store, gold, &options) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_FAILED) && last_request == request && last_status == IOSIAP_E_SK_INELIGIBLE_FOR_OFFER);

    /* The offer code sheet: the local store records the call. A code for new subscribers, entered outside the
       game, arrives as a purchase without a request, carrying the offer. */
    EXPECT(iosiap_present_offer_code_redeem_sheet(store, game_scene()) == IOSIAP_OK);
    EXPECT((redeemed = redeemed_outside(store, "gold_three_months_new")) != 0 && last_request == 0);
    EXPECT(last_offer_type == IOSIAP_OFFER_TYPE_OFFER_CODE && strcmp(last_offer_id, "gold_three_months_new") == 0);
    EXPECT(iosiap_finish_transaction(store, redeemed) == IOSIAP_OK);

    /* Now a subscriber: the new-subscriber code again, and a win-back offer, are refused. */
    EXPECT(QA_REFUSED(iosiap_local_redeem_offer_code(NULL, store, gold, "gold_three_months_new"),
                      "redeem-code " GOLD " gold_three_months_new", IOSIAP_E_SK_INELIGIBLE_FOR_OFFER));
#ifndef IOSIAP_STOREKIT_STANDIN /* the local store's message; the C control's own refusal of an unknown code */
    EXPECT(strstr(iosiap_last_error_message(), "new") != NULL);
    EXPECT(iosiap_local_redeem_offer_code(NULL, store, gold, "no_such_code") == IOSIAP_E_SK_INVALID_OFFER_IDENTIFIER);
#endif
    EXPECT(iosiap_request_payment_with_options(&request, store, gold, &options) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_FAILED) && last_request == request && last_status == IOSIAP_E_SK_INELIGIBLE_FOR_OFFER);
    /* The App Store offers a win-back offer to lapsed subscribers only. */
    EXPECT(QA_REFUSED(iosiap_local_request_purchase_intent_with_offer(store, gold, "gold_half_price_back"),
                      "intent " GOLD " gold_half_price_back", IOSIAP_E_SK_INELIGIBLE_FOR_OFFER));

    /* Lapsed: the user redeems the win-back offer in the App Store; the game receives the intent with the offer
       and pays with it: charged with offer type 4. Offers it does not have are refused, nothing stored. */
    EXPECT(QA(iosiap_local_expire_subscription(store, gold), "expire " GOLD));
    EXPECT(subscription_ended(store, CLUB));
#ifndef IOSIAP_STOREKIT_STANDIN /* the C control's own refusals of an unknown offer and product */
    EXPECT(iosiap_local_request_purchase_intent_with_offer(store, gold, "no_such_offer") == IOSIAP_E_SK_INVALID_OFFER_IDENTIFIER);
    EXPECT(strstr(iosiap_last_error_message(), "no_such_offer") != NULL);
    EXPECT(iosiap_local_request_purchase_intent_with_offer(store, "com.iosiap.example.nope", NULL) == IOSIAP_E_UNKNOWN_PRODUCT);
#endif
    EXPECT(QA(iosiap_local_request_purchase_intent_with_offer(store, gold, "gold_half_price_back"),
              "intent " GOLD " gold_half_price_back"));
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASE_INTENT));
    EXPECT(intent_offer_type == IOSIAP_OFFER_TYPE_WIN_BACK && strcmp(intent_offer_id, "gold_half_price_back") == 0);
    options.win_back_offer_id = intent_offer_id;
    EXPECT(iosiap_request_payment_with_options(&request, store, gold, &options) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED) && last_request == request);
    EXPECT(last_offer_type == IOSIAP_OFFER_TYPE_WIN_BACK && strcmp(last_offer_id, "gold_half_price_back") == 0);
    EXPECT(iosiap_finish_transaction(store, last_transaction) == IOSIAP_OK);

    /* Lapsed again, QA enters a code for expired subscribers with the transaction manager, another process:
       the running game receives it as a purchase without a request. */
    EXPECT(QA(iosiap_local_expire_subscription(store, gold), "expire " GOLD));
    EXPECT(subscription_ended(store, CLUB));
    intent_offer_type = -1;
    EXPECT(run_quiet("intent " GOLD " gold_half_price_back"));
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASE_INTENT));
    EXPECT(intent_offer_type == IOSIAP_OFFER_TYPE_WIN_BACK && strcmp(intent_offer_id, "gold_half_price_back") == 0);
    /* Without an offer: none in the event. */
    EXPECT(QA(iosiap_local_request_purchase_intent(store, gold), "intent " GOLD));
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASE_INTENT));
    EXPECT(intent_offer_type == IOSIAP_OFFER_TYPE_NONE && intent_offer_id[0] == '\0');
    EXPECT(run_quiet("redeem-code " GOLD " gold_free_month_back"));
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED) && last_request == 0);
    EXPECT(last_offer_type == IOSIAP_OFFER_TYPE_OFFER_CODE && strcmp(last_offer_id, "gold_free_month_back") == 0);

    iosiap_store_close(store);
    printf("subscription_offers: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
