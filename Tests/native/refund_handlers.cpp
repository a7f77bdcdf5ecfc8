// A refund is told until a handler of it returned (issue 23, item 5), through the C++ layers: a StoreDelegate
// whose onRevoked throws (in poll mode Store::poll rethrows it; on the delivery thread it is reported and dropped)
// hears the refund again at the next launch; once one returned, never again; the classic IOSiAPDelegate's new
// onPaymentRevoked the same. And through the C ABI: iosiap_event_not_handled outside a callback is refused, and
// iosiap_finish_transaction refuses (IOSIAP_E_NOT_DELIVERED) the id of a VERIFICATION_FAILED whose check could
// not complete (item 4). Launches share one state directory; each waits for a purchase left unfinished on purpose
// (a consumable), which every launch redelivers after it has told again the refunds still to tell: a positive
// sign that nothing more of them comes in that launch.
// Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
// over StoreKit (the classic IOSiAP too, on its StoreKit branch), where the refunds are made by iosiap-store, and
// item 4's store is a second journal on the same App Store (the stand-in serves one per process).
// usage: refund_handlers CATALOG.storekit STATE_DIRECTORY IOSIAP_STORE
#ifdef IOSIAP_STOREKIT_STANDIN
#define IOSIAP_CLASSIC_STOREKIT  // IOSiAP.h opens StoreKit, as on Apple platforms (its journal in IOSIAP_STATE_DIR)
#endif
#include "IOSiAP.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "test_store.hpp"

#define TEST_NAME "refund_handlers"
#include "expect.hpp"

namespace {

const std::string coins = "com.iosiap.example.coins_100";
const std::string pro = "com.iosiap.example.pro_upgrade";

/** Counts what it hears (the delivery thread writes what the main thread reads); onRevoked throws while
    throwsOnRevoked is set. */
class Game : public iosiap::StoreDelegate {
public:
    explicit Game(bool throwsOnRevoked) : throwsOnRevoked(throwsOnRevoked) {}

    void onProductsReceived(std::uint64_t, const std::vector<iosiap::Product> &, const std::vector<std::string> &) override {
        products++;
    }
    void onPurchased(std::uint64_t, const iosiap::Transaction &transaction) override {
        if (transaction.productId == coins) coinsPurchased++, coinsId = transaction.id;
        if (transaction.productId == pro) proPurchased++, proId = transaction.id;
    }
    void onRevoked(const iosiap::Transaction &transaction) override {
        revoked++;
        revokedId = transaction.id;
        if (throwsOnRevoked) throw std::runtime_error("the game failed to take it back");
    }
    void onVerificationFailed(std::uint64_t, const iosiap::Transaction &transaction, int status, const std::string &) override {
        // Item 4 buys pro (over StoreKit its App Store also holds the coins left unfinished, which fail the same).
        if (transaction.productId != pro) return;
        failedId = transaction.id;
        failedStatus = status;
    }

    bool throwsOnRevoked;
    std::atomic<int> products{0}, coinsPurchased{0}, proPurchased{0}, revoked{0}, failedStatus{0};
    std::atomic<std::uint64_t> coinsId{0}, proId{0}, revokedId{0}, failedId{0};
};

void frame() { betweenFrames(); }

/** Polls (unless the store delivers on its thread) until `done` holds, at most 5 s; counts what poll rethrew. */
template <typename Done> int pump(iosiap::Store &store, bool polls, Done done) {
    int rethrown = 0;
    for (int i = 0; i < 2500 && !done(); i++) {
        if (polls) {
            try {
                store.poll();
            } catch (const std::runtime_error &) {
                rethrown++;
            }
        }
        frame();
    }
    return rethrown;
}

int openGame(iosiap::Store &store, Game &game, const char *catalog, const std::string &state, bool onLibraryThread) {
    iosiap::LocalStoreOptions options;
    options.catalogPath = catalog;
    options.stateDirectory = state;
    options.deliverOnLibraryThread = onLibraryThread;
    return openTestStore(store, options, &game);
}

/** One launch of a modern game: waits until the coins left unfinished are redelivered; returns the refunds told. */
int relaunch(const char *catalog, const std::string &state, bool onLibraryThread, bool throwsOnRevoked) {
    Game game(throwsOnRevoked);
    iosiap::Store store;
    expect(openGame(store, game, catalog, state, onLibraryThread) == IOSIAP_OK, "the store opens");
    int rethrown = pump(store, !onLibraryThread, [&] { return game.coinsPurchased == 1; });
    expect(game.coinsPurchased == 1, "the coins left unfinished are redelivered");
    store.close();
    if (!onLibraryThread) expect(rethrown == (throwsOnRevoked ? game.revoked.load() : 0), "Store::poll rethrows what onRevoked threw");
    return game.revoked;
}

/** The classic game: a delegate with the optional refund callback. */
class ClassicGame : public IOSiAPDelegate {
public:
    ClassicGame(bool throwsOnRefund, bool keepsCoinsUnfinished) : throwsOnRefund(throwsOnRefund), keepsCoinsUnfinished(keepsCoinsUnfinished) {}

    virtual void onRequestProductsFinish(void) {}
    virtual void onRequestProductsError(int) {}
    virtual void onRestoreFinished(bool) {}
    virtual void onPaymentEvent(std::string &identifier, IOSiAPPaymentEvent event, int) {
        if (event != IOSIAP_PAYMENT_PURCHAED || identifier != coins) return;
        coinsPurchased++;
        // Thrown, the classic adapter does not finish it: it stays the next launch's sign.
        if (keepsCoinsUnfinished) throw std::runtime_error("kept unfinished");
    }
    virtual void onPaymentRevoked(std::string &identifier, int quantity) {
        refunds++;
        refundedProduct = identifier;
        refundedQuantity = quantity;
        if (throwsOnRefund) throw std::runtime_error("the game failed to take it back");
    }

