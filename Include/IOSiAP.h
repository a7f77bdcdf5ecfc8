/** @file
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
 * It compiles as C++98 (cocos2d-x 2.x games are), on the C ABI alone. An exception a delegate callback throws
 * counts its event as not handled (a refund's onPaymentRevoked is called again at the next launch; a purchase
 * stays unfinished) and poll() throws once the store's poll has returned: the same exception from C++11 on, and
 * in C++98, which cannot carry one across the library, a std::runtime_error saying so, with its what(). (A
 * failure found in a request call is held and delivered by poll() itself: its exception passes unchanged.)
 * Compile every file that includes it with the same -std and exception settings (its inline functions differ).
 * For transactions, transaction ids and error messages, use the modern layer in <iosiap/iosiap.hpp> (C++11).
 */
#ifndef IOSIAP_CLASSIC_IOSIAP_H
#define IOSIAP_CLASSIC_IOSIAP_H

#include <iosiap/iosiap.h>

#include <cstdio>
#include <cstdlib>
#include <iostream> /* the original included it: bridges written for it use std::cout without their own include */
#include <string>
#include <vector>

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND)
/** 1 when built with C++ exceptions: a delegate's exception is caught at the C boundary, and poll() throws. */
#define IOSIAP_CLASSIC_EXCEPTIONS 1
#include <stdexcept>
#if __cplusplus >= 201103L
#include <exception>
#endif
#else
#define IOSIAP_CLASSIC_EXCEPTIONS 0 /**< built without exceptions */
#endif

/** A product as the classic API keeps it: one per id ever requested, in IOSiAP::iOSProducts. */
class IOSProduct {
public:
    std::string productIdentifier; /**< the product id */
    std::string localizedTitle; /**< the title in the storefront's language */
    std::string localizedDescription; /**< the description in the storefront's language */
    std::string localizedPrice; /**< formatted for the storefront's locale: display it as is */
    bool isValid; /**< the store sells it (false for an id the store does not know) */
    int index; /**< position in IOSiAP::iOSProducts */

    IOSProduct() : isValid(false), index(-1) {}
};

/** The classic payment events, with the original's names and values (its spelling of PURCHAED included). */
enum IOSiAPPaymentEvent {
    IOSIAP_PAYMENT_PURCHASING = 0,         /**< the payment sheet is up */
    IOSIAP_PAYMENT_PURCHAED = 1,           /**< bought (the original's spelling): grant it inside the callback; also a
                                                purchase the grant ledger granted, for a product registered there */
    IOSIAP_PAYMENT_FAILED = 2,             /**< failed, cancelled, declined or not verified: nothing to grant */
    IOSIAP_PAYMENT_RESTORED = 3,           /**< given back by a restore: grant it inside the callback */
    IOSIAP_PAYMENT_REMOVED = 4             /**< deferred (Ask to Buy): stop waiting; the purchase, if approved, comes
                                                later */
};

/** The game's bridge: what the classic API calls, inside IOSiAP::poll(). */
class IOSiAPDelegate {
public:
    virtual ~IOSiAPDelegate() {}
    /** A products request ended: IOSiAP::iOSProducts holds each id asked for, isValid or not. */
    virtual void onRequestProductsFinish(void) = 0;
    /** code is an iosiap_status (StoreKit's SKError n is -100 - n). */
    virtual void onRequestProductsError(int code) = 0;
    /** A payment moved on. PURCHAED and RESTORED: grant inside it; the transaction is finished when it returns. */
    virtual void onPaymentEvent(std::string &identifier, IOSiAPPaymentEvent event, int quantity) = 0;
    /** Optional since 0.5 (pure before): the original IOSiAP had no restores, and a bridge written for it, with
        three callbacks, compiles unchanged. A restore the game asks for ends here; the default does nothing. */
    virtual void onRestoreFinished(bool succeed) { (void)succeed; }
    /** Since 0.4, optional. A purchase of identifier was refunded (quantity units; or a subscription's Family
        Sharing ended): take back what it granted. Called once per refund, inside poll(); if it throws (poll
        throws) or the game dies before it returns, it is called again at the next launch. The default does
        nothing and returns, so a delegate that does not override it (one written for the original IOSiAP, which
        had no such callback) lets every refund count as told, silently, as before. */
    virtual void onPaymentRevoked(std::string &identifier, int quantity) { (void)identifier; (void)quantity; }
};

