// App Store purchase intents through the C++ layer, on the catalog whose gold subscription has win-back offers
// (made by test-native.sh): a lapsed subscriber redeems one in the App Store, the delegate's
// onPurchaseIntentWithOffer receives it with the offer and the game pays with it; a delegate written before
// offers existed, overriding only onPurchaseIntent(product), still hears of the intent.
// usage: purchase_intent CATALOG.storekit STATE_DIRECTORY
#include <iosiap/iosiap.hpp>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

namespace {

int checks = 0, failures = 0;

void expect(bool condition, const char *what) {
    checks++;
    if (!condition) {
        failures++;
        std::fprintf(stderr, "purchase_intent: expected %s\n", what);
    }
}

const std::string gold = "com.iosiap.example.club_gold_monthly";

class Game : public iosiap::StoreDelegate {
public:
    int events = 0, intents = 0, offerType = -1;
    std::string intentProduct, offerId;
    std::uint64_t lastTransaction = 0;
    int lastOfferType = 0;

    void onProductsReceived(std::uint64_t, const std::vector<iosiap::Product> &, const std::vector<std::string> &) override { events++; }
    void onPurchased(std::uint64_t, const iosiap::Transaction &transaction) override {
        lastTransaction = transaction.id;
        lastOfferType = transaction.offerType;
        events++;
    }
    void onExpired(const iosiap::Transaction &) override { events++; }
    void onPurchaseIntentWithOffer(const iosiap::Product &product, int type, const std::string &id) override {
        intentProduct = product.id;
        offerType = type;
        offerId = id;
        intents++;
        events++;
    }
};

/** A delegate of an older game: it knows the intent's product only. */
class OlderGame : public iosiap::StoreDelegate {
public:
    int events = 0;
    std::string intentProduct;

    void onProductsReceived(std::uint64_t, const std::vector<iosiap::Product> &, const std::vector<std::string> &) override { events++; }
    void onPurchaseIntent(const iosiap::Product &product) override {
        intentProduct = product.id;
        events++;
    }
};

template <typename Delegate> void pump(iosiap::Store &store, Delegate &game, int until) {
    for (int frame = 0; frame < 1000 && game.events < until; frame++) {
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
    Game game;
    iosiap::Store store;
    expect(store.openLocal(options, &game) == IOSIAP_OK, "the store opens");
    store.requestProducts({gold});
    pump(store, game, 1);
    store.requestPayment(gold);
    pump(store, game, 2);
    expect(store.finishTransaction(game.lastTransaction) == IOSIAP_OK, "the first subscription is finished");
    expect(store.localExpireSubscription(gold) == IOSIAP_OK, "it lapses");
    pump(store, game, 3);

    expect(store.localRequestPurchaseIntent(gold, "no_such_offer") == IOSIAP_E_SK_INVALID_OFFER_IDENTIFIER,
           "an offer the product lacks is refused");
    expect(store.localRequestPurchaseIntent(gold, "gold_half_price_back") == IOSIAP_OK, "the user redeems the win-back offer");
    pump(store, game, 4);
    expect(game.intents == 1 && game.intentProduct == gold, "the intent reaches the game");
    expect(game.offerType == IOSIAP_OFFER_TYPE_WIN_BACK && game.offerId == "gold_half_price_back", "with its offer");
    expect(store.requestWinBackPayment(gold, game.offerId) == IOSIAP_OK, "the game pays with the offer");
    pump(store, game, 5);
    expect(game.lastOfferType == IOSIAP_OFFER_TYPE_WIN_BACK, "the purchase redeems it");

    expect(store.localRequestPurchaseIntent("com.iosiap.example.coins_100") == IOSIAP_OK, "an intent without an offer");
    pump(store, game, 6);
    expect(game.intents == 2 && game.offerType == IOSIAP_OFFER_TYPE_NONE && game.offerId.empty(), "carries none");
    store.close();

    options.stateDirectory = std::string(argv[2]) + "-older";
    OlderGame older;
    iosiap::Store olderStore;
    expect(olderStore.openLocal(options, &older) == IOSIAP_OK, "the older game's store opens");
    expect(olderStore.localRequestPurchaseIntent(gold) == IOSIAP_OK, "an intent for the older game");
    pump(olderStore, older, 1);
    expect(older.intentProduct == gold, "the older game's onPurchaseIntent hears of it");
    olderStore.close();

    std::printf("purchase_intent: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
