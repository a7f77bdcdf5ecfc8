// The grant ledger through the modern C++ layer: granted events, balances, spend, entitlements; then a
// promotional offer redeemed through it.
// Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
// over StoreKit, where QA's purchase, refund and expiry are made and the offer signed by iosiap-store; the checks of
// the local store's own controls run on the local store only.
// usage: ledger CATALOG.storekit STATE_DIRECTORY IOSIAP_STORE
#include <iosiap/iosiap.hpp>

#include <cstdio>
#include <memory>
#include <sstream>
#include <string>

#include "test_store.hpp"

#define TEST_NAME "ledger"
#include "expect.hpp"

namespace {

class Counter : public iosiap::StoreDelegate {
public:
    int ended = 0, purchasedEvents = 0, expiredEvents = 0, failedStatus = 0, sheetStatus = -1;
    std::uint64_t sheetClosed = 0;
    std::int64_t coinsGranted = 0;
    std::string entitlementGranted;
    std::unique_ptr<iosiap::Transaction> last;

    void onProductsReceived(std::uint64_t, const std::vector<iosiap::Product> &, const std::vector<std::string> &) override { ended++; }
    void onPurchased(std::uint64_t, const iosiap::Transaction &transaction) override {
        last.reset(new iosiap::Transaction(transaction));
        purchasedEvents++;
        ended++;
    }
    void onExpired(const iosiap::Transaction &) override { expiredEvents++; ended++; }
    void onManageSubscriptionsClosed(std::uint64_t requestId, int status, const std::string &) override {
        sheetClosed = requestId;
        sheetStatus = status;
        ended++;
    }
    void onFailed(std::uint64_t, const std::string &, int status, const std::string &) override { failedStatus = status; ended++; }
    void onGranted(std::uint64_t, const iosiap::Transaction &, const std::string &currency, std::int64_t amount,
                   const std::string &entitlement) override {
        if (currency == "coins") coinsGranted += amount;
        if (!entitlement.empty()) entitlementGranted = entitlement;
        ended++;
    }
};

/** Polls, frame after frame, until one more request or change has ended (at most about 5 s). */
void pump(iosiap::Store &store, Counter &counter) {
    const int until = counter.ended + 1;
    for (int frame = 0; frame < 2500 && counter.ended < until; frame++) {
        store.poll();
        betweenFrames();
    }
}

/** The promotional offer `offerId` of `productId` signed with the catalog's key, as the game's server would: the
    local store's control, or over StoreKit (where it does not reach) `iosiap-store sign-offer`, its row read into
    *out (IOSIAP_E_SYSTEM when the tool failed). */
int signOffer(iosiap::PromotionalOffer *out, iosiap::Store &store, const StoreTool &tool, const std::string &productId,
              const std::string &offerId) {
#ifdef IOSIAP_STOREKIT_STANDIN
    (void)store;
    std::istringstream listing(tool.output("sign-offer " + productId + " " + offerId));
    std::string heading;
    iosiap::PromotionalOffer row;
    if (!std::getline(listing, heading) || !(listing >> row.offerId >> row.keyId >> row.nonce >> row.timestampMs >> row.signature)) {
        return IOSIAP_E_SYSTEM;
    }
    *out = row;
    return IOSIAP_OK;
#else
    (void)tool;
    return store.localSignPromotionalOffer(out, productId, offerId);
#endif
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 4) return 2;
    iosiap::LocalStoreOptions options;
    options.catalogPath = argv[1];
    options.stateDirectory = argv[2];
    const StoreTool tool(argv[3], argv[2], argv[1]);
    Counter counter;
    iosiap::Store store;
    expect(openTestStore(store, options, &counter) == IOSIAP_OK, "the store opens");
    expect(store.registerCurrency("com.iosiap.example.coins_100", "coins", 100) == IOSIAP_OK, "coins register");
    expect(store.registerEntitlement("com.iosiap.example.pro_upgrade", "pro") == IOSIAP_OK, "pro registers");
    expect(store.registerCurrency("com.iosiap.example.coins_100", "coins", 0) == IOSIAP_E_INVALID_ARGUMENT, "amount 0 is refused");
    store.requestProducts({"com.iosiap.example.coins_100", "com.iosiap.example.pro_upgrade"});
    pump(store, counter);
    store.requestPayment("com.iosiap.example.coins_100", 3);
    pump(store, counter);
    store.requestPayment("com.iosiap.example.pro_upgrade");
    pump(store, counter);
    expect(counter.ended == 3, "every request ends");
    expect(counter.purchasedEvents == 0, "no purchase is left for the game to grant");
    expect(counter.coinsGranted == 300, "3 units grant 300 coins");
    expect(counter.entitlementGranted == "pro", "the pro entitlement is granted");
    expect(store.balance("coins") == 300, "the balance is 300");
    expect(store.spend("coins", 50) == IOSIAP_OK && store.balance("coins") == 250, "spending 50 leaves 250");
    expect(store.spend("coins", 1000) == IOSIAP_E_INSUFFICIENT_BALANCE && store.balance("coins") == 250,
           "spending more than the balance fails and changes nothing");
    expect(store.hasEntitlement("pro") && !store.hasEntitlement("vip"), "entitlements");
    expect(store.setDeductRefunds(true) == IOSIAP_OK, "the refund policy is set");