/** The classic store: opened when constructed (StoreKit on Apple platforms, else the local store named by
    environment variables), closed when destroyed. Not copyable. */
class IOSiAP {
public:
    IOSiAP() : delegate(NULL), store_(NULL), openStatus_(IOSIAP_OK), uiContext_(NULL), delegateThrew_(false), thrown_(NULL) {
        iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
        callbacks.on_event = &IOSiAP::onEvent;
        callbacks.user_data = this;
#if defined(__APPLE__) || defined(IOSIAP_CLASSIC_STOREKIT)
        std::string stateDirectory = environment("IOSIAP_STATE_DIR", "");  // empty: Application Support/IOSiAP
        iosiap_storekit_options options = IOSIAP_STOREKIT_OPTIONS_INIT;
        options.state_directory = orNull(stateDirectory);
        openStatus_ = iosiap_store_open_storekit(&store_, &options, &callbacks);
        if (openStatus_ != IOSIAP_OK) {
            std::fprintf(stderr, "IOSiAP: cannot open StoreKit (%s): %s\n", iosiap_status_text(openStatus_),
                         iosiap_last_error_message());
        }
#else
        std::string catalog = environment("IOSIAP_CATALOG", "");
        std::string stateDirectory = environment("IOSIAP_STATE_DIR", "iosiap-state");
        std::string locale = environment("IOSIAP_LOCALE", "");
        std::string storefront = environment("IOSIAP_STOREFRONT", "");
        std::string bundleId = environment("IOSIAP_BUNDLE_ID", "");
        iosiap_local_store_options options = IOSIAP_LOCAL_STORE_OPTIONS_INIT;
        options.catalog_path = catalog.c_str();
        options.state_directory = stateDirectory.c_str();
        options.locale = orNull(locale);
        options.storefront = orNull(storefront);
        options.bundle_id = orNull(bundleId);
        openStatus_ = catalog.empty() ? static_cast<int>(IOSIAP_E_INVALID_ARGUMENT)
                                      : iosiap_store_open_local(&store_, &options, &callbacks);
        if (openStatus_ != IOSIAP_OK) {
            std::fprintf(stderr, "IOSiAP: cannot open the local store (%s): %s\n", iosiap_status_text(openStatus_),
                         catalog.empty() ? "IOSIAP_CATALOG is not set" : iosiap_last_error_message());
        }
#endif
        if (openStatus_ != IOSIAP_OK) store_ = NULL;
    }

    ~IOSiAP() {
        if (store_) iosiap_store_close(store_);
        for (size_t i = 0; i < iOSProducts.size(); i++) delete iOSProducts[i];
#if IOSIAP_CLASSIC_EXCEPTIONS && __cplusplus >= 201103L
        delete static_cast<std::exception_ptr *>(thrown_);
#endif
    }

    /** Asks for products; onRequestProductsFinish (or onRequestProductsError) follows in poll(). */
    void requestProducts(std::vector<std::string> &productIdentifiers) {
        std::vector<const char *> ids;
        for (size_t i = 0; i < productIdentifiers.size(); i++) ids.push_back(productIdentifiers[i].c_str());
        int status = store_ ? iosiap_request_products(NULL, store_, ids.empty() ? NULL : &ids[0], ids.size()) : openStatus_;
        if (status != IOSIAP_OK) later(Pending::productsError(status));
    }

    /** The product with this id, or NULL if it was never requested. */
    IOSProduct *iOSProductByIdentifier(std::string &identifier) {
        for (size_t i = 0; i < iOSProducts.size(); i++) {
            if (iOSProducts[i]->productIdentifier == identifier) return iOSProducts[i];
        }
        return NULL;
    }