    bool throwsOnRefund, keepsCoinsUnfinished;
    int coinsPurchased = 0, refunds = 0, refundedQuantity = 0;
    std::string refundedProduct;
};

int classicLaunch(bool throwsOnRefund, std::string *refundedProduct) {
    ClassicGame game(throwsOnRefund, true);
    IOSiAP iap;
    iap.delegate = &game;
    for (int i = 0; i < 2500 && game.coinsPurchased == 0; i++) {
        try {
            iap.poll();
        } catch (const std::runtime_error &) {
        }
        frame();
    }
    expect(game.coinsPurchased == 1, "the classic game hears the coins left unfinished");
    *refundedProduct = game.refundedProduct;
    return game.refunds;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 4) return 2;
    const char *catalog = argv[1];
    const std::string state = argv[2];
    const StoreTool tool(argv[3], argv[2], argv[1]);

    // Launch 1: coins bought and left unfinished; pro bought, finished and refunded; onRevoked throws.
    {
        Game game(true);
        iosiap::Store store;
        expect(openGame(store, game, catalog, state, false) == IOSIAP_OK, "the store opens");
        store.requestProducts({coins, pro});
        pump(store, true, [&] { return game.products == 1; });
        store.requestPayment(coins);
        pump(store, true, [&] { return game.coinsPurchased == 1; });
        store.requestPayment(pro);
        pump(store, true, [&] { return game.proPurchased == 1; });
        expect(store.finishTransaction(game.proId) == IOSIAP_OK, "pro finished");
        expect(iosiap_event_not_handled(store.handle(), NULL) == IOSIAP_E_INVALID_ARGUMENT, "a NULL event refused");
        iosiap_event outside = iosiap_event();
        expect(iosiap_event_not_handled(store.handle(), &outside) == IOSIAP_E_WRONG_STATE, "outside on_event refused");
        expect(QA(tool, store.localRefund(game.proId, 0), "refund " + std::to_string(game.proId.load())), "pro refunded");
        int rethrown = pump(store, true, [&] { return game.revoked == 1; });
        expect(game.revoked == 1 && game.revokedId == game.proId && rethrown == 1, "onRevoked threw, Store::poll rethrew it");
        store.close();
    }
    // Launch 2, on the delivery thread: told again; onRevoked throws again (reported and dropped).
    expect(relaunch(catalog, state, true, true) == 1, "the refund whose handler threw is told again (delivery thread)");
    // Launch 3: told again; onRevoked returns.
    expect(relaunch(catalog, state, false, false) == 1, "told again after a second throw (poll)");
    // Launch 4: handled once, never again.
    expect(relaunch(catalog, state, false, false) == 0, "a refund whose handler returned is not told again");

    // Launch 5 (modern): pro bought again and refunded; the store closes before the game polls the refund.
    {
        Game game(false);
        iosiap::Store store;
        expect(openGame(store, game, catalog, state, false) == IOSIAP_OK, "the store opens");
        store.requestProducts({coins, pro});
        pump(store, true, [&] { return game.products == 1 && game.coinsPurchased == 1; });
        store.requestPayment(pro);
        pump(store, true, [&] { return game.proPurchased == 1; });
        expect(store.finishTransaction(game.proId) == IOSIAP_OK, "pro finished");
        expect(QA(tool, store.localRefund(game.proId, 0), "refund " + std::to_string(game.proId.load())), "pro refunded again");
        for (int i = 0; i < 2500 && store.isEntitled(pro); i++) frame();  // recorded, not polled
        expect(!store.isEntitled(pro), "the refund is recorded");
        store.close();
    }
    // Launches 6 and 7, the classic API: onPaymentRevoked throws, then returns; then never again.
    setenv("IOSIAP_CATALOG", catalog, 1);
#ifdef IOSIAP_STOREKIT_STANDIN
    setenv("IOSIAP_STATE_DIR", (state + "/device").c_str(), 1);  // the journal openTestStore uses: the same device
#else
    setenv("IOSIAP_STATE_DIR", state.c_str(), 1);
#endif
    std::string refunded;
    expect(classicLaunch(true, &refunded) == 1 && refunded == pro, "the classic delegate hears the refund");
    expect(classicLaunch(false, &refunded) == 1, "and again, since it threw");
    expect(classicLaunch(false, &refunded) == 0, "not once it returned");

    // Item 4: the id of a VERIFICATION_FAILED whose check could not complete is not finished.
    {
        Game game(false);
        iosiap::Store store;
        iosiap::LocalStoreOptions options;
        options.catalogPath = catalog;
        options.stateDirectory = state + "-verify";
        options.verification = IOSIAP_VERIFY_SERVER;
        options.serverUrl = "http://127.0.0.1:9/verify";  // nothing listens: retried later
        expect(openTestStore(store, options, &game) == IOSIAP_OK, "the store opens with a server that is down");
        store.requestProducts({pro});
        pump(store, true, [&] { return game.products == 1; });
        store.requestPayment(pro);
        pump(store, true, [&] { return game.failedId != 0; });
        expect(game.failedStatus == IOSIAP_E_VERIFY_RETRYABLE, "the check could not complete");
        expect(store.finishTransaction(game.failedId) == IOSIAP_E_NOT_DELIVERED, "finishing it is refused");
        expect(store.finishTransaction(987654321) == IOSIAP_E_UNKNOWN_TRANSACTION, "an unknown id is still unknown");
        store.close();
    }

    return report();
}
