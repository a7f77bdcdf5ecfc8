// The classic IOSiAP.h passes the game's UI context (IOSiAP::setUIContext) to every later payment, which is
// what StoreKit needs on visionOS. The local store ignores the context, so this test watches the C ABI:
// it defines iosiap_request_payment and iosiap_request_payment_with_options itself, records what the classic
// layer passes, and forwards to libiosiap's own (dlsym RTLD_NEXT), so the purchases still happen.
// A game that never sets a context pays exactly as before, with none.
// Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
// over StoreKit, where the context is the stand-in's window scene (StoreKit takes it as an object: a dummy pointer
// would be dereferenced) and a purchase confirms in it; the two functions still stand in front of libiosiap's (the
// classic layer's calls are the game's own code, and RTLD_NEXT finds the stand-in's libiosiap).
// usage: IOSIAP_CATALOG=... IOSIAP_STATE_DIR=... classic_ui_context
//        over StoreKit: IOSIAP_STOREKIT_CONFIGURATION=... IOSIAP_STOREKIT_STATE=... IOSIAP_STATE_DIR=... classic_ui_context
#ifdef IOSIAP_STOREKIT_STANDIN
#define IOSIAP_CLASSIC_STOREKIT  // IOSiAP.h opens StoreKit, as on Apple platforms (its journal in IOSIAP_STATE_DIR)
#endif
#include "IOSiAP.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "expect.h"
#include "test_store.hpp"  // betweenFrames, gameScene

/** What the last payment call that reached the C ABI carried. */
static int paymentCalls;
static void *passedContext;
static int passedQuantity;

template <typename Function> static Function libraryFunction(const char *name) {
    void *symbol = dlsym(RTLD_NEXT, name);
    Function function = NULL;
    if (symbol) std::memcpy(&function, &symbol, sizeof function);  // object to function pointer, without a cast
    return function;
}

extern "C" int iosiap_request_payment(uint64_t *out_request_id, iosiap_store *store, const char *product_id,
                                      int quantity, const char *app_account_token) {
    typedef int (*Payment)(uint64_t *, iosiap_store *, const char *, int, const char *);
    static Payment real = libraryFunction<Payment>("iosiap_request_payment");
    paymentCalls++;
    passedContext = NULL;
    passedQuantity = quantity;
    return real ? real(out_request_id, store, product_id, quantity, app_account_token) : IOSIAP_E_SYSTEM;
}

extern "C" int iosiap_request_payment_with_options(uint64_t *out_request_id, iosiap_store *store, const char *product_id,
                                                   const iosiap_payment_options *options) {
    typedef int (*Payment)(uint64_t *, iosiap_store *, const char *, const iosiap_payment_options *);
    static Payment real = libraryFunction<Payment>("iosiap_request_payment_with_options");
    paymentCalls++;
    passedContext = options && options->version >= 2 ? options->ui_context : NULL;
    passedQuantity = options ? options->quantity : 0;
    return real ? real(out_request_id, store, product_id, options) : IOSIAP_E_SYSTEM;
}

class Game : public IOSiAPDelegate {
public:
    Game() : loaded(false), purchased(0), failed(0), lastQuantity(0) {}
    virtual void onRequestProductsFinish(void) { loaded = true; }
    virtual void onRequestProductsError(int code) { std::printf("products error %d\n", code); }
    virtual void onPaymentEvent(std::string &, IOSiAPPaymentEvent event, int quantity) {
        if (event == IOSIAP_PAYMENT_PURCHAED) {
            purchased++;
            lastQuantity = quantity;
        }
        if (event == IOSIAP_PAYMENT_FAILED) failed++;
    }
    virtual void onRestoreFinished(bool) {}

    bool loaded;
    int purchased;
    int failed;
    int lastQuantity;
};

static void frame(IOSiAP &iap) {
    iap.poll();
    betweenFrames(10);  // over StoreKit the main run loop, where its purchase runs
}

/** Buys coins through the classic API and waits for the purchase: true when it was granted. */
static bool buyCoins(IOSiAP &iap, Game &game, int quantity) {
    std::string coins = "com.iosiap.example.coins_100";
    int before = game.purchased;
    iap.paymentWithProduct(iap.iOSProductByIdentifier(coins), quantity);
    for (int i = 0; i < 1000 && game.purchased == before; i++) frame(iap);
    return game.purchased == before + 1 && game.lastQuantity == quantity;
}

int main() {
    Game game;
    IOSiAP iap;
    iap.delegate = &game;
    std::vector<std::string> ids;
    ids.push_back("com.iosiap.example.coins_100");
    iap.requestProducts(ids);
    for (int i = 0; i < 1000 && !game.loaded; i++) frame(iap);
    EXPECT(game.loaded);

    // A game that never sets a context: the payment carries none, as before setUIContext existed.
    EXPECT(buyCoins(iap, game, 1));
    EXPECT(paymentCalls == 1 && passedContext == NULL && passedQuantity == 1);

    // The game's window scene (a UIWindowScene *, which visionOS needs; over StoreKit the stand-in's, where the
    // purchase confirms; the local store never dereferences it) reaches the payment with the quantity asked for,
    // and the purchase happens.
    void *gameWindow = gameScene();
    EXPECT(gameWindow != NULL);
    iap.setUIContext(gameWindow);
    EXPECT(buyCoins(iap, game, 2));
    EXPECT(paymentCalls == 2 && passedContext == gameWindow && passedQuantity == 2);

    // It stays for every later payment, until the game names another one.
    EXPECT(buyCoins(iap, game, 1));
    EXPECT(paymentCalls == 3 && passedContext == gameWindow);
#ifdef IOSIAP_STOREKIT_STANDIN
    // The stand-in's app has one window scene (CControls.swift, "UIApplication.connectedScenes"), and StoreKit takes
    // no pointer but a UIKit object (LiveStoreKit.confirmation): the same scene named again.
    void *otherWindow = gameWindow;
#else
    int otherWindowObject = 0;
    void *otherWindow = &otherWindowObject;
#endif
    iap.setUIContext(otherWindow);
    EXPECT(buyCoins(iap, game, 3));
    EXPECT(paymentCalls == 4 && passedContext == otherWindow && passedQuantity == 3);

    // A product never loaded still fails in the next poll without reaching the store.
    std::string bogus = "com.iosiap.example.bogus";
    iap.paymentWithProduct(iap.iOSProductByIdentifier(bogus));
    iap.poll();
    EXPECT(game.failed == 1 && paymentCalls == 4);

    // NULL clears it: payments carry no context again.
    iap.setUIContext(NULL);
    EXPECT(buyCoins(iap, game, 1));
    EXPECT(paymentCalls == 5 && passedContext == NULL);

    std::printf("classic_ui_context: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
