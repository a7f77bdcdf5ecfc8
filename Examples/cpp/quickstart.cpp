// The README's quick start, whole: open the local store, list the shop, buy 100 coins, grant, finish.
// usage: quickstart CATALOG STATE_DIR
#include <iosiap/iosiap.hpp>

#include <chrono>
#include <cstdio>
#include <thread>

struct Shop : iosiap::StoreDelegate {
    iosiap::Store *store = nullptr;
    int coins = 0;
    bool done = false;

    void onProductsReceived(std::uint64_t, const std::vector<iosiap::Product> &products,
                            const std::vector<std::string> &) override {
        for (const iosiap::Product &product : products) std::printf("%s: %s\n", product.title.c_str(), product.displayPrice.c_str());
        store->requestPayment("com.iosiap.example.coins_100");
    }
    void onProductsFailed(std::uint64_t, int status, const std::string &message) override {
        std::printf("no products (%d): %s\n", status, message.c_str());   // offline: show the shop later
        done = true;
    }
    void onPurchased(std::uint64_t, const iosiap::Transaction &transaction) override {
        coins += 100 * transaction.quantity;        // grant first ...
        store->finishTransaction(transaction.id);   // ... then finish: until then it comes back at every launch
        std::printf("coins: %d\n", coins);
        done = true;
    }
    void onFailed(std::uint64_t, const std::string &productId, int status, const std::string &message) override {
        std::printf("%s failed (%d): %s\n", productId.c_str(), status, message.c_str());
        done = true;
    }
    void onCancelled(std::uint64_t, const std::string &) override { done = true; }
    void onDeferred(std::uint64_t, const std::string &) override { done = true; }  // Ask to Buy: onPurchased comes later
};

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    iosiap::LocalStoreOptions options;
    options.catalogPath = argv[1];      // an Xcode .storekit file
    options.stateDirectory = argv[2];   // where purchases are kept
    Shop shop;
    iosiap::Store store;
    shop.store = &store;
    if (store.openLocal(options, &shop) != IOSIAP_OK) return 1;
    store.requestProducts({"com.iosiap.example.coins_100", "com.iosiap.example.pro_upgrade"});
    while (!shop.done) {                // the game's frame loop
        store.poll();                   // callbacks run here, on this thread
        std::this_thread::sleep_for(std::chrono::milliseconds(16));
    }
    return shop.coins == 100 ? 0 : 1;
}
