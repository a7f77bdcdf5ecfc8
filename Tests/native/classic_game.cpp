// A game written for the original cocos2d-x IOSiAP, unchanged but for the per-frame iap->poll():
// it must compile against IOSiAP.h and run against the local store chosen by IOSIAP_CATALOG.
// Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
// game runs over StoreKit, as on an iPhone: its App Store the one IOSIAP_STOREKIT_CONFIGURATION and
// IOSIAP_STOREKIT_STATE name (as an Xcode scheme selects a StoreKit configuration), its journal in IOSIAP_STATE_DIR.
#ifdef IOSIAP_STOREKIT_STANDIN
#define IOSIAP_CLASSIC_STOREKIT  // IOSiAP.h opens StoreKit, as on Apple platforms (its journal in IOSIAP_STATE_DIR)
#endif
#include "IOSiAP.h"

#include <cstdio>
#include <string>
#include <vector>

#include "test_store.hpp"  // betweenFrames

class IOSiAP_Bridge : public IOSiAPDelegate {
public:
    IOSiAP_Bridge() : restored(false), finished(false) {
        iap = new IOSiAP();
        iap->delegate = this;
    }
    ~IOSiAP_Bridge() { delete iap; }

    void requestProducts() {
        std::vector<std::string> product;
        product.push_back("com.iosiap.example.coins_100");
        product.push_back("com.iosiap.example.pro_upgrade");
        product.push_back("com.iosiap.example.bogus");
        iap->requestProducts(product);
    }

    virtual void onRequestProductsFinish(void) {
        for (size_t i = 0; i < iap->iOSProducts.size(); i++) {
            IOSProduct *p = iap->iOSProducts[i];
            printf("classic product %d %s valid=%d %s\n", p->index, p->productIdentifier.c_str(), p->isValid ? 1 : 0,
                   p->localizedPrice.c_str());
        }
        std::string identifier = "com.iosiap.example.coins_100";
        IOSProduct *product = iap->iOSProductByIdentifier(identifier);
        iap->paymentWithProduct(product, 2);
        std::string bogus = "com.iosiap.example.bogus";
        iap->paymentWithProduct(iap->iOSProductByIdentifier(bogus));
    }

    virtual void onRequestProductsError(int code) { printf("classic products error %d\n", code); }

    virtual void onPaymentEvent(std::string &identifier, IOSiAPPaymentEvent event, int quantity) {
        printf("classic payment %s event=%d quantity=%d\n", identifier.c_str(), static_cast<int>(event), quantity);
        if (event == IOSIAP_PAYMENT_PURCHAED) iap->restorePayment();
    }

    virtual void onRestoreFinished(bool succeed) {
        printf("classic restore finished %s\n", succeed ? "true" : "false");
        finished = true;
    }

    IOSiAP *iap;
    bool restored;
    bool finished;
};

int main() {
    IOSiAP_Bridge bridge;
    bridge.requestProducts();
    bridge.requestProducts();  // asked twice: the list must not grow twice
    for (int frame = 0; frame < 1800 && !bridge.finished; frame++) {  // at most half a minute (a busy machine)
        bridge.iap->poll();  // the one added line
        betweenFrames(16);   // the rest of the frame: over StoreKit the main run loop runs, as on iOS
    }
    printf("classic products listed: %u\n", static_cast<unsigned>(bridge.iap->iOSProducts.size()));
    return bridge.finished ? 0 : 1;
}