    /** Buys quantity units of a valid product; onPaymentEvent follows in poll() (FAILED for a NULL or invalid one). */
    void paymentWithProduct(IOSProduct *iosProduct, int quantity = 1) {
        if (!iosProduct) {
            later(Pending::payment(std::string(), quantity));
            return;
        }
        int status = static_cast<int>(IOSIAP_E_UNKNOWN_PRODUCT);
        if (iosProduct->isValid && store_ && !uiContext_) {
            status = iosiap_request_payment(NULL, store_, iosProduct->productIdentifier.c_str(), quantity, NULL);
        } else if (iosProduct->isValid && store_) {
            iosiap_payment_options options = IOSIAP_PAYMENT_OPTIONS_INIT;  // since 0.4: the UI context
            options.quantity = quantity;
            options.ui_context = uiContext_;
            status = iosiap_request_payment_with_options(NULL, store_, iosProduct->productIdentifier.c_str(), &options);
        }
        if (status != IOSIAP_OK) later(Pending::payment(iosProduct->productIdentifier, quantity));
    }

    /** Since 0.4. The game's UI object that StoreKit shows every later payment's confirmation in, as an
        Objective-C object pointer (`(__bridge void *)scene`): a UIWindowScene * or UIViewController * on iOS,
        tvOS and visionOS, an NSWindow * or NSViewController * on macOS, or NULL (the default: StoreKit chooses). Required on
        visionOS: there a payment without one is IOSIAP_PAYMENT_FAILED. The library does not retain it: keep
        each object alive until the final onPaymentEvent of every payment made while it was set. The local
        store ignores it. See iosiap_payment_options.ui_context. */
    void setUIContext(void *context) { uiContext_ = context; }

    /** Restores what the user owns: RESTORED for each, then onRestoreFinished, in poll(). */
    void restorePayment() {
        int status = store_ ? iosiap_request_restore(NULL, store_) : openStatus_;
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
        for (int budget = maxEventsPerPoll; budget > 0 && delegate && store_; budget--) {
            int one = iosiap_poll(store_, 1);
            rethrowWhatTheDelegateThrew();
            if (one <= 0) break;
            delivered += one;
        }
        return delivered;
    }

    /** How many of the store's events one poll() delivers at most. */
    static const int maxEventsPerPoll = 64;

    IOSiAPDelegate *delegate;           /**< not owned; while NULL, events wait */
    std::vector<IOSProduct *> iOSProducts; /**< owned by the IOSiAP; pointers stay valid until it is destroyed */

private:
    IOSiAP(const IOSiAP &);             /**< one store per object: not copyable */
    IOSiAP &operator=(const IOSiAP &);

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

    /** The C ABI's on_event: one store event, as the classic callbacks. An exception the delegate throws stops
        here, at the library's edge (it must not unwind through it): the event counts as not handled, and poll()
        throws once the store's poll has returned. */
    static void onEvent(const iosiap_event *event, void *userData) {
        IOSiAP *self = static_cast<IOSiAP *>(userData);
#if IOSIAP_CLASSIC_EXCEPTIONS
        try {
            self->dispatch(*event);
        } catch (const std::exception &error) {
            self->caught(event, error.what());
        } catch (...) {
            self->caught(event, "an exception not derived from std::exception");
        }
#else
        self->dispatch(*event);
#endif
    }

#if IOSIAP_CLASSIC_EXCEPTIONS
    /** Inside onEvent's handler: the event counts as not handled (a refund is told again at the next launch), and
        the first exception since the last throw out of poll() is kept. Nothing here may throw. */
    void caught(const iosiap_event *event, const char *what) {
        iosiap_event_not_handled(store_, event);
        if (delegateThrew_) return;
        delegateThrew_ = true;
        try {
            thrownWhat_ = what;
#if __cplusplus >= 201103L
            thrown_ = new std::exception_ptr(std::current_exception());
#endif
        } catch (...) {
            // Out of memory: poll() still throws, without the text.
        }
    }
#endif

    void rethrowWhatTheDelegateThrew() {
#if IOSIAP_CLASSIC_EXCEPTIONS
        if (!delegateThrew_) return;
        delegateThrew_ = false;
        std::string what;
        what.swap(thrownWhat_);
#if __cplusplus >= 201103L
        if (thrown_) {
            std::exception_ptr thrown = *static_cast<std::exception_ptr *>(thrown_);
            delete static_cast<std::exception_ptr *>(thrown_);
            thrown_ = NULL;
            std::rethrow_exception(thrown);
        }
#endif
        throw std::runtime_error("IOSiAP: a delegate callback threw inside poll(): " + what +
                                 " (C++98 cannot carry the exception itself across the library)");
#endif
    }

