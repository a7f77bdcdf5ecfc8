// A bridge written for the original cocos2d-x IOSiAP: three callbacks, no restore, C++98. It must compile unchanged
// against the classic header (onRestoreFinished is optional since 0.5; the header is C++98 since 0.5) and still get
// its products and a purchase;
// a restore it asks for ends without calling anything it did not write.
// Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
// over StoreKit: its App Store the one IOSIAP_STOREKIT_CONFIGURATION and IOSIAP_STOREKIT_STATE name, its journal in
// IOSIAP_STATE_DIR.
#ifdef IOSIAP_STOREKIT_STANDIN
#define IOSIAP_CLASSIC_STOREKIT  // IOSiAP.h opens StoreKit, as on Apple platforms (its journal in IOSIAP_STATE_DIR)
#endif
#include <IOSiAP.h>

#include <cstdio>
#include <string>
#include <vector>

#include "wait_for.h"  // between_frames (C: this test is C++98, as the original's games are)

class IAPBridge : public IOSiAPDelegate {
public:
    IAPBridge() : productsFinished(false), purchased(0) {}
    virtual ~IAPBridge() {}
    virtual void onRequestProductsFinish(void) { productsFinished = true; }
    // std::cout with no include of its own, as bridges written for the original header do.
    virtual void onRequestProductsError(int code) { std::cout << "products error " << code << std::endl; }
    virtual void onPaymentEvent(std::string &identifier, IOSiAPPaymentEvent event, int quantity) {
        std::printf("payment %s event=%d quantity=%d\n", identifier.c_str(), static_cast<int>(event), quantity);
        if (event == IOSIAP_PAYMENT_PURCHAED) purchased += quantity;
    }
    bool productsFinished;
    int purchased;
};

/** One frame: the pump, then a millisecond (over StoreKit of the main run loop, where its purchase runs). */
static void frame(IOSiAP &iap) {
    iap.poll();
    between_frames(1);
}

int main() {
    IOSiAP iap;
    IAPBridge bridge;
    iap.delegate = &bridge;
    std::vector<std::string> ids(1, "com.iosiap.example.coins_100");
    iap.requestProducts(ids);
    for (int i = 0; i < 10000 && !bridge.productsFinished; i++) frame(iap);
    IOSProduct *coins = iap.iOSProductByIdentifier(ids[0]);
    if (!bridge.productsFinished || !coins || !coins->isValid) {
        std::printf("no products\n");
        return 1;
    }
    iap.paymentWithProduct(coins, 2);
    for (int i = 0; i < 10000 && bridge.purchased == 0; i++) frame(iap);
    iap.restorePayment();
    for (int i = 0; i < 200; i++) frame(iap);
    std::printf("three-callback bridge purchased %d\n", bridge.purchased);
    return bridge.purchased == 2 ? 0 : 1;
}
