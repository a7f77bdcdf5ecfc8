/*
 * IOSiAP.h — the classic IOSiAP C++ API (as in the original cocos2d-x IOSiAP), on IOSiAP's C ABI.
 *
 * Games written for the original compile unchanged: derive a bridge from IOSiAPDelegate, own an IOSiAP,
 * request products, pay, restore. The one line such a game adds is the per-frame event pump:
 *
 *     iap->poll();   // once per frame, on the game's thread: the delegate is called from here
 *
 * On Apple platforms the store is StoreKit 2, with the journal in the app's Application Support folder
 * (IOSIAP_STATE_DIR, if set, names another); an Xcode scheme's StoreKit configuration applies as usual.
 * (IOSIAP_CLASSIC_STOREKIT takes that branch elsewhere too: for compile checks.)
 * Off Apple platforms the store is the local App Store, chosen by environment variables, the way an Xcode
 * scheme selects a StoreKit configuration:
 *     IOSIAP_CATALOG     the .storekit file (required)
 *     IOSIAP_STATE_DIR   where purchases are kept (default: "iosiap-state" in the working directory)
 *     IOSIAP_LOCALE, IOSIAP_STOREFRONT, IOSIAP_BUNDLE_ID   optional overrides
 *
 * Kept from the original: the class, method and enum names and values (IOSIAP_PAYMENT_PURCHAED included).
 * Fixed: invalid ids get isValid = false; a second products request updates iOSProducts instead of
 * appending the same products again (IOSProduct pointers stay valid); cancelled and declined payments are
 * reported as IOSIAP_PAYMENT_FAILED (as StoreKit 1 reported a cancel) and deferred ones (Ask to Buy) as
 * IOSIAP_PAYMENT_REMOVED, so no spinner waits forever; restores always end in onRestoreFinished.
 * Transactions are finished after onPaymentEvent(PURCHAED or RESTORED) returns: grant inside it. A game
 * that dies or throws before it returns gets the purchase again at the next launch. Until a delegate is
 * set, poll() delivers nothing and events wait.
 * Added: onPaymentRevoked, an optional delegate callback (its default does nothing) for a refund, called once
 * it is told: until it returns.
 * Added: setUIContext, the game's window or scene that StoreKit shows a payment's confirmation in (required
 * on visionOS, where a payment without one fails).
 * For transactions, transaction ids and error messages, use the modern layer in <iosiap/iosiap.hpp>.
 */
#ifndef IOSIAP_CLASSIC_IOSIAP_H
#define IOSIAP_CLASSIC_IOSIAP_H

#include <iosiap/iosiap.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

class IOSProduct {
public:
    std::string productIdentifier;
    std::string localizedTitle;
    std::string localizedDescription;
    std::string localizedPrice; /* formatted for the storefront's locale: display it as is */
    bool isValid;
    int index; /* position in IOSiAP::iOSProducts */

    IOSProduct() : isValid(false), index(-1) {}
};

enum IOSiAPPaymentEvent {
    IOSIAP_PAYMENT_PURCHASING = 0,
    IOSIAP_PAYMENT_PURCHAED = 1,
    IOSIAP_PAYMENT_FAILED = 2,
    IOSIAP_PAYMENT_RESTORED = 3,
    IOSIAP_PAYMENT_REMOVED = 4
};

class IOSiAPDelegate {
public:
    virtual ~IOSiAPDelegate() {}
    virtual void onRequestProductsFinish(void) = 0;
    /** code is an iosiap_status (StoreKit's SKError n is -100 - n). */
    virtual void onRequestProductsError(int code) = 0;
    virtual void onPaymentEvent(std::string &identifier, IOSiAPPaymentEvent event, int quantity) = 0;
    /** Optional since 0.5 (pure before): the original IOSiAP had no restores, and a bridge written for it, with
        three callbacks, compiles unchanged. A restore the game asks for ends here; the default does nothing. */
    virtual void onRestoreFinished(bool succeed) { (void)succeed; }
    /** Since 0.4, optional. A purchase of identifier was refunded (quantity units; or a subscription's Family
        Sharing ended): take back what it granted. Called once per refund, inside poll(); if it throws (poll
        rethrows) or the game dies before it returns, it is called again at the next launch. The default does
        nothing and returns, so a delegate that does not override it (one written for the original IOSiAP, which
        had no such callback) lets every refund count as told, silently, as before. */
    virtual void onPaymentRevoked(std::string &identifier, int quantity) { (void)identifier; (void)quantity; }
};