    void dispatch(const iosiap_event &event) {
        std::string identifier = event.product_id ? event.product_id : "";
        const int quantity = event.quantity > 0 ? event.quantity : 1;
        if (event.kind == IOSIAP_EVENT_PRODUCTS_RECEIVED) {
            for (size_t i = 0; i < event.product_count; i++) {
                const iosiap_product *received = event.products[i];
                IOSProduct *product = productSlot(text(iosiap_product_id(received)));
                product->localizedTitle = text(iosiap_product_title(received));
                product->localizedDescription = text(iosiap_product_description(received));
                product->localizedPrice = text(iosiap_product_display_price(received));
                product->isValid = true;
            }
            for (size_t i = 0; i < event.invalid_product_id_count; i++) productSlot(text(event.invalid_product_ids[i]))->isValid = false;
        }
        if (!delegate) {
            // Cleared inside a callback: a purchase stays unfinished and comes back, a refund is told again.
            if (event.kind == IOSIAP_EVENT_REVOKED) iosiap_event_not_handled(store_, &event);
            return;
        }
        switch (event.kind) {
        case IOSIAP_EVENT_PRODUCTS_RECEIVED:
            delegate->onRequestProductsFinish();
            break;
        case IOSIAP_EVENT_PRODUCTS_FAILED:
            delegate->onRequestProductsError(event.status);
            break;
        case IOSIAP_EVENT_PURCHASING:
            delegate->onPaymentEvent(identifier, IOSIAP_PAYMENT_PURCHASING, quantity);
            break;
        case IOSIAP_EVENT_PURCHASED:
        case IOSIAP_EVENT_RESTORED: {
            uint64_t transactionId = event.transaction ? event.transaction->id : 0;
            delegate->onPaymentEvent(identifier, event.kind == IOSIAP_EVENT_RESTORED ? IOSIAP_PAYMENT_RESTORED
                                                                                      : IOSIAP_PAYMENT_PURCHAED, quantity);
            // Reached only when the delegate returned: a crash or an exception inside it leaves the purchase
            // unfinished, and it comes back at the next launch.
            if (transactionId != 0) iosiap_finish_transaction(store_, transactionId);
            break;
        }
        case IOSIAP_EVENT_GRANTED:  // finished by the grant ledger already
            delegate->onPaymentEvent(identifier, IOSIAP_PAYMENT_PURCHAED, quantity);
            break;
        case IOSIAP_EVENT_VERIFICATION_FAILED:
        case IOSIAP_EVENT_CANCELLED:
        case IOSIAP_EVENT_FAILED:
        case IOSIAP_EVENT_DECLINED:
            delegate->onPaymentEvent(identifier, IOSIAP_PAYMENT_FAILED, quantity);
            break;
        case IOSIAP_EVENT_DEFERRED:
            delegate->onPaymentEvent(identifier, IOSIAP_PAYMENT_REMOVED, quantity);
            break;
        case IOSIAP_EVENT_RESTORE_FINISHED:
            delegate->onRestoreFinished(event.status == IOSIAP_OK);
            break;
        case IOSIAP_EVENT_REVOKED:
            delegate->onPaymentRevoked(identifier, event.transaction ? event.transaction->quantity : quantity);
            break;
        default:
            break;  // the rest (subscriptions' ends, messages, storefronts) has no classic callback
        }
    }

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

    static std::string text(const char *value) { return value ? std::string(value) : std::string(); }

    static const char *orNull(const std::string &value) { return value.empty() ? NULL : value.c_str(); }

    static std::string environment(const char *name, const char *fallback) {
        const char *value = std::getenv(name);
        return value && *value ? std::string(value) : std::string(fallback);
    }

    iosiap_store *store_;
    int openStatus_;
    std::vector<Pending> pending_;
    void *uiContext_;  // setUIContext's
    // What a delegate callback threw inside the store's poll, for poll() to throw. The same members in every
    // language mode, so that the layout is one (every file that includes this header should still be compiled with
    // the same -std and exception settings: its inline functions differ between them).
    bool delegateThrew_;
    std::string thrownWhat_;  // its what()
    void *thrown_;            // from C++11 on: a std::exception_ptr to it, owned; else NULL
};

#endif /* IOSIAP_CLASSIC_IOSIAP_H */
