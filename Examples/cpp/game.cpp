// A small C++ "game" on IOSiAP's modern layer: a frame loop that polls once per frame, a shop that
// shows localized prices, purchases granted and then finished, a restore, and every event printed.
//
// usage: iosiap-example-game CATALOG.storekit STATE_DIRECTORY [LOCALE STOREFRONT]
//
// Built against the StoreKit stand-in's SDK (scripts/build-sdk.sh --storekit-standin, which defines
// IOSIAP_STOREKIT_STANDIN), it opens the store over StoreKit, as on an iPhone: usage iosiap-example-game
// STATE_DIRECTORY (the journal's), the App Store named by IOSIAP_STOREKIT_CONFIGURATION and IOSIAP_STOREKIT_STATE.
#include <iosiap/iosiap.hpp>
#ifdef IOSIAP_STOREKIT_STANDIN
#include <iosiap/storekit_standin.h>
#endif

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sys/resource.h>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

const std::string kCoins = "com.iosiap.example.coins_100";
const std::string kPro = "com.iosiap.example.pro_upgrade";
const std::string kGold = "com.iosiap.example.club_gold_monthly";

/** `text` padded with spaces to `width` characters (UTF-8 code points), on the left if `right` aligns it right. */
static std::string padded(const std::string &text, std::size_t width, bool right) {
    std::size_t characters = 0;
    for (unsigned char byte : text) if ((byte & 0xC0) != 0x80) characters++;
    std::string spaces(characters < width ? width - characters : 0, ' ');
    return right ? spaces + text : text + spaces;
}

class Game : public iosiap::StoreDelegate {
public:
    explicit Game(iosiap::Store &store) : store_(store), coins_(0), hasPro_(false), openRequests_(0) {}

    void ask(int status, const char *what) {
        if (status == IOSIAP_OK) {
            openRequests_++;
        } else {
            std::printf("%s refused: %s (%d)\n", what, iosiap::Store::lastErrorMessage().c_str(), status);
        }
    }

    /** One frame: pump the store, then (in a real game) update and draw. */
    void frame() { store_.poll(); }
    bool idle() const { return openRequests_ == 0; }
    int coins() const { return coins_; }

