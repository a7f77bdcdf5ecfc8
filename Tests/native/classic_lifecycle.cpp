// The classic IOSiAP.h finishes only what a delegate was given, exactly once, whatever the delegate does:
// events wait while no delegate is set, a delegate that throws leaves its purchase unfinished (it comes back
// at the next launch), and a delegate that polls again from inside onPaymentEvent does not lose the outer
// purchase's finish; a delegate cleared inside a callback or throwing loses none of the events after it.
// Each phase runs in its own process: `classic_lifecycle PHASE` with IOSIAP_CATALOG and IOSIAP_STATE_DIR
// set (and IOSIAP_STORE_TOOL, the iosiap-store command, for "reentrant"); it prints what the delegate saw,
// which the test script checks. C++98, as the original's games are; the scripts build it as C++11 too (a delegate's
// exception is rethrown as it was thrown from C++11 on, in C++98 as a std::runtime_error saying so).
// Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
// over StoreKit: the App Store is the one IOSIAP_STOREKIT_CONFIGURATION and IOSIAP_STOREKIT_STATE name (what
// iosiap-store changes), the journal is in IOSIAP_STATE_DIR.
#ifdef IOSIAP_STOREKIT_STANDIN
#define IOSIAP_CLASSIC_STOREKIT  // IOSiAP.h opens StoreKit, as on Apple platforms (its journal in IOSIAP_STATE_DIR)
#endif
#include "IOSiAP.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

#include "store_tool.h"
#include "wait_for.h"

/** The time between two frames: over StoreKit the main run loop runs there (its purchase is main-actor). */
static void frame() { between_frames(10); }

static std::string environment(const char *name) {
    const char *value = std::getenv(name);
    return value ? value : "";
}

/** QA acting from outside with iosiap-store (IOSIAP_STORE_TOOL) on the App Store: the local store in
    IOSIAP_STATE_DIR; over StoreKit the stand-in's App Store, the local store in IOSIAP_STOREKIT_STATE (the journal
    in IOSIAP_STATE_DIR is the device's, which iosiap-store does not change). */
static bool buyOutside(const std::string &productId) {
#ifdef IOSIAP_STOREKIT_STANDIN
    const std::string state = environment("IOSIAP_STOREKIT_STATE"), catalog = environment("IOSIAP_STOREKIT_CONFIGURATION");
#else
    const std::string state = environment("IOSIAP_STATE_DIR"), catalog = environment("IOSIAP_CATALOG");
#endif
    const std::string tool = environment("IOSIAP_STORE_TOOL");
    use_store_tool(tool.c_str(), state.c_str(), catalog.c_str());
    return run_quiet(("buy " + productId).c_str()) != 0;
}

class Game : public IOSiAPDelegate {
public:
    explicit Game(const char *phase)
        : phase(phase), loaded(false), purchases(0), failures(0), innerDone(false), coins("com.iosiap.example.coins_100"),
          pro("com.iosiap.example.pro_upgrade") {}

    virtual void onRequestProductsFinish(void) { loaded = true; }
    virtual void onRequestProductsError(int code) { printf("products error %d\n", code); }
    virtual void onRestoreFinished(bool) { printf("restore finished\n"); }

    virtual void onPaymentEvent(std::string &identifier, IOSiAPPaymentEvent event, int) {
        if (event == IOSIAP_PAYMENT_PURCHASING && phase == "clear-delegate") iap->delegate = NULL;  // the game looks away
        if (event == IOSIAP_PAYMENT_FAILED) {
            failures++;
            printf("failed %d\n", failures);
            if (phase == "throw-failure" && failures == 1) throw std::runtime_error("the game failed to show it");
            if (phase == "retry") iap->paymentWithProduct(NULL);  // tries again at once: fails again at once
        }
        if (event != IOSIAP_PAYMENT_PURCHAED) return;
        purchases++;
        printf("purchased %s\n", identifier.c_str());
        fflush(stdout);
        if (phase == "die" && identifier == coins) _exit(0);  // killed before the grant: must come back
        if (phase == "throw" && identifier == coins) throw std::runtime_error("the game failed to grant");
        if (phase == "reentrant" && identifier == coins) {
            // A purchase made outside the game (the transaction manager, IOSIAP_STORE_TOOL) arrives as a
            // purchase without a request; this callback pumps events until it has been delivered.
            if (!buyOutside(pro)) printf("iosiap-store buy failed\n");
            for (int i = 0; i < 1000 && !innerDone; i++) {
                iap->poll();
                frame();
            }
        }
        if (identifier == pro) innerDone = true;
    }

