// The grant ledger through the modern C++ layer: granted events, balances, spend, entitlements; then a
// promotional offer redeemed through it.
// usage: ledger CATALOG.storekit STATE_DIRECTORY
#include <iosiap/iosiap.hpp>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

namespace {

int checks = 0, failures = 0;

void expect(bool condition, const char *what) {
    checks++;
    if (!condition) {
        failures++;
        std::fprintf(stderr, "ledger: expected %s\n", what);
    }
}

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

void pump(iosiap::Store &store, Counter &counter, int until) {
    for (int frame = 0; frame < 1000 && counter.ended < until; frame++) {
        store.poll();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    iosiap::LocalStoreOptions options;
    options.catalogPath = argv[1];
    options.stateDirectory = argv[2];
    Counter counter;
    iosiap::Store store;
    expect(store.openLocal(options, &counter) == IOSIAP_OK, "the store opens");
    expect(store.registerCurrency("com.iosiap.example.coins_100", "coins", 100) == IOSIAP_OK, "coins register");
    expect(store.registerEntitlement("com.iosiap.example.pro_upgrade", "pro") == IOSIAP_OK, "pro registers");
    expect(store.registerCurrency("com.iosiap.example.coins_100", "coins", 0) == IOSIAP_E_INVALID_ARGUMENT, "amount 0 is refused");
    store.requestProducts({"com.iosiap.example.coins_100", "com.iosiap.example.pro_upgrade"});
    pump(store, counter, 1);
    store.requestPayment("com.iosiap.example.coins_100", 3);
    pump(store, counter, 2);
    store.requestPayment("com.iosiap.example.pro_upgrade");
    pump(store, counter, 3);
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

    // The local store's controls through the C++ layer: a refund of coins takes them back.
    std::uint64_t bought = 0;
    expect(store.localBuy("com.iosiap.example.coins_100", 2, &bought) == IOSIAP_OK && bought != 0, "a purchase from outside");
    pump(store, counter, 4);
    expect(store.balance("coins") == 450, "it is granted by the ledger");
    expect(store.localRefund(bought, 1) == IOSIAP_OK, "it is refunded");
    for (int frame = 0; frame < 500 && store.balance("coins") != 250; frame++) {
        store.poll();
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    expect(store.balance("coins") == 250, "the refund takes its coins back");
    // A lapsed subscriber redeems a promotional offer signed with the catalog's key.
    const std::string gold = "com.iosiap.example.club_gold_monthly";
    store.requestProducts({gold});
    pump(store, counter, 5);
    store.requestPayment(gold);
    pump(store, counter, 6);
    expect(counter.last && counter.last->productId == gold && counter.last->offerType == IOSIAP_OFFER_TYPE_INTRODUCTORY,
           "the first subscription starts with the free week");
    expect(store.finishTransaction(counter.last->id) == IOSIAP_OK, "it is finished");
    expect(store.localExpireSubscription(gold) == IOSIAP_OK, "it ends");
    pump(store, counter, 7);
    iosiap::PromotionalOffer offer;
    expect(store.localSignPromotionalOffer(&offer, gold, "club_gold_winback") == IOSIAP_OK && offer.keyId == "6C3F0A92" &&
               !offer.signature.empty(), "the offer is signed");
    expect(store.requestPayment(gold, offer) == IOSIAP_OK, "the offer is asked for");
    pump(store, counter, 8);
    expect(counter.last->offerType == IOSIAP_OFFER_TYPE_PROMOTIONAL && counter.last->offerId == "club_gold_winback",
           "the transaction used the offer");
    expect(store.finishTransaction(counter.last->id) == IOSIAP_OK, "it is finished");
    expect(store.requestPayment(gold, offer) == IOSIAP_OK, "the same signature is asked for again");
    pump(store, counter, 9);
    expect(counter.failedStatus == IOSIAP_E_SK_INVALID_SIGNATURE, "a used nonce is refused");
    expect(store.localSignPromotionalOffer(&offer, gold, "no_such_offer") == IOSIAP_E_SK_INVALID_OFFER_IDENTIFIER,
           "an unknown offer cannot be signed");

    // With a UI context (where StoreKit shows the confirmation; the local store ignores it) the payment goes through.
    int gameWindow = 0;
    expect(store.requestPayment("com.iosiap.example.coins_100", 1, std::string(), nullptr, &gameWindow) == IOSIAP_OK,
           "a payment with a UI context is asked for");
    pump(store, counter, 10);
    expect(store.balance("coins") == 350, "it is granted");

    // The manage subscriptions sheet closes with the request id it was shown with (the local store closes it at once).
    std::uint64_t sheet = 0;
    expect(store.showManageSubscriptions(&gameWindow, &sheet) == IOSIAP_OK && sheet != 0, "the sheet is shown");
    pump(store, counter, 11);
    expect(counter.sheetClosed == sheet && counter.sheetStatus == IOSIAP_OK, "its closing names its request");

    expect(store.localSetAskToBuy(true) == IOSIAP_OK && store.localPendingPurchases().empty(), "no purchase waits yet");
    expect(store.localSetTimeRate(7) == IOSIAP_E_INVALID_ARGUMENT, "an unknown time rate is refused");
    expect(store.localReset() == IOSIAP_OK, "the store resets");
    std::printf("ledger: %d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
