// StoreDelegate::onOpen through the C++ layer: with deliverOnLibraryThread, products registered there are
// granted when redelivered at launch, never handed out as onPurchased; an onOpen that refuses or throws
// leaves the Store closed (the exception rethrown by openLocal) and the purchases for the next launch.
// Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
// over StoreKit (openStoreKit; the purchases redelivered from Transaction.unfinished), where they are bought in the
// App Store with iosiap-store while the game is closed.
// usage: delegate_on_open CATALOG.storekit STATE_DIRECTORY IOSIAP_STORE
#include <iosiap/iosiap.hpp>

#include <atomic>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "test_store.hpp"

#define TEST_NAME "delegate on open"
#include "expect.hpp"

namespace {

const char *const coins = "com.iosiap.example.coins_100";
class Game : public iosiap::StoreDelegate {
public:
    std::atomic<int> granted, purchased, events, eventsAtOpen;
    std::int64_t perUnit;
    bool throws;
    const iosiap::LocalStoreOptions *reopen;  // opened again from onOpen when set
    int reopenStatus;

    Game() : granted(0), purchased(0), events(0), eventsAtOpen(-1), perUnit(100), throws(false), reopen(nullptr), reopenStatus(1) {}

    int onOpen(iosiap::Store &store) override {
        eventsAtOpen = events.load();
        if (throws) throw std::runtime_error("the game's product table is missing");
        if (reopen) reopenStatus = openTestStore(store, *reopen, this);
        return store.registerCurrency(coins, "coins", perUnit);
    }
    void onGranted(std::uint64_t, const iosiap::Transaction &, const std::string &, std::int64_t, const std::string &) override {
        events++;
        granted++;
    }
    void onPurchased(std::uint64_t, const iosiap::Transaction &) override {
        events++;
        purchased++;  // left to the ledger: ignored, so it would stay unfinished
    }
};

iosiap::LocalStoreOptions optionsFor(const char *catalog, const char *state, bool thread) {
    iosiap::LocalStoreOptions options;
    options.catalogPath = catalog;
    options.stateDirectory = state;
    options.deliverOnLibraryThread = thread;
    return options;
}

/** `count` purchases of coins from outside while the game is closed. */
void buyAndQuit(const char *catalog, const char *state, const StoreTool &tool, int count) {
#ifdef IOSIAP_STOREKIT_STANDIN
    // The C++ layer's localBuy needs a local store: over StoreKit they are bought in the App Store.
    (void)catalog;
    (void)state;
    for (int i = 0; i < count; i++) expect(tool.quiet(std::string("buy ") + coins), "a purchase from outside");
#else
    (void)tool;
    iosiap::Store store;
    expect(store.openLocal(optionsFor(catalog, state, false), nullptr) == IOSIAP_OK, "the buying launch opens");
    for (int i = 0; i < count; i++) expect(store.localBuy(coins, 1) == IOSIAP_OK, "a purchase from outside");
#endif
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 4) return 2;
    const StoreTool tool(argv[3], argv[2], argv[1]);
    const int perLaunch = 8, launches = 6;
    for (int launch = 1; launch <= launches; launch++) {
        buyAndQuit(argv[1], argv[2], tool, perLaunch);
        Game game;
        iosiap::Store store;
        expect(openTestStore(store, optionsFor(argv[1], argv[2], true), &game) == IOSIAP_OK, "the store opens");
        expect(game.eventsAtOpen == 0, "onOpen runs before any event");
        betweenFrames(launch % 4);  // the game's own startup
        for (int frame = 0; frame < 2500 && game.granted + game.purchased < perLaunch; frame++) betweenFrames();
        expect(game.granted == perLaunch && game.purchased == 0, "every redelivered purchase is granted");
        expect(store.balance("coins") == 100 * perLaunch * launch, "each credited once");
    }

    buyAndQuit(argv[1], argv[2], tool, perLaunch);
    Game refusing;
    refusing.perUnit = 0;
    iosiap::Store store;
    expect(openTestStore(store, optionsFor(argv[1], argv[2], true), &refusing) == IOSIAP_E_INVALID_ARGUMENT && !store.isOpen(),
           "an onOpen that returns a failed registration's status refuses the open");
    Game throwing;
    throwing.throws = true;
    bool rethrown = false;
    try {
        openTestStore(store, optionsFor(argv[1], argv[2], true), &throwing);
    } catch (const std::runtime_error &error) {
        rethrown = std::string(error.what()) == "the game's product table is missing";
    }
    expect(rethrown && !store.isOpen(), "an exception thrown by onOpen is rethrown by openLocal, the store closed");
    betweenFrames(50);
    expect(refusing.events == 0 && throwing.events == 0, "a refused open delivers nothing");
    Game game;
    expect(openTestStore(store, optionsFor(argv[1], argv[2], true), &game) == IOSIAP_OK, "the next launch opens");
    for (int frame = 0; frame < 2500 && game.granted < perLaunch; frame++) betweenFrames();
    expect(game.granted == perLaunch && game.purchased == 0 && store.balance("coins") == 100 * perLaunch * (launches + 1),
           "the purchases a refused open left are granted at the next launch");
    store.close();
    Game reopening;
    const iosiap::LocalStoreOptions options = optionsFor(argv[1], argv[2], true);
    reopening.reopen = &options;
    expect(openTestStore(store, options, &reopening) == IOSIAP_OK && store.isOpen() && reopening.reopenStatus == IOSIAP_E_WRONG_STATE,
           "opening the store again from onOpen is refused, and the open goes on");
    expect(store.balance("coins") == 100 * perLaunch * (launches + 1), "the store opened is the one onOpen was given");
    return report();
}