    // QA's purchase from outside (the local store's control through the C++ layer): a refund of coins takes them back.
    std::uint64_t bought = 0;
#ifdef IOSIAP_STOREKIT_STANDIN
    bought = tool.transaction("buy com.iosiap.example.coins_100 2");  // the C++ layer's controls need a local store
    expect(bought != 0, "a purchase from outside");
#else
    expect(store.localBuy("com.iosiap.example.coins_100", 2, &bought) == IOSIAP_OK && bought != 0, "a purchase from outside");
#endif
    pump(store, counter);
    expect(store.balance("coins") == 450, "it is granted by the ledger");
    expect(QA(tool, store.localRefund(bought, 1), "refund " + std::to_string(bought) + " issue"), "it is refunded");
    for (int frame = 0; frame < 2500 && store.balance("coins") != 250; frame++) {
        store.poll();
        betweenFrames();
    }
    expect(store.balance("coins") == 250, "the refund takes its coins back");
    // A lapsed subscriber redeems a promotional offer signed with the catalog's key.
    const std::string gold = "com.iosiap.example.club_gold_monthly";
    store.requestProducts({gold});
    pump(store, counter);
    store.requestPayment(gold);
    pump(store, counter);
    expect(counter.last && counter.last->productId == gold && counter.last->offerType == IOSIAP_OFFER_TYPE_INTRODUCTORY,
           "the first subscription starts with the free week");
    expect(store.finishTransaction(counter.last->id) == IOSIAP_OK, "it is finished");
#ifdef IOSIAP_STOREKIT_STANDIN
    // StoreKit tells no expiry (StandInAppStore.dispatch; "Product.SubscriptionInfo.Status"): its status says it ended.
    expect(tool.quiet("expire " + gold) && subscriptionEnded(store, counter.last->subscriptionGroupId), "it ends");
#else
    expect(store.localExpireSubscription(gold) == IOSIAP_OK, "it ends");
    pump(store, counter);
    expect(counter.expiredEvents == 1, "the game hears it ended");
#endif
    iosiap::PromotionalOffer offer;
    expect(signOffer(&offer, store, tool, gold, "club_gold_winback") == IOSIAP_OK && offer.keyId == "6C3F0A92" &&
               !offer.signature.empty(), "the offer is signed");
    expect(store.requestPayment(gold, offer) == IOSIAP_OK, "the offer is asked for");
    pump(store, counter);
    expect(counter.last->offerType == IOSIAP_OFFER_TYPE_PROMOTIONAL && counter.last->offerId == "club_gold_winback",
           "the transaction used the offer");
    expect(store.finishTransaction(counter.last->id) == IOSIAP_OK, "it is finished");
    expect(store.requestPayment(gold, offer) == IOSIAP_OK, "the same signature is asked for again");
    pump(store, counter);
    expect(counter.failedStatus == IOSIAP_E_SK_INVALID_SIGNATURE, "a used nonce is refused");
    iosiap::PromotionalOffer mistyped = offer;
    mistyped.nonce = "not-a-uuid";
    expect(store.requestPayment(gold, mistyped) == IOSIAP_E_INVALID_ARGUMENT &&
               iosiap::Store::lastErrorMessage().find("PromotionalOffer::nonce") != std::string::npos,
           "a nonce that is no UUID is refused naming the C++ field");
    mistyped = offer;
    mistyped.keyId.clear();
    expect(store.requestPayment(gold, mistyped) == IOSIAP_E_SK_MISSING_OFFER_PARAMS &&
               iosiap::Store::lastErrorMessage().find("PromotionalOffer::keyId") != std::string::npos,
           "a missing key id is refused naming the C++ field");
    expect(QA_REFUSED(tool, store.localSignPromotionalOffer(&offer, gold, "no_such_offer"),
                      "sign-offer " + gold + " no_such_offer", IOSIAP_E_SK_INVALID_OFFER_IDENTIFIER),
           "an unknown offer cannot be signed");

    // With a UI context (where StoreKit shows the confirmation; the local store ignores it) the payment goes through.
    expect(store.requestPayment("com.iosiap.example.coins_100", 1, std::string(), nullptr, gameScene()) == IOSIAP_OK,
           "a payment with a UI context is asked for");
    pump(store, counter);
    expect(store.balance("coins") == 350, "it is granted");

    // The manage subscriptions sheet closes with the request id it was shown with (the local store closes it at once).
    std::uint64_t sheet = 0;
    expect(store.showManageSubscriptions(gameScene(), &sheet) == IOSIAP_OK && sheet != 0, "the sheet is shown");
    pump(store, counter);
    expect(counter.sheetClosed == sheet && counter.sheetStatus == IOSIAP_OK, "its closing names its request");

#ifndef IOSIAP_STOREKIT_STANDIN  // the local store's own controls through the C++ layer
    expect(store.localSetAskToBuy(true) == IOSIAP_OK && store.localPendingPurchases().empty(), "no purchase waits yet");
    expect(store.localSetTimeRate(7) == IOSIAP_E_INVALID_ARGUMENT, "an unknown time rate is refused");
    expect(store.localReset() == IOSIAP_OK, "the store resets");
#endif
    return report();
}
