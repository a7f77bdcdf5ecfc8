// An exception thrown by C++ code that iosiap.hpp runs inside a C callback (the visitors of
// Store::entitlements and Store::localPendingPurchases) never unwinds through the library's frames: it is
// caught at the C boundary and rethrown once the C call has returned, and the store still works after it.
// Allocation failure is real here: this program's operator new throws std::bad_alloc while armed.
// Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
// over StoreKit for the entitlements; the pending purchases visitor lists the local store's waiting purchases, so
// there QA turns Ask to Buy on and approves with iosiap-store, and the store still works after the exception.
// usage: callback_exceptions CATALOG.storekit STATE_DIRECTORY IOSIAP_STORE
#include <iosiap/iosiap.hpp>

#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

#include "test_store.hpp"

#define TEST_NAME "callback_exceptions"
#include "expect.hpp"

namespace {

thread_local bool failAllocations = false;
class Counter : public iosiap::StoreDelegate {
public:
    int products = 0, purchased = 0, deferred = 0;
    std::uint64_t lastTransaction = 0;

    void onProductsReceived(std::uint64_t, const std::vector<iosiap::Product> &, const std::vector<std::string> &) override {
        products++;
    }
    void onPurchased(std::uint64_t, const iosiap::Transaction &transaction) override {
        lastTransaction = transaction.id;
        purchased++;
    }
    void onDeferred(std::uint64_t, const std::string &) override { deferred++; }
};

void pump(iosiap::Store &store, const int &counter, int until) {
    for (int frame = 0; frame < 2500 && counter < until; frame++) {
        store.poll();
        betweenFrames();
    }
}

}  // namespace

void *operator new(std::size_t size) {
    if (failAllocations) throw std::bad_alloc();
    void *memory = std::malloc(size ? size : 1);
    if (!memory) throw std::bad_alloc();
    return memory;
}

void operator delete(void *memory) noexcept { std::free(memory); }
void operator delete(void *memory, std::size_t) noexcept { std::free(memory); }

int main(int argc, char **argv) {
    if (argc != 4) return 2;
    Counter counter;
    iosiap::Store store;
    iosiap::LocalStoreOptions options;
    options.catalogPath = argv[1];
    options.stateDirectory = argv[2];
    const StoreTool tool(argv[3], argv[2], argv[1]);
    if (openTestStore(store, options, &counter) != IOSIAP_OK) return 1;
    const std::string pro = "com.iosiap.example.pro_upgrade", coins = "com.iosiap.example.coins_100";
    store.requestProducts({pro, coins});
    pump(store, counter.products, 1);
    store.requestPayment(pro);
    pump(store, counter.purchased, 1);
    expect(store.finishTransaction(counter.lastTransaction) == IOSIAP_OK, "the purchase finished");
    expect(store.entitlements().size() == 1, "one entitlement");

    // push_back inside the entitlements visitor fails: the caller catches bad_alloc after the C call.
    bool caught = false;
    try {
        failAllocations = true;
        std::vector<iosiap::Transaction> entitlements = store.entitlements();
        failAllocations = false;
    } catch (const std::bad_alloc &) {
        failAllocations = false;
        caught = true;
    }
    expect(caught, "std::bad_alloc from the entitlements visitor reaches the caller");
    expect(store.entitlements().size() == 1, "entitlements work after it");

    // The same inside the pending purchases visitor.
    expect(QA(tool, store.localSetAskToBuy(true), "ask-to-buy on"), "Ask to Buy on");
    store.requestPayment(coins);
    pump(store, counter.deferred, 1);
#ifdef IOSIAP_STOREKIT_STANDIN
    // iosiap_local_pending_purchases lists a local store's: StoreKit tells the app of no waiting purchase
    // ("Product.PurchaseResult.pending"). QA approves it from outside (its id: the first to wait in this App Store).
    expect(counter.deferred == 1, "the purchase waits");
    expect(tool.quiet("approve 1"), "the purchase approved");
#else
    expect(store.localPendingPurchases().size() == 1, "one purchase waits");
    caught = false;
    try {
        failAllocations = true;
        std::vector<iosiap::Store::PendingPurchase> pending = store.localPendingPurchases();
        failAllocations = false;
    } catch (const std::bad_alloc &) {
        failAllocations = false;
        caught = true;
    }
    expect(caught, "std::bad_alloc from the pending purchases visitor reaches the caller");
    std::vector<iosiap::Store::PendingPurchase> pending = store.localPendingPurchases();
    expect(pending.size() == 1 && pending[0].productId == coins, "pending purchases work after it");
    expect(store.localApproveAskToBuy(pending.empty() ? -1 : pending[0].id) == IOSIAP_OK, "the purchase approved");
#endif
    pump(store, counter.purchased, 2);
    expect(counter.purchased == 2, "the approved purchase delivered");

    store.close();
    return report();
}