    void load() {
        std::vector<std::string> ids;
        ids.push_back(coins);
        ids.push_back(pro);
        iap->requestProducts(ids);
        pump(1000, &loaded);
    }

    void pay(const std::string &id) {
        std::string name = id;
        iap->paymentWithProduct(iap->iOSProductByIdentifier(name), 1);
    }

    /** Polls once per frame for `frames` frames, or until *until is true. */
    void pump(int frames, const bool *until = NULL) {
        for (int i = 0; i < frames && !(until && *until); i++) {
            try {
                iap->poll();
            } catch (const std::exception &error) {
                printf("poll rethrew: %s\n", error.what());
            }
            frame();
        }
    }

    IOSiAP *iap;
    std::string phase;
    bool loaded;
    int purchases;
    int failures;
    bool innerDone;
    const std::string coins;
    const std::string pro;
};

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    Game game(argv[1]);
    IOSiAP iap;
    game.iap = &iap;
    const std::string phase = argv[1];
    if (phase == "relaunch") {
        // What earlier launches left unfinished comes back now. (The products first: a sign that the store
        // answers, which over StoreKit opens its App Store on first use, in the background.)
        iap.delegate = &game;
        game.load();
        game.pump(100);
        printf("redelivered %d\n", game.purchases);
        return 0;
    }
    if (phase == "late-delegate") {
        // A purchase redelivered at launch while the game has not set its delegate yet: it must wait.
        game.pump(100);
        iap.delegate = &game;
        for (int i = 0; i < 1000 && game.purchases == 0; i++) game.pump(1);
        game.pump(100);  // and it comes once
        printf("late delegate saw %d\n", game.purchases);
        return 0;
    }
    iap.delegate = &game;
    game.load();
    if (phase == "throw-failure") {
        // Two payments that fail at once (no product): the second failure must still reach the delegate.
        iap.paymentWithProduct(NULL);
        iap.paymentWithProduct(NULL);
        game.pump(20);
        printf("throw-failure done, %d failures\n", game.failures);
        return 0;
    }
    if (phase == "retry") {
        // A delegate that retries every failure: each poll returns, one frame's worth at a time.
        iap.paymentWithProduct(NULL);
        int polls = 0;
        for (; polls < 50; polls++) iap.poll();
        printf("retry: %d polls returned, %d failures\n", polls, game.failures);
        return 0;
    }
    if (phase == "clear-delegate") {
        // The delegate clears itself on PURCHASING; events after it wait until it is back.
        game.pay(game.coins);
        iap.restorePayment();
        between_frames(1500);  // both done meanwhile (over StoreKit the purchase runs in the main run loop)
        iap.poll();
        iap.delegate = &game;
        game.pump(200);
        printf("clear-delegate done, %d purchases\n", game.purchases);
        return 0;
    }
    game.pay(game.coins);
    for (int i = 0; i < 1000 && game.purchases == 0; i++) game.pump(1);
    if (phase == "throw") {
        // The next payment's events must not finish the purchase whose delegate threw.
        game.pay(game.pro);
        for (int i = 0; i < 1000 && game.purchases < 2; i++) game.pump(1);
    }
    game.pump(20);
    printf("%s done, %d purchases\n", phase.c_str(), game.purchases);
    return 0;
}
