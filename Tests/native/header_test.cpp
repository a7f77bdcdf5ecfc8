// The C++ headers compile together, with every warning, from C++11 to C++20.
#include "IOSiAP.h"
#include <iosiap/iosiap.h>
#include <iosiap/iosiap.hpp>

#include <map>
#include <type_traits>
#include <utility>

static_assert(!std::is_copy_constructible<iosiap::Store>::value, "a Store is not copyable");
static_assert(std::is_move_constructible<iosiap::Store>::value, "a Store is movable");
static_assert(IOSIAP_PAYMENT_PURCHAED == 1 && IOSIAP_PAYMENT_REMOVED == 4, "classic values");

class Bridge : public IOSiAPDelegate {
public:
    void onRequestProductsFinish(void) {}
    void onRequestProductsError(int) {}
    void onPaymentEvent(std::string &, IOSiAPPaymentEvent, int) {}
    void onRestoreFinished(bool) {}
};

int main() {
    iosiap_offer offer = IOSIAP_OFFER_INIT;
    iosiap_offer_signature signature = IOSIAP_OFFER_SIGNATURE_INIT;
    if (offer.size != sizeof offer || signature.size != sizeof signature) return 1;
    iosiap::Store store;
    iosiap::AppTransaction app;
    if (store.appTransaction(&app) == IOSIAP_OK || app.appId != 0) return 1;  // a store never opened has none
    iosiap::Store moved(std::move(store));
    Bridge bridge;
    (void)bridge;
    // A store never opened shows no offer code sheet and takes no win-back payment or code.
    if (moved.presentOfferCodeRedeemSheet(nullptr) == IOSIAP_OK || moved.requestWinBackPayment("p", "o") == IOSIAP_OK ||
        moved.localRedeemOfferCode("p", "c") == IOSIAP_OK) return 1;
    // Nor a refund request or the manage subscriptions sheet.
    std::uint64_t sheet = 0;
    if (moved.beginRefundRequest(1) == IOSIAP_OK || moved.showManageSubscriptions() == IOSIAP_OK ||
        moved.showManageSubscriptions(nullptr, &sheet) == IOSIAP_OK || sheet != 0) return 1;
    // Nor shows an App Store message or raises one.
    if (moved.displayMessage("1") == IOSIAP_OK || moved.localSendMessage(IOSIAP_MESSAGE_REASON_BILLING_ISSUE, "p") == IOSIAP_OK)
        return 1;
    // Nor answers what it knows about the user, nor plays Family Sharing.
    iosiap::SubscriptionStatus status;
    std::string storefront;
    if (moved.subscriptionStatus("g", &status) == IOSIAP_OK || status.subscribedEver || moved.storefront(&storefront) == IOSIAP_OK ||
        moved.isEligibleForIntroOffer("g") || !moved.transactionHistory().empty() || moved.localBuyFamilyShared("p") == IOSIAP_OK ||
        moved.localStopFamilySharing(1) == IOSIAP_OK)
        return 1;
    // Nor a payment with an offer signed as a JWS or with an introductory offer eligibility JWS.
    iosiap::PromotionalOffer signedOffer;
    signedOffer.offerId = "o";
    signedOffer.compactJWS = "h.p.s";
    if (moved.requestPayment("p", signedOffer) == IOSIAP_OK || moved.requestPaymentWithIntroOfferEligibility("p", "h.p.s") == IOSIAP_OK)
        return 1;
    // Nor takes a notification URL.
    if (moved.localSetNotificationUrl("http://127.0.0.1:1/n") == IOSIAP_OK) return 1;
    // A transaction default-constructs (a map indexes it) and gives its dates as std::chrono time points.
    std::map<std::uint64_t, iosiap::Transaction> byId;
    byId[7].productId = "p";
    if (byId[7].id != 0 || byId[7].revocationReason != -1 || byId[7].expirationDate() != std::chrono::system_clock::time_point()) return 1;
    byId[7].purchaseDateMs = 1500;
    if (std::chrono::duration_cast<std::chrono::milliseconds>(byId[7].purchaseDate().time_since_epoch()).count() != 1500) return 1;
    return moved.isOpen() ? 1 : 0;
}
