// App Store purchase intents through the C++ layer, on the catalog whose gold subscription has win-back offers
// (made by test-native.sh): a lapsed subscriber redeems one in the App Store, the delegate's
// onPurchaseIntentWithOffer receives it with the offer and the game pays with it; a delegate written before
// offers existed, overriding only onPurchaseIntent(product), still hears of the intent.
// Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
// over StoreKit (PurchaseIntent.intents, Product.PurchaseOption.winBackOffer), where QA's expiry and intents are made
// by iosiap-store, and the older game is a second device (its own journal) on the same App Store.
// usage: purchase_intent CATALOG.storekit STATE_DIRECTORY IOSIAP_STORE
#include <iosiap/iosiap.hpp>

#include <cstdio>
#include <string>

#include "test_store.hpp"

#define TEST_NAME "purchase_intent"
#include "expect.hpp"

namespace {

const std::string gold = "com.iosiap.example.club_gold_monthly";

class Game : public iosiap::StoreDelegate {
public:
    int events = 0, intents = 0, offerType = -1, expired = 0;
    std::string intentProduct, offerId;
    std::uint64_t lastTransaction = 0;
    int lastOfferType = 0;

    void onProductsReceived(std::uint64_t, const std::vector<iosiap::Product> &, const std::vector<std::string> &) override { events++; }
    void onPurchased(std::uint64_t, const iosiap::Transaction &transaction) override {
        lastTransaction = transaction.id;
        lastOfferType = transaction.offerType;
        events++;
    }
    void onExpired(const iosiap::Transaction &) override {
        expired++;
        events++;
    }
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

/** Polls, frame after frame, until the game has heard one more event (at most about 5 s). */
template <typename Delegate> void pump(iosiap::Store &store, Delegate &game) {
    const int until = game.events + 1;
    for (int frame = 0; frame < 2500 && game.events < until; frame++) {
        store.poll();
        betweenFrames();
    }
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 4) return 2;
    iosiap::LocalStoreOptions options;
    options.catalogPath = argv[1];
    options.stateDirectory = argv[2];
    const StoreTool tool(argv[3], argv[2], argv[1]);
    Game game;
    iosiap::Store store;
    expect(openTestStore(store, options, &game) == IOSIAP_OK, "the store opens");
    store.requestProducts({gold});
    pump(store, game);
    store.requestPayment(gold);
    pump(store, game);
    expect(store.finishTransaction(game.lastTransaction) == IOSIAP_OK, "the first subscription is finished");
#ifdef IOSIAP_STOREKIT_STANDIN
    // StoreKit tells no expiry (StandInAppStore.dispatch; "Product.SubscriptionInfo.Status"): its status says it lapsed.
    iosiap::Product product;
    expect(tool.quiet("expire " + gold) && store.product(gold, &product) == IOSIAP_OK &&
               subscriptionEnded(store, product.subscriptionGroup),
           "it lapses");
#else
    expect(store.localExpireSubscription(gold) == IOSIAP_OK, "it lapses");
    pump(store, game);
    expect(game.expired == 1, "the game hears it lapsed");
#endif

    expect(QA_REFUSED(tool, store.localRequestPurchaseIntent(gold, "no_such_offer"), "intent " + gold + " no_such_offer",
                      IOSIAP_E_SK_INVALID_OFFER_IDENTIFIER),
           "an offer the product lacks is refused");
    expect(QA(tool, store.localRequestPurchaseIntent(gold, "gold_half_price_back"), "intent " + gold + " gold_half_price_back"),
           "the user redeems the win-back offer");
    pump(store, game);
    expect(game.intents == 1 && game.intentProduct == gold, "the intent reaches the game");
    expect(game.offerType == IOSIAP_OFFER_TYPE_WIN_BACK && game.offerId == "gold_half_price_back", "with its offer");
    expect(store.requestWinBackPayment(gold, game.offerId) == IOSIAP_OK, "the game pays with the offer");
    pump(store, game);
    expect(game.lastOfferType == IOSIAP_OFFER_TYPE_WIN_BACK, "the purchase redeems it");

    expect(QA(tool, store.localRequestPurchaseIntent("com.iosiap.example.coins_100"), "intent com.iosiap.example.coins_100"),
           "an intent without an offer");
    pump(store, game);
    expect(game.intents == 2 && game.offerType == IOSIAP_OFFER_TYPE_NONE && game.offerId.empty(), "carries none");
    store.close();

    // Over StoreKit another journal on the same App Store (the stand-in serves one per process): a second device.
    options.stateDirectory = std::string(argv[2]) + "-older";
    OlderGame older;
    iosiap::Store olderStore;
    expect(openTestStore(olderStore, options, &older) == IOSIAP_OK, "the older game's store opens");
    expect(QA(tool, olderStore.localRequestPurchaseIntent(gold), "intent " + gold), "an intent for the older game");
    pump(olderStore, older);
    expect(older.intentProduct == gold, "the older game's onPurchaseIntent hears of it");
    olderStore.close();

    return report();
}