class IOSiAP {
public:
    IOSiAP() : delegate(NULL), adapter_(this) {
#if defined(__APPLE__) || defined(IOSIAP_CLASSIC_STOREKIT)
        iosiap::StoreKitOptions options;
        options.stateDirectory = environment("IOSIAP_STATE_DIR", "");  // empty: Application Support/IOSiAP
        openStatus_ = store_.openStoreKit(options, &adapter_);
        if (openStatus_ != IOSIAP_OK) {
            std::fprintf(stderr, "IOSiAP: cannot open StoreKit (%s): %s\n", iosiap_status_text(openStatus_),
                         iosiap_last_error_message());
        }
#else
        iosiap::LocalStoreOptions options;
        options.catalogPath = environment("IOSIAP_CATALOG", "");
        options.stateDirectory = environment("IOSIAP_STATE_DIR", "iosiap-state");
        options.locale = environment("IOSIAP_LOCALE", "");
        options.storefront = environment("IOSIAP_STOREFRONT", "");
        options.bundleId = environment("IOSIAP_BUNDLE_ID", "");
        openStatus_ = options.catalogPath.empty() ? static_cast<int>(IOSIAP_E_INVALID_ARGUMENT)
                                                  : store_.openLocal(options, &adapter_);
        if (openStatus_ != IOSIAP_OK) {
            std::fprintf(stderr, "IOSiAP: cannot open the local store (%s): %s\n", iosiap_status_text(openStatus_),
                         options.catalogPath.empty() ? "IOSIAP_CATALOG is not set" : iosiap_last_error_message());
        }
#endif
    }

    ~IOSiAP() {
        store_.close();
        for (size_t i = 0; i < iOSProducts.size(); i++) delete iOSProducts[i];
    }

    void requestProducts(std::vector<std::string> &productIdentifiers) {
        int status = store_.isOpen() ? store_.requestProducts(productIdentifiers) : openStatus_;
        if (status != IOSIAP_OK) later(Pending::productsError(status));
    }

    IOSProduct *iOSProductByIdentifier(std::string &identifier) {
        for (size_t i = 0; i < iOSProducts.size(); i++) {
            if (iOSProducts[i]->productIdentifier == identifier) return iOSProducts[i];
        }
        return NULL;
    }

    void paymentWithProduct(IOSProduct *iosProduct, int quantity = 1) {
        if (!iosProduct) {
            later(Pending::payment(std::string(), quantity));
            return;
        }
        int status = iosProduct->isValid && store_.isOpen()
                         ? store_.requestPayment(iosProduct->productIdentifier, quantity, std::string(), NULL, uiContext_)
                         : static_cast<int>(IOSIAP_E_UNKNOWN_PRODUCT);
        if (status != IOSIAP_OK) later(Pending::payment(iosProduct->productIdentifier, quantity));
    }

    /** Since 0.4. The game's UI object that StoreKit shows every later payment's confirmation in, as an
        Objective-C object pointer (`(__bridge void *)scene`): a UIWindowScene * or UIViewController * on iOS,
        tvOS and visionOS, an NSWindow * or NSViewController * on macOS, or NULL (the default: StoreKit chooses). Required on
        visionOS: there a payment without one is IOSIAP_PAYMENT_FAILED. The library does not retain it: keep
        each object alive until the final onPaymentEvent of every payment made while it was set. The local
        store ignores it. See iosiap_payment_options.ui_context. */
    void setUIContext(void *context) { uiContext_ = context; }

    void restorePayment() {
        int status = store_.isOpen() ? store_.requestRestore() : openStatus_;
        if (status != IOSIAP_OK) later(Pending::restoreFailed());
    }

    /** The per-frame event pump: calls the delegate, one event at a time, for what was waiting when it was
        called (at most maxEventsPerPoll of the store's events; the rest wait for the next frame, as do
        events that a callback's own requests cause). While no delegate is set (also when one is cleared
        inside a callback) events wait, and nothing is finished; if the delegate throws, the events after that
        one wait for the next poll. May be called again from inside a delegate callback. */
    int poll() {
        int delivered = 0;
        for (size_t waiting = pending_.size(); waiting > 0 && delegate && !pending_.empty(); waiting--) {
            Pending next = pending_.front();
            pending_.erase(pending_.begin());  // taken before the delegate sees it: delivered once
            deliver(next);
            delivered++;
        }
        for (int budget = maxEventsPerPoll; budget > 0 && delegate && store_.isOpen(); budget--) {
            int one = store_.poll(1);
            if (one <= 0) break;
            delivered += one;
        }
        return delivered;
    }

    /** How many of the store's events one poll() delivers at most. */
    static const int maxEventsPerPoll = 64;

