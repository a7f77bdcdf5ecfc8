// The C++ requests with the request id first (since 0.5), as the C calls take it: each fills *requestId with the id
// its events carry, for products, a payment, a refund request and the manage subscriptions sheet. A request id put
// where beginRefundRequest takes the UI context does not compile (test-native.sh checks that apart).
// usage: request_ids CATALOG.storekit STATE_DIRECTORY
#include <iosiap/iosiap.hpp>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#define TEST_NAME "request_ids"
#include "expect.hpp"

namespace {

const std::string coins = "com.iosiap.example.coins_100";

/** Keeps the request id of the last event of each kind. */
struct Game : iosiap::StoreDelegate {
    std::uint64_t products = 0, purchased = 0, refundRequest = 0, manageClosed = 0, transactionId = 0;
    int quantity = 0;

    void onProductsReceived(std::uint64_t requestId, const std::vector<iosiap::Product> &,
                            const std::vector<std::string> &) override {
        products = requestId;
    }
    void onPurchased(std::uint64_t requestId, const iosiap::Transaction &transaction) override {
        purchased = requestId;
        transactionId = transaction.id;
        quantity = transaction.quantity;
    }
    void onRefundRequestFinished(std::uint64_t requestId, std::uint64_t, int, int, const std::string &) override {
        refundRequest = requestId;
    }
    void onManageSubscriptionsClosed(std::uint64_t requestId, int, const std::string &) override { manageClosed = requestId; }
};

/** Polls until `done` holds, at most 5 s. */
template <typename Done> void pump(iosiap::Store &store, Done done) {
    for (int i = 0; i < 2500 && !done(); i++) {
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
    expect(store.openLocal(options, &game) == IOSIAP_OK, "the store to open");

    std::uint64_t productsId = 0, paymentId = 0, refundId = 0, manageId = 0;
    expect(store.requestProducts(&productsId, {coins}) == IOSIAP_OK && productsId != 0, "a products request id");
    pump(store, [&] { return game.products != 0; });
    expect(game.products == productsId, "the products' event to carry the request id");

    expect(store.requestPayment(&paymentId, coins, 2) == IOSIAP_OK && paymentId != 0, "a payment request id");
    pump(store, [&] { return game.purchased != 0; });
    expect(game.purchased == paymentId && game.quantity == 2, "the purchase to carry the request id, 2 units");
    store.finishTransaction(game.transactionId);

    expect(store.beginRefundRequest(&refundId, game.transactionId) == IOSIAP_OK && refundId != 0, "a refund request id");
    pump(store, [&] { return game.refundRequest != 0; });
    expect(game.refundRequest == refundId, "the refund request's end to carry the request id");

    expect(store.showManageSubscriptions(&manageId) == IOSIAP_OK && manageId != 0, "a manage subscriptions request id");
    pump(store, [&] { return game.manageClosed != 0; });
    expect(game.manageClosed == manageId, "the sheet's closing to carry the request id (not taken for a UI context)");

    return report();
}