    void onProductsReceived(std::uint64_t requestId, const std::vector<iosiap::Product> &products,
                            const std::vector<std::string> &invalid) override {
        std::printf("event: products #%llu, %u found, %u invalid\n", static_cast<unsigned long long>(requestId),
                    static_cast<unsigned>(products.size()), static_cast<unsigned>(invalid.size()));
        std::printf("shop:\n");
        for (const iosiap::Product &product : products) {
            // Padded by characters, not bytes: "Münzen" and "0,99 €" are longer in UTF-8 than on screen.
            std::printf("  %s %s  %s", padded(product.title, 14, false).c_str(), padded(product.displayPrice, 10, true).c_str(),
                        product.description.c_str());
            if (!product.introOfferDisplayPrice.empty()) std::printf(" (first period %s)", product.introOfferDisplayPrice.c_str());
            std::printf("\n");
        }
        for (const std::string &id : invalid) std::printf("  (not for sale: %s)\n", id.c_str());
        openRequests_--;
    }
    void onProductsFailed(std::uint64_t requestId, int status, const std::string &message) override {
        std::printf("event: products #%llu failed (%d): %s\n", static_cast<unsigned long long>(requestId), status, message.c_str());
        openRequests_--;
    }
    void onPurchasing(std::uint64_t requestId, const std::string &productId) override {
        std::printf("event: purchasing #%llu %s\n", static_cast<unsigned long long>(requestId), productId.c_str());
    }
    void onPurchased(std::uint64_t requestId, const iosiap::Transaction &transaction) override {
        std::printf("event: purchased #%llu %s x%d (transaction %llu)\n", static_cast<unsigned long long>(requestId),
                    transaction.productId.c_str(), transaction.quantity, static_cast<unsigned long long>(transaction.id));
        grant(transaction);
        int status = store_.finishTransaction(transaction.id);  // only after granting
        std::printf("  finished transaction %llu: %s\n", static_cast<unsigned long long>(transaction.id), iosiap_status_text(status));
        if (requestId != 0) openRequests_--;
    }
    void onCancelled(std::uint64_t requestId, const std::string &productId) override {
        std::printf("event: cancelled #%llu %s\n", static_cast<unsigned long long>(requestId), productId.c_str());
        openRequests_--;
    }
    void onFailed(std::uint64_t requestId, const std::string &productId, int status, const std::string &message) override {
        std::printf("event: failed #%llu %s (%d): %s\n", static_cast<unsigned long long>(requestId), productId.c_str(), status,
                    message.c_str());
        openRequests_--;
    }
    void onDeferred(std::uint64_t requestId, const std::string &productId) override {
        std::printf("event: deferred #%llu %s (waiting for a parent)\n", static_cast<unsigned long long>(requestId), productId.c_str());
        openRequests_--;
    }
    void onRestored(std::uint64_t requestId, const iosiap::Transaction &transaction) override {
        std::printf("event: restored #%llu %s\n", static_cast<unsigned long long>(requestId), transaction.productId.c_str());
        grant(transaction);
    }
    void onRestoreFinished(std::uint64_t requestId, bool succeeded, std::size_t count, int, const std::string &message) override {
        std::printf("event: restore finished #%llu: %s, %u restored\n", static_cast<unsigned long long>(requestId),
                    succeeded ? "ok" : message.c_str(), static_cast<unsigned>(count));
        openRequests_--;
    }
    void onRevoked(const iosiap::Transaction &transaction) override {
        std::printf("event: revoked %s\n", transaction.productId.c_str());
    }
    void onExpired(const iosiap::Transaction &transaction) override {
        std::printf("event: expired %s\n", transaction.productId.c_str());
    }
    /** Bought in the App Store, outside the game: this game always continues at once. */
    void onPurchaseIntent(const iosiap::Product &product) override {
        std::printf("event: purchase intent %s %s, continuing\n", product.id.c_str(), product.displayPrice.c_str());
        ask(store_.requestPayment(product.id), "buy from the App Store");
    }
    /** An App Store message (a price increase to agree to, a billing issue, a win-back offer): held back until
        the game shows it. This game shows it at once; a real one waits for a pause between levels and passes its
        UIWindowScene * on iOS. */
    void onStoreKitMessage(const std::string &messageId, int reason) override {
        std::printf("event: App Store message %s (reason %d), displayed: %d\n", messageId.c_str(), reason,
                    store_.displayMessage(messageId));
    }
    /** Prices differ by storefront: a real game requests its products again. */
    void onStorefrontChanged(const std::string &storefront) override {
        std::printf("event: storefront changed to %s\n", storefront.c_str());
    }

private:
    /** Idempotent by transaction id: a transaction delivered again after a crash grants nothing twice. */
    void grant(const iosiap::Transaction &transaction) {
        if (!granted_.insert(transaction.id).second) return;
        if (transaction.productId == kCoins) {
            coins_ += 100 * transaction.quantity;
            std::printf("  grant: +%d coins, balance %d\n", 100 * transaction.quantity, coins_);
        } else if (transaction.productId == kPro) {
            hasPro_ = true;
            std::printf("  grant: pro upgrade\n");
        } else {
            std::printf("  grant: %s\n", transaction.productId.c_str());
        }
    }

    iosiap::Store &store_;
    int coins_;
    bool hasPro_;
    int openRequests_;
    std::set<std::uint64_t> granted_;
};

/** The time between two frames (16 ms at 60 frames a second). On iOS the main run loop runs there (StoreKit's
    purchase runs on the main actor); on Linux, the StoreKit stand-in's run loop runs only when a game runs it. */
void betweenFrames(int milliseconds = 16) {
#ifdef IOSIAP_STOREKIT_STANDIN
    storekit_standin_run_main_loop(milliseconds / 1000.0);
#else
    if (milliseconds > 0) std::this_thread::sleep_for(std::chrono::milliseconds(milliseconds));
#endif
}

/** Runs frames (about 60 a second) until nothing is pending; false after ten seconds. */
bool runUntilIdle(Game &game) {
    for (int frame = 0; frame < 600; frame++) {
        game.frame();
        if (game.idle()) return true;
        betweenFrames();
    }
    std::printf("timed out\n");
    return false;
}

}  // namespace