    IOSiAPDelegate *delegate;
    std::vector<IOSProduct *> iOSProducts;

private:
    /** A failure found inside a request call, held until poll so no callback runs inside the call. */
    struct Pending {
        enum Kind { ProductsError, PaymentFailed, RestoreFailed } kind;
        int code;
        std::string identifier;
        int quantity;
        static Pending productsError(int code) { Pending p = {ProductsError, code, std::string(), 0}; return p; }
        static Pending payment(const std::string &id, int quantity) { Pending p = {PaymentFailed, 0, id, quantity}; return p; }
        static Pending restoreFailed() { Pending p = {RestoreFailed, 0, std::string(), 0}; return p; }
    };

    /** Turns the modern layer's rich events into the classic ones. */
    class Adapter : public iosiap::StoreDelegate {
    public:
        explicit Adapter(IOSiAP *owner) : owner_(owner) {}

        void onProductsReceived(std::uint64_t, const std::vector<iosiap::Product> &products,
                                const std::vector<std::string> &invalid) {
            for (size_t i = 0; i < products.size(); i++) {
                IOSProduct *product = owner_->productSlot(products[i].id);
                product->localizedTitle = products[i].title;
                product->localizedDescription = products[i].description;
                product->localizedPrice = products[i].displayPrice;
                product->isValid = true;
            }
            for (size_t i = 0; i < invalid.size(); i++) owner_->productSlot(invalid[i])->isValid = false;
            if (owner_->delegate) owner_->delegate->onRequestProductsFinish();
        }
        void onProductsFailed(std::uint64_t, int status, const std::string &) {
            if (owner_->delegate) owner_->delegate->onRequestProductsError(status);
        }
        void onPaymentEvent(const std::string &productId, iosiap::PaymentState state, int quantity) {
            // This event's transaction, taken now: a poll from inside the delegate sets its own.
            std::uint64_t transactionId = finishAfterDelegate_;
            finishAfterDelegate_ = 0;
            std::string identifier = productId;
            if (!owner_->delegate) return;  // set to NULL inside a callback: unfinished, it comes back
            owner_->delegate->onPaymentEvent(identifier, static_cast<IOSiAPPaymentEvent>(state), quantity);
            // Reached only when the delegate returned: a crash or an exception inside it leaves the purchase
            // unfinished, and it comes back at the next launch.
            if (transactionId != 0) owner_->store_.finishTransaction(transactionId);
        }
        void onPurchased(std::uint64_t, const iosiap::Transaction &transaction) { finishAfterDelegate_ = transaction.id; }
        void onRestored(std::uint64_t, const iosiap::Transaction &transaction) { finishAfterDelegate_ = transaction.id; }
        void onRestoreFinished(bool succeeded) {
            if (owner_->delegate) owner_->delegate->onRestoreFinished(succeeded);
        }
        void onRevoked(const iosiap::Transaction &transaction) {
            std::string identifier = transaction.productId;
            // An exception it throws reaches the modern layer, which counts the refund as not told.
            if (owner_->delegate) owner_->delegate->onPaymentRevoked(identifier, transaction.quantity);
        }

    private:
        IOSiAP *owner_;
        /** The transaction of the classic event about to be delivered (set by onPurchased / onRestored). */
        std::uint64_t finishAfterDelegate_ = 0;
    };

    IOSProduct *productSlot(const std::string &identifier) {
        std::string id = identifier;
        IOSProduct *product = iOSProductByIdentifier(id);
        if (product) return product;
        product = new IOSProduct();
        product->productIdentifier = identifier;
        product->index = static_cast<int>(iOSProducts.size());
        iOSProducts.push_back(product);
        return product;
    }

    void later(const Pending &pending) { pending_.push_back(pending); }

    void deliver(Pending &pending) {
        if (!delegate) return;
        switch (pending.kind) {
        case Pending::ProductsError: delegate->onRequestProductsError(pending.code); break;
        case Pending::PaymentFailed: delegate->onPaymentEvent(pending.identifier, IOSIAP_PAYMENT_FAILED, pending.quantity); break;
        case Pending::RestoreFailed: delegate->onRestoreFinished(false); break;
        }
    }

    static std::string environment(const char *name, const char *fallback) {
        const char *value = std::getenv(name);
        return value && *value ? std::string(value) : std::string(fallback);
    }

    Adapter adapter_;
    iosiap::Store store_;
    int openStatus_;
    std::vector<Pending> pending_;
    void *uiContext_ = NULL;  // setUIContext's
};

#endif /* IOSIAP_CLASSIC_IOSIAP_H */