int main(int argc, char **argv) {
    iosiap::Store store;
    Game game(store);
#ifdef IOSIAP_STOREKIT_STANDIN
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s STATE_DIRECTORY\n", argv[0]);
        return 2;
    }
    iosiap::StoreKitOptions options;
    options.stateDirectory = argv[1];
    int status = store.openStoreKit(options, &game);
#else
    if (argc != 3 && argc != 5) {
        std::fprintf(stderr, "usage: %s CATALOG.storekit STATE_DIRECTORY [LOCALE STOREFRONT]\n", argv[0]);
        return 2;
    }
    iosiap::LocalStoreOptions options;
    options.catalogPath = argv[1];
    options.stateDirectory = argv[2];
    options.bundleId = "com.iosiap.example";
    if (argc == 5) {
        options.locale = argv[3];
        options.storefront = argv[4];
    }
    int status = store.openLocal(options, &game);
#endif
    if (status != IOSIAP_OK) {
        std::fprintf(stderr, "cannot open the store: %s\n", iosiap::Store::lastErrorMessage().c_str());
        return 1;
    }
    std::printf("IOSiAP %d.%d.%d, can make payments: %s\n", IOSIAP_VERSION_MAJOR, IOSIAP_VERSION_MINOR,
                IOSIAP_VERSION_PATCH, store.canMakePayments() ? "yes" : "no");
    std::printf("transactions verified: %s\n", store.verifiesTransactions() ? "yes" : "no (delivered unchecked: for development only)");

    game.ask(store.requestProducts({kCoins, kPro, kGold, "com.iosiap.example.missing"}), "products");
    if (!runUntilIdle(game)) return 1;
    game.ask(store.requestPayment(kCoins, 2), "buy coins");
    if (!runUntilIdle(game)) return 1;
    game.ask(store.requestPayment(kPro), "buy pro");
    if (!runUntilIdle(game)) return 1;
    game.ask(store.requestPayment(kPro, 11), "buy 11 pro upgrades");  // refused: quantity outside 1...10
    game.ask(store.requestRestore(), "restore");
    if (!runUntilIdle(game)) return 1;

    std::printf("entitlements:\n");
    for (const iosiap::Transaction &transaction : store.entitlements()) {
        std::printf("  %s (transaction %llu)\n", transaction.productId.c_str(), static_cast<unsigned long long>(transaction.id));
    }
    std::printf("coins: %d, pro: %s\n", game.coins(), store.isEntitled(kPro) ? "yes" : "no");

    // For QA scripts: IOSIAP_EXAMPLE_LINGER_SECONDS=N keeps the frame loop running N more seconds, printing
    // whatever the store reports meanwhile (a refund or a purchase made with iosiap-store, a renewal).
    const char *linger = std::getenv("IOSIAP_EXAMPLE_LINGER_SECONDS");
    if (linger && std::atoi(linger) > 0) {
        std::printf("lingering %s s\n", linger);
        std::fflush(stdout);
        for (int frame = 0; frame < std::atoi(linger) * 60; frame++) {
            game.frame();
            std::fflush(stdout);
            betweenFrames();
        }
    }

    // For the memory benchmark (scripts/benchmark.sh): IOSIAP_EXAMPLE_EXTRA_PURCHASES=N buys N more coins,
    // each granted and finished, then reports the peak resident set size against the one at this point.
    const char *extra = std::getenv("IOSIAP_EXAMPLE_EXTRA_PURCHASES");
    if (extra && std::atoi(extra) > 0) {
        struct rusage usage;
        getrusage(RUSAGE_SELF, &usage);
        const long startKiB = usage.ru_maxrss;
        const int count = std::atoi(extra);
        for (int i = 0; i < count; i++) {
            game.ask(store.requestPayment(kCoins), "buy coins");
            while (!game.idle()) {  // a busy frame loop: as fast as the store answers
                game.frame();
                betweenFrames(0);
            }
        }
        getrusage(RUSAGE_SELF, &usage);
        std::fprintf(stderr, "memory: peak RSS %ld KiB after start-up, %ld KiB after %d more purchases\n", startKiB, usage.ru_maxrss, count);
    }
    return 0;
}
