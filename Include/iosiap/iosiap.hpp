/** @file
 * iosiap.hpp — IOSiAP's modern C++ layer (C++11 and later), header-only over the C ABI of iosiap.h.
 *
 * iosiap::Store is a RAII handle (movable, not copyable) over one store; iosiap::StoreDelegate receives its
 * events with copies of their data: rich callbacks (transactions, cancelled vs failed, deferred, declined,
 * revoked, restore counts), then the classic IOSiAP callback each event maps to. Every callback has an
 * empty default body. The thread rules are those of iosiap.h: in poll mode callbacks run inside
 * Store::poll, on the thread that calls it.
 *
 * An exception never crosses the C ABI: one thrown by a delegate, or by the header's own code inside a C
 * callback (e.g. std::bad_alloc while Store::entitlements collects), is caught at the boundary and rethrown
 * once the C call has returned: from Store::poll, Store::entitlements, Store::localPendingPurchases (in
 * thread mode, where nothing can rethrow a delegate's, it is reported on stderr and dropped). An event whose
 * callback threw counts as not handled (iosiap_event_not_handled): a refund whose onRevoked threw is told again
 * at the next launch.
 */
#ifndef IOSIAP_IOSIAP_HPP
#define IOSIAP_IOSIAP_HPP

#include <iosiap/iosiap.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS) || defined(_CPPUNWIND)
/** 1 when built with C++ exceptions: a delegate's exception is caught at the C boundary and rethrown. */
#define IOSIAP_CPP_EXCEPTIONS 1
#else
#define IOSIAP_CPP_EXCEPTIONS 0 /**< built without exceptions */
#endif

namespace iosiap {

/** The product types (values of iosiap_product_type). */
enum class ProductType {
    Consumable = 0,     /**< IOSIAP_PRODUCT_CONSUMABLE: bought again and again */
    NonConsumable = 1,  /**< IOSIAP_PRODUCT_NON_CONSUMABLE: bought once, owned for good */
    AutoRenewable = 2,  /**< IOSIAP_PRODUCT_AUTO_RENEWABLE: an auto-renewable subscription */
    NonRenewing = 3     /**< IOSIAP_PRODUCT_NON_RENEWING: a non-renewing subscription */
};

/** The classic IOSiAP payment events, with their classic values. */
enum class PaymentState {
    Purchasing = 0,  /**< the payment sheet is up */
    Purchased = 1,   /**< bought: grant it; also a purchase the grant ledger granted, for a product registered there */
    Failed = 2,      /**< failed, cancelled, declined or not verified: nothing to grant */
    Restored = 3,    /**< given back by a restore: grant it */
    Removed = 4      /**< deferred (Ask to Buy): stop waiting; the purchase, if approved, comes later */
};

/** A product, copied out of the store. */
struct Product {
    std::string id;                    /**< the product id */
    ProductType type;                  /**< its kind */
    std::string title;                 /**< in the storefront's language */
    std::string description;           /**< in the storefront's language */
    std::string price;                 /**< exact decimal text, e.g. "0.99" */
    std::string currencyCode;          /**< e.g. "USD" */
    std::string displayPrice;          /**< formatted for the storefront's locale, e.g. "$0.99" */
    std::string subscriptionGroup;     /**< empty unless an auto-renewable subscription */
    std::string subscriptionGroupName; /**< the group's reference name; empty unless an auto-renewable subscription */
    int subscriptionLevel;             /**< 1 is the highest; 0 unless an auto-renewable subscription */
    std::string introOfferDisplayPrice; /**< empty without an introductory offer; "$0.00" for a free trial */

    Product() : type(ProductType::Consumable), subscriptionLevel(0) {}

    /** A copy of a C product (NULL: an empty one). */
    explicit Product(const iosiap_product *product)
        : id(text(iosiap_product_id(product))),
          type(static_cast<ProductType>(iosiap_product_type_of(product))),
          title(text(iosiap_product_title(product))),
          description(text(iosiap_product_description(product))),
          price(text(iosiap_product_price(product))),
          currencyCode(text(iosiap_product_currency_code(product))),
          displayPrice(text(iosiap_product_display_price(product))),
          subscriptionGroup(text(iosiap_product_subscription_group(product))),
          subscriptionGroupName(text(iosiap_product_subscription_group_name(product))),
          subscriptionLevel(iosiap_product_subscription_level(product)) {
        iosiap_offer offer = IOSIAP_OFFER_INIT;
        if (iosiap_product_intro_offer(&offer, product) == IOSIAP_OK) introOfferDisplayPrice = text(offer.display_price);
    }

    /** NULL as the empty string. */
    static std::string text(const char *value) { return value ? std::string(value) : std::string(); }
};

/** A promotional offer with what the game's server signed for it (see iosiap_payment_options): the older
    signature (keyId, nonce, timestampMs, signature), or the offer signed as a JWS (compactJWS, which StoreKit
    takes in a library built with the iOS 26 / macOS 26 SDK; the older four stay empty beside it). */
struct PromotionalOffer {
    std::string offerId;               /**< the promotional offer id, as in the catalog */
    std::string keyId;                 /**< the id of the subscription key your server signed with */
    std::string nonce;                 /**< UUID text */
    std::int64_t timestampMs;          /**< when your server signed it, Unix milliseconds */
    std::string signature;             /**< base64 */
    std::string compactJWS;            /**< iosiap_payment_options.offer_jws, or empty */

    PromotionalOffer() : timestampMs(0) {}
};

/** A transaction, copied out of an event. Dates are Unix milliseconds; 0 means none. */
struct Transaction {
    std::uint64_t id; /**< the App Store's transaction id */
    std::uint64_t originalId; /**< the first transaction of its subscription chain; its own id otherwise */
    std::string productId; /**< the product bought */
    ProductType productType; /**< the product's kind */
    int quantity;                      /**< units bought */
    std::int64_t purchaseDateMs;       /**< Unix milliseconds, as every *Ms here */
    std::int64_t originalPurchaseDateMs; /**< the original transaction's purchase date */
    std::int64_t expirationDateMs;     /**< an auto-renewable subscription's period end; 0 otherwise */
    std::int64_t revocationDateMs;     /**< when it was refunded or revoked; 0 if it was not */
    int revocationReason;              /**< -1 when not revoked */
    std::string appAccountToken;       /**< the UUID text the payment carried, or empty */
    std::string environment;           /**< "Sandbox", "Production", "Xcode" or "LocalTesting" */
    std::string storefront;            /**< ISO 3166-1 alpha-3, e.g. "USA" */
    std::string ownershipType;         /**< "PURCHASED", "FAMILY_SHARED" or (since 0.5) "ASSIGNED" */
    std::string subscriptionGroupId;   /**< empty unless an auto-renewable subscription */
    std::string signedJws;             /**< the store's signed transaction, for your server; or empty */
    std::string signedRenewalInfo;     /**< an auto-renewable's signed renewal info, or empty */
    std::string reason;                /**< "PURCHASE", or "RENEWAL" */
    bool verified;                     /**< passed the store's verification (false when none is configured) */
    int offerType;                     /**< iosiap_offer_type it was charged with; 0: none (or an older library) */
    std::string offerId;               /**< the promotional offer's id, or empty */

    /** Since 0.5: an empty transaction (id 0), so that a std::map<std::uint64_t, Transaction> can be indexed. */
    Transaction()
        : id(0), originalId(0), productType(ProductType::Consumable), quantity(0), purchaseDateMs(0), originalPurchaseDateMs(0),
          expirationDateMs(0), revocationDateMs(0), revocationReason(-1), verified(false), offerType(0) {}

    /** A copy of a C transaction; passedVerification is the event's verified flag. */
    explicit Transaction(const iosiap_transaction &t, bool passedVerification = false)
        : id(t.id), originalId(t.original_id), productId(Product::text(t.product_id)),
          productType(static_cast<ProductType>(t.product_type)), quantity(t.quantity),
          purchaseDateMs(t.purchase_date_ms), originalPurchaseDateMs(t.original_purchase_date_ms),
          expirationDateMs(t.expiration_date_ms), revocationDateMs(t.revocation_date_ms),
          revocationReason(t.revocation_reason), appAccountToken(Product::text(t.app_account_token)),
          environment(Product::text(t.environment)), storefront(Product::text(t.storefront)),
          ownershipType(Product::text(t.ownership_type)), subscriptionGroupId(Product::text(t.subscription_group_id)),
          signedJws(Product::text(t.signed_jws)), signedRenewalInfo(Product::text(t.signed_renewal_info)),
          reason(Product::text(t.reason)), verified(passedVerification),
          offerType(t.size > offsetof(iosiap_transaction, offer_id) ? t.offer_type : 0),
          offerId(t.size > offsetof(iosiap_transaction, offer_id) ? Product::text(t.offer_id) : std::string()) {}

    /** Refunded or revoked. */
    bool isRevoked() const { return revocationDateMs != 0; }

    /** Since 0.5: the dates as std::chrono time points; a date that is none (0 ms) is the clock's epoch. */
    std::chrono::system_clock::time_point purchaseDate() const { return timePoint(purchaseDateMs); }
    /** See purchaseDate(). */
    std::chrono::system_clock::time_point originalPurchaseDate() const { return timePoint(originalPurchaseDateMs); }
    /** See purchaseDate(). */
    std::chrono::system_clock::time_point expirationDate() const { return timePoint(expirationDateMs); }
    /** See purchaseDate(). */
    std::chrono::system_clock::time_point revocationDate() const { return timePoint(revocationDateMs); }

private:
    static std::chrono::system_clock::time_point timePoint(std::int64_t ms) {
        return std::chrono::system_clock::time_point(
            std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::milliseconds(ms)));
    }
};

class Store;

/** Receives a store's events. Override what you need; every body is empty by default. */
class StoreDelegate {
public:
    virtual ~StoreDelegate() {}

    /** Since 0.4. Called once inside Store::openLocal or openStoreKit, on its thread, once the store is open and
        before any event (iosiap_callbacks.on_open): register the grant ledger's products here
        (store.registerCurrency, registerEntitlement, setDeductRefunds). With deliverOnLibraryThread this is the
        place: after the open returns, a purchase redelivered at launch may already have arrived as onPurchased.
        Return IOSIAP_OK to go on; anything else refuses the open (the store is closed before any event, and the
        open returns it if negative, else IOSIAP_E_INVALID_ARGUMENT). Do not close the store here; opening it again
        here answers IOSIAP_E_WRONG_STATE. An exception thrown here refuses the open too, and the open call rethrows
        it. */
    virtual int onOpen(Store &store) {
        (void)store;
        return IOSIAP_OK;
    }

    /* Rich callbacks. request ids are those the request calls returned; 0 for the store's own events. */
    /** A products request ended: the products the store sells, and the ids it does not. */
    virtual void onProductsReceived(std::uint64_t requestId, const std::vector<Product> &products,
                                    const std::vector<std::string> &invalidProductIds) {
        (void)requestId; (void)products; (void)invalidProductIds;
    }
    /** A products request failed. */
    virtual void onProductsFailed(std::uint64_t requestId, int status, const std::string &message) {
        (void)requestId; (void)status; (void)message;
    }
    /** A payment started in the store. */
    virtual void onPurchasing(std::uint64_t requestId, const std::string &productId) { (void)requestId; (void)productId; }
    /** Grant what the transaction bought, then call Store::finishTransaction(transaction.id). */
    virtual void onPurchased(std::uint64_t requestId, const Transaction &transaction) { (void)requestId; (void)transaction; }
    /** The grant ledger granted and finished the transaction (products registered with it): currency and
        amount, or entitlement (the other is empty / 0). Nothing left to do. */
    virtual void onGranted(std::uint64_t requestId, const Transaction &transaction, const std::string &currency,
                           std::int64_t amount, const std::string &entitlement) {
        (void)requestId; (void)transaction; (void)currency; (void)amount; (void)entitlement;
    }
    /** The transaction failed verification: it is neither granted nor finished (finishTransaction refuses its id
        with IOSIAP_E_NOT_DELIVERED). status IOSIAP_E_VERIFY_RETRYABLE means the check could not complete;
        onPurchased follows once it does. */
    virtual void onVerificationFailed(std::uint64_t requestId, const Transaction &transaction, int status,
                                      const std::string &message) {
        (void)requestId; (void)transaction; (void)status; (void)message;
    }
    /** The user cancelled: nothing was charged. Not a failure. */
    virtual void onCancelled(std::uint64_t requestId, const std::string &productId) { (void)requestId; (void)productId; }
    /** A payment failed; nothing was charged. */
    virtual void onFailed(std::uint64_t requestId, const std::string &productId, int status, const std::string &message) {
        (void)requestId; (void)productId; (void)status; (void)message;
    }
    /** Ask to Buy: the payment waits for approval; onPurchased or onDeclined follows later, or, over StoreKit,
        nothing when declined (StoreKit tells no app of a decline): never hold the game's UI on it. */
    virtual void onDeferred(std::uint64_t requestId, const std::string &productId) { (void)requestId; (void)productId; }
    /** A waiting purchase (Ask to Buy) was declined. */
    virtual void onDeclined(const std::string &productId) { (void)productId; }
    /** One transaction a restore gave back: grant it, then Store::finishTransaction. */
    virtual void onRestored(std::uint64_t requestId, const Transaction &transaction) { (void)requestId; (void)transaction; }
    /** A restore ended: how many it restored, or why it failed. */
    virtual void onRestoreFinished(std::uint64_t requestId, bool succeeded, std::size_t restoredCount, int status,
                                   const std::string &message) {
        (void)requestId; (void)succeeded; (void)restoredCount; (void)status; (void)message;
    }
    /** A refund: take back what the transaction granted, keyed by transaction.id. Told until this returns: if it
        throws (or the game dies first), it is called again at the next launch. The default body returns, so a
        delegate that does not override it lets refunds count as told. */
    virtual void onRevoked(const Transaction &transaction) { (void)transaction; }
    /** A subscription ended without renewing. (Renewals arrive as onPurchased with reason RENEWAL.) */
    virtual void onExpired(const Transaction &transaction) { (void)transaction; }
    /** The user started buying `product` in the App Store: continue with Store::requestPayment now,
        keep it for later, or ignore it. */
    virtual void onPurchaseIntent(const Product &product) { (void)product; }
    /** Since 0.4. The same, with the offer the user chose in the App Store: offerType an iosiap_offer_type (0:
        none), offerId its id (empty for none or an introductory offer). A win-back offer is paid with
        Store::requestWinBackPayment(product.id, offerId). By default it calls onPurchaseIntent(product). */
    virtual void onPurchaseIntentWithOffer(const Product &product, int offerType, const std::string &offerId) {
        (void)offerType; (void)offerId;
        onPurchaseIntent(product);
    }
    /** At launch, an unfinished purchase of productId the journal cannot read (damaged) and the store no
        longer holds: kept, not delivered; message names its transaction id. No classic callback. */
    virtual void onJournalRowUnreadable(const std::string &productId, int status, const std::string &message) {
        (void)productId; (void)status; (void)message;
    }
    /** Since 0.4. A refund request ended (Store::beginRefundRequest): outcome is an iosiap_refund_request_outcome,
        status and message say why it FAILED. A refund Apple grants later arrives as onRevoked. No classic callback. */
    virtual void onRefundRequestFinished(std::uint64_t requestId, std::uint64_t transactionId, int outcome, int status,
                                         const std::string &message) {
        (void)requestId; (void)transactionId; (void)outcome; (void)status; (void)message;
    }
    /** Since 0.4. The manage subscriptions sheet of request requestId closed (Store::showManageSubscriptions), or
        could not be shown (status, message): refresh what the game shows. No classic callback. */
    virtual void onManageSubscriptionsClosed(std::uint64_t requestId, int status, const std::string &message) {
        (void)requestId; (void)status; (void)message;
    }
    /** Since 0.4. The App Store has a message for the user (reason: an iosiap_message_reason), held back: show it
        when it suits the game with Store::displayMessage(messageId, scene), or ignore it. No classic callback. */
    virtual void onStoreKitMessage(const std::string &messageId, int reason) { (void)messageId; (void)reason; }
    /** Since 0.4. The user's storefront changed (ISO 3166-1 alpha-3): request the products again for its prices.
        No classic callback. */
    virtual void onStorefrontChanged(const std::string &storefront) { (void)storefront; }

    /* Classic callbacks, called after the rich one: products received → onRequestProductsFinish; products
       failed → onRequestProductsError(status); purchasing, purchased, restored → the same PaymentState;
       granted → Purchased; verification failed → Failed;
       failed, cancelled, declined → Failed; deferred → Removed (the payment left the queue unanswered). */
    /** Classic: a products request ended. */
    virtual void onRequestProductsFinish() {}
    /** Classic: a products request failed with this iosiap_status. */
    virtual void onRequestProductsError(int code) { (void)code; }
    /** Classic: a payment moved on (see the mapping above). */
    virtual void onPaymentEvent(const std::string &productId, PaymentState state, int quantity) {
        (void)productId; (void)state; (void)quantity;
    }
    /** Classic: a restore ended. */
    virtual void onRestoreFinished(bool succeeded) { (void)succeeded; }
};

/** How to open the local App Store. */
struct LocalStoreOptions {
    std::string catalogPath;           /**< the .storekit file */
    std::string stateDirectory;        /**< where purchases are kept */
    std::string bundleId;              /**< empty: "com.example.game" */
    std::string locale;                /**< empty: the catalog's */
    std::string storefront;            /**< empty: the catalog's */
    bool deliverOnLibraryThread;       /**< false: events arrive in poll() */
    iosiap_verification_mode verification;  /**< IOSIAP_VERIFY_NONE, _ON_DEVICE or _SERVER */
    std::vector<std::uint8_t> trustedRootDer;  /**< ON_DEVICE: empty = the local store's own root */
    std::string serverUrl;             /**< SERVER */
    std::string sandboxServerUrl;      /**< SERVER: where a 21007 answer is sent again */

    LocalStoreOptions() : deliverOnLibraryThread(false), verification(IOSIAP_VERIFY_NONE) {}
};

/** How to open the store over StoreKit 2 (Apple platforms). */
struct StoreKitOptions {
    std::string stateDirectory;        /**< where the journal is kept; empty: "IOSiAP" in Application Support */
    bool deliverOnLibraryThread;       /**< false: events arrive in poll() */
    iosiap_verification_mode verification;  /**< IOSIAP_VERIFY_NONE or _ON_DEVICE: StoreKit's own verdict;
                                               _SERVER: StoreKit's, then the server's */
    std::string serverUrl;             /**< SERVER */
    std::string sandboxServerUrl;      /**< SERVER: where a 21007 answer is sent again */

    StoreKitOptions() : deliverOnLibraryThread(false), verification(IOSIAP_VERIFY_NONE) {}
};

/** The app's own signed purchase record (iosiap_app_transaction_info), copied. Dates are Unix milliseconds. */
struct AppTransaction {
    std::string signedJws;             /**< for your server to verify */
    std::string environment;           /**< "Production", "Sandbox", "Xcode", "LocalTesting" */
    std::string bundleId;              /**< the app's bundle id */
    std::string appVersion;            /**< the version the store signed it for */
    std::string originalAppVersion;    /**< the version the user first got: a paid-to-free migration compares it */
    std::int64_t originalPurchaseDateMs; /**< when the user first got the app */
    std::int64_t signedDateMs;         /**< when the store signed it */
    std::int64_t preorderDateMs;       /**< 0: not pre-ordered */
    std::uint64_t appId;               /**< 0: none (Xcode, sandbox, local store) */
    std::uint64_t appVersionId;        /**< 0: none */
    std::string appTransactionId;      /**< empty when the store signs none */
    std::string originalPlatform;      /**< "iOS", "macOS", "tvOS", "visionOS", or empty */
    std::string deviceVerification;    /**< base64, or empty */
    std::string deviceVerificationNonce; /**< UUID text, or empty */

    AppTransaction() : originalPurchaseDateMs(0), signedDateMs(0), preorderDateMs(0), appId(0), appVersionId(0) {}
    /** A copy of the C record. */
    explicit AppTransaction(const iosiap_app_transaction_info &a)
        : signedJws(Product::text(a.signed_jws)), environment(Product::text(a.environment)),
          bundleId(Product::text(a.bundle_id)), appVersion(Product::text(a.app_version)),
          originalAppVersion(Product::text(a.original_app_version)), originalPurchaseDateMs(a.original_purchase_date_ms),
          signedDateMs(a.signed_date_ms), preorderDateMs(a.preorder_date_ms), appId(a.app_id), appVersionId(a.app_version_id),
          appTransactionId(Product::text(a.app_transaction_id)), originalPlatform(Product::text(a.original_platform)),
          deviceVerification(Product::text(a.device_verification)),
          deviceVerificationNonce(Product::text(a.device_verification_nonce)) {}
};

/** Since 0.4. Where a subscription group stands, with its renewal info (iosiap_subscription_status_info), copied. */
struct SubscriptionStatus {
    bool subscribedEver;               /**< false: the user never subscribed in the group, and the rest is empty */
    int state;                         /**< iosiap_subscription_state, 0 when never subscribed */
    Transaction transaction;           /**< the latest transaction */
    bool willAutoRenew;                /**< the subscription renews at the end of its period */
    std::string autoRenewProductId;    /**< the product it renews into (a change of level shows here) */
    int expirationReason;              /**< iosiap_expiration_reason, 0 while not expired */
    bool isInBillingRetry;             /**< the App Store is still trying to charge a failed renewal */
    std::int64_t gracePeriodExpirationDateMs; /**< 0: not in a grace period */
    std::string signedRenewalInfo;     /**< for your server; empty when the store signs none */

    SubscriptionStatus()
        : subscribedEver(false), state(0), transaction(iosiap_transaction()), willAutoRenew(false), expirationReason(0),
          isInBillingRetry(false), gracePeriodExpirationDateMs(0) {}
    /** A copy of the C record. */
    explicit SubscriptionStatus(const iosiap_subscription_status_info &s)
        : subscribedEver(true), state(s.state), transaction(*s.transaction), willAutoRenew(s.will_auto_renew == 1),
          autoRenewProductId(Product::text(s.auto_renew_product_id)), expirationReason(s.expiration_reason),
          isInBillingRetry(s.is_in_billing_retry == 1), gracePeriodExpirationDateMs(s.grace_period_expiration_date_ms),
          signedRenewalInfo(Product::text(s.signed_renewal_info)) {}
};

/** One open store: RAII over iosiap_store, movable, not copyable. Closed when destroyed. */
class Store {
public:
    Store() : store_(nullptr), dispatcher_(nullptr), opening_(false) {}
    ~Store() { close(); }

    /** Takes over the other store, which is left closed. */
    Store(Store &&other) noexcept : store_(other.store_), dispatcher_(other.dispatcher_), opening_(false) {
        other.store_ = nullptr;
        other.dispatcher_ = nullptr;
    }
    /** Closes this store, then takes over the other, which is left closed. */
    Store &operator=(Store &&other) noexcept {
        if (this != &other) {
            close();
            std::swap(store_, other.store_);
            std::swap(dispatcher_, other.dispatcher_);
        }
        return *this;
    }
    Store(const Store &) = delete;
    Store &operator=(const Store &) = delete;

    /** Opens the local App Store; events go to `delegate` (not owned; it must outlive the store). */
    int openLocal(const LocalStoreOptions &options, StoreDelegate *delegate) {
        iosiap_local_store_options settings = IOSIAP_LOCAL_STORE_OPTIONS_INIT;
        settings.catalog_path = options.catalogPath.c_str();
        settings.state_directory = options.stateDirectory.c_str();
        settings.bundle_id = options.bundleId.empty() ? nullptr : options.bundleId.c_str();
        settings.locale = options.locale.empty() ? nullptr : options.locale.c_str();
        settings.storefront = options.storefront.empty() ? nullptr : options.storefront.c_str();
        settings.delivery = options.deliverOnLibraryThread ? IOSIAP_DELIVERY_THREAD : IOSIAP_DELIVERY_POLL;
        iosiap_verification_options verification = IOSIAP_VERIFICATION_OPTIONS_INIT;
        verification.mode = options.verification;
        verification.trusted_root_der = options.trustedRootDer.empty() ? nullptr : &options.trustedRootDer[0];
        verification.trusted_root_der_length = options.trustedRootDer.size();
        verification.server_url = options.serverUrl.empty() ? nullptr : options.serverUrl.c_str();
        verification.sandbox_server_url = options.sandboxServerUrl.empty() ? nullptr : options.sandboxServerUrl.c_str();
        settings.verification = &verification;
        return openWith(delegate, options.deliverOnLibraryThread, [&](iosiap_store **out, const iosiap_callbacks *callbacks) {
            return iosiap_store_open_local(out, &settings, callbacks);
        });
    }

    /** Opens the store over StoreKit 2; elsewhere IOSIAP_E_SK_UNSUPPORTED_PLATFORM. */
    int openStoreKit(const StoreKitOptions &options, StoreDelegate *delegate) {
        iosiap_storekit_options settings = IOSIAP_STOREKIT_OPTIONS_INIT;
        settings.state_directory = options.stateDirectory.empty() ? nullptr : options.stateDirectory.c_str();
        settings.delivery = options.deliverOnLibraryThread ? IOSIAP_DELIVERY_THREAD : IOSIAP_DELIVERY_POLL;
        iosiap_verification_options verification = IOSIAP_VERIFICATION_OPTIONS_INIT;
        verification.mode = options.verification;
        verification.server_url = options.serverUrl.empty() ? nullptr : options.serverUrl.c_str();
        verification.sandbox_server_url = options.sandboxServerUrl.empty() ? nullptr : options.sandboxServerUrl.c_str();
        settings.verification = &verification;
        return openWith(delegate, options.deliverOnLibraryThread, [&](iosiap_store **out, const iosiap_callbacks *callbacks) {
            return iosiap_store_open_storekit(out, &settings, callbacks);
        });
    }

    /** Closes the store; events not yet delivered are dropped. Safe to call twice. */
    void close() {
        iosiap_store_close(store_);
        store_ = nullptr;
        delete dispatcher_;
        dispatcher_ = nullptr;
    }

    /** Whether a store is open. */
    bool isOpen() const { return store_ != nullptr; }
    /** The C store, for the C calls this layer does not wrap; NULL when closed. */
    iosiap_store *handle() const { return store_; }

    /** Asks for products (iosiap_request_products); *requestId, if given, is the request id its events carry. */
    int requestProducts(const std::vector<std::string> &productIds, std::uint64_t *requestId = nullptr) {
        std::vector<const char *> ids;
        ids.reserve(productIds.size());
        for (std::size_t i = 0; i < productIds.size(); i++) ids.push_back(productIds[i].c_str());
        return iosiap_request_products(requestId, store_, ids.empty() ? nullptr : &ids[0], ids.size());
    }

    /** Buys a product loaded by requestProducts; appAccountToken is UUID text or empty. uiContext is where
        StoreKit shows the confirmation (a UIViewController *, UIWindowScene *, NSWindow * or NSViewController *; required on
        visionOS; see iosiap_payment_options.ui_context), or nullptr. */
    int requestPayment(const std::string &productId, int quantity = 1, const std::string &appAccountToken = std::string(),
                       std::uint64_t *requestId = nullptr, void *uiContext = nullptr) {
        if (!uiContext) {
            return iosiap_request_payment(requestId, store_, productId.c_str(), quantity,
                                          appAccountToken.empty() ? nullptr : appAccountToken.c_str());
        }
        iosiap_payment_options options = IOSIAP_PAYMENT_OPTIONS_INIT;
        options.quantity = quantity;
        options.app_account_token = appAccountToken.empty() ? nullptr : appAccountToken.c_str();
        options.ui_context = uiContext;
        return iosiap_request_payment_with_options(requestId, store_, productId.c_str(), &options);
    }

    /** Buys a subscription, redeeming a promotional offer its server signed for this appAccountToken;
        uiContext as above. */
    int requestPayment(const std::string &productId, const PromotionalOffer &offer,
                       const std::string &appAccountToken = std::string(), std::uint64_t *requestId = nullptr,
                       void *uiContext = nullptr) {
        iosiap_payment_options options = IOSIAP_PAYMENT_OPTIONS_INIT;
        options.app_account_token = appAccountToken.empty() ? nullptr : appAccountToken.c_str();
        options.ui_context = uiContext;
        options.offer_id = offer.offerId.c_str();
        if (!offer.compactJWS.empty()) {
            /* The JWS, and any older field set beside it: the C call refuses the mix (IOSIAP_E_INVALID_ARGUMENT). */
            options.offer_jws = offer.compactJWS.c_str();
            options.offer_key_id = offer.keyId.empty() ? nullptr : offer.keyId.c_str();
            options.offer_nonce = offer.nonce.empty() ? nullptr : offer.nonce.c_str();
            options.offer_timestamp_ms = offer.timestampMs;
            options.offer_signature = offer.signature.empty() ? nullptr : offer.signature.c_str();
        } else {
            options.offer_key_id = offer.keyId.c_str();
            options.offer_nonce = offer.nonce.c_str();
            options.offer_timestamp_ms = offer.timestampMs;
            options.offer_signature = offer.signature.c_str();
        }
        return iosiap_request_payment_with_options(requestId, store_, productId.c_str(), &options);
    }

    /** Buys a subscription with an introductory offer eligibility JWS its server signed, which decides whether
        the purchase gets the introductory offer (iosiap_payment_options.intro_offer_eligibility_jws); uiContext
        as above. */
    int requestPaymentWithIntroOfferEligibility(const std::string &productId, const std::string &introOfferEligibilityJWS,
                                                const std::string &appAccountToken = std::string(),
                                                std::uint64_t *requestId = nullptr, void *uiContext = nullptr) {
        iosiap_payment_options options = IOSIAP_PAYMENT_OPTIONS_INIT;
        options.app_account_token = appAccountToken.empty() ? nullptr : appAccountToken.c_str();
        options.ui_context = uiContext;
        options.intro_offer_eligibility_jws = introOfferEligibilityJWS.c_str();
        return iosiap_request_payment_with_options(requestId, store_, productId.c_str(), &options);
    }

    /** Buys a subscription redeeming one of its win-back offers (a lapsed subscriber's; see
        iosiap_payment_options.win_back_offer_id); uiContext as above. */
    int requestWinBackPayment(const std::string &productId, const std::string &winBackOfferId,
                              const std::string &appAccountToken = std::string(), std::uint64_t *requestId = nullptr,
                              void *uiContext = nullptr) {
        iosiap_payment_options options = IOSIAP_PAYMENT_OPTIONS_INIT;
        options.app_account_token = appAccountToken.empty() ? nullptr : appAccountToken.c_str();
        options.ui_context = uiContext;
        options.win_back_offer_id = winBackOfferId.c_str();
        return iosiap_request_payment_with_options(requestId, store_, productId.c_str(), &options);
    }

    /** @name The requests with the request id first
        Since 0.5. As the C calls take it: *requestId (if not NULL) receives the id the request's events carry,
        without spelling out the optional parameters before it. */
    ///@{
    /** requestProducts, the request id first. */
    int requestProducts(std::uint64_t *requestId, const std::vector<std::string> &productIds) {
        return requestProducts(productIds, requestId);
    }
    /** requestPayment, the request id first. */
    int requestPayment(std::uint64_t *requestId, const std::string &productId, int quantity = 1,
                       const std::string &appAccountToken = std::string(), void *uiContext = nullptr) {
        return requestPayment(productId, quantity, appAccountToken, requestId, uiContext);
    }
    /** requestPayment with a promotional offer, the request id first. */
    int requestPayment(std::uint64_t *requestId, const std::string &productId, const PromotionalOffer &offer,
                       const std::string &appAccountToken = std::string(), void *uiContext = nullptr) {
        return requestPayment(productId, offer, appAccountToken, requestId, uiContext);
    }
    /** requestPaymentWithIntroOfferEligibility, the request id first. */
    int requestPaymentWithIntroOfferEligibility(std::uint64_t *requestId, const std::string &productId,
                                                const std::string &introOfferEligibilityJWS,
                                                const std::string &appAccountToken = std::string(), void *uiContext = nullptr) {
        return requestPaymentWithIntroOfferEligibility(productId, introOfferEligibilityJWS, appAccountToken, requestId, uiContext);
    }
    /** requestWinBackPayment, the request id first. */
    int requestWinBackPayment(std::uint64_t *requestId, const std::string &productId, const std::string &winBackOfferId,
                              const std::string &appAccountToken = std::string(), void *uiContext = nullptr) {
        return requestWinBackPayment(productId, winBackOfferId, appAccountToken, requestId, uiContext);
    }
    /** beginRefundRequest, the request id first. */
    int beginRefundRequest(std::uint64_t *requestId, std::uint64_t transactionId, void *uiContext = nullptr) {
        return iosiap_begin_refund_request(requestId, store_, transactionId, uiContext);
    }
    /** showManageSubscriptions, the request id first (a template only so that showManageSubscriptions(nullptr)
        still means the UI context, as before 0.5). */
    template <typename RequestId>
    typename std::enable_if<std::is_same<RequestId, std::uint64_t>::value, int>::type
    showManageSubscriptions(RequestId *requestId, void *uiContext = nullptr) {
        return iosiap_show_manage_subscriptions(requestId, store_, uiContext);
    }
    ///@}

    /** @name Integers where a UI context goes
        A pointer to an integer (a request id) where a request takes its UI context would reach StoreKit as a
        window scene: these forms do not compile. Pass the request id first, e.g. beginRefundRequest(&requestId,
        transactionId). */
    ///@{
    /** beginRefundRequest(transactionId, &requestId): refused. */
    template <typename Integer>
    typename std::enable_if<std::is_integral<Integer>::value, int>::type
    beginRefundRequest(std::uint64_t transactionId, Integer *uiContext) = delete;
    /** beginRefundRequest(transactionId, &requestId, ...): refused. */
    template <typename Integer>
    typename std::enable_if<std::is_integral<Integer>::value, int>::type
    beginRefundRequest(std::uint64_t transactionId, Integer *uiContext, std::uint64_t *requestId) = delete;
    /** showManageSubscriptions(&id) with an id of another integer type than std::uint64_t: refused. */
    template <typename Integer>
    typename std::enable_if<std::is_integral<Integer>::value && !std::is_same<Integer, std::uint64_t>::value, int>::type
    showManageSubscriptions(Integer *requestId, void *uiContext = nullptr) = delete;
    /** requestPayment(productId, quantity, token, requestId, &integer): refused. */
    template <typename Integer>
    typename std::enable_if<std::is_integral<Integer>::value, int>::type
    requestPayment(const std::string &productId, int quantity, const std::string &appAccountToken, std::uint64_t *requestId,
                   Integer *uiContext) = delete;
    /** requestPayment(&requestId, productId, quantity, token, &integer): refused. */
    template <typename Integer>
    typename std::enable_if<std::is_integral<Integer>::value, int>::type
    requestPayment(std::uint64_t *requestId, const std::string &productId, int quantity, const std::string &appAccountToken,
                   Integer *uiContext) = delete;
    ///@}

    /** Shows the App Store's offer code sheet in the game's UIWindowScene *; a code redeemed arrives as a
        purchase without a request (iosiap_present_offer_code_redeem_sheet). */
    int presentOfferCodeRedeemSheet(void *uiContext) { return iosiap_present_offer_code_redeem_sheet(store_, uiContext); }

    /** Since 0.4. Asks for a refund of a transaction in the App Store's sheet, in the game's UIWindowScene *; ends
        in onRefundRequestFinished (iosiap_begin_refund_request). */
    int beginRefundRequest(std::uint64_t transactionId, void *uiContext = nullptr, std::uint64_t *requestId = nullptr) {
        return iosiap_begin_refund_request(requestId, store_, transactionId, uiContext);
    }

    /** Since 0.4. Shows the App Store's manage subscriptions sheet in the game's UIWindowScene *;
        onManageSubscriptionsClosed follows with *requestId when it closes (iosiap_show_manage_subscriptions). */
    int showManageSubscriptions(void *uiContext = nullptr, std::uint64_t *requestId = nullptr) {
        return iosiap_show_manage_subscriptions(requestId, store_, uiContext);
    }

    /** Since 0.4. Shows an App Store message from onStoreKitMessage in the game's UIWindowScene *
        (iosiap_display_message). */
    int displayMessage(const std::string &messageId, void *uiContext = nullptr) {
        return iosiap_display_message(store_, messageId.c_str(), uiContext);
    }

    /** Restores what the user owns (iosiap_request_restore). */
    int requestRestore(std::uint64_t *requestId = nullptr) { return iosiap_request_restore(requestId, store_); }

    /** Marks a granted transaction finished; idempotent. IOSIAP_E_NOT_DELIVERED for one never delivered as
        purchased or restored (see iosiap_finish_transaction). */
    int finishTransaction(std::uint64_t transactionId) { return iosiap_finish_transaction(store_, transactionId); }

    /** Delivers queued events to the delegate on this thread; returns how many, or a negative status.
        Rethrows the first exception a delegate threw (each event whose callback threw counts as not handled: a
        refund is told again at the next launch). Call once per frame. */
    int poll(std::size_t maxEvents = 0) {
        int delivered = iosiap_poll(store_, maxEvents);
#if IOSIAP_CPP_EXCEPTIONS
        if (dispatcher_ && dispatcher_->pending) {
            std::exception_ptr pending = dispatcher_->pending;
            dispatcher_->pending = std::exception_ptr();
            std::rethrow_exception(pending);
        }
#endif
        return delivered;
    }

    /** Copies the loaded product with this id into *out. */
    int product(const std::string &productId, Product *out) const {
        const iosiap_product *product = nullptr;
        int status = iosiap_store_product(&product, store_, productId.c_str());
        if (status == IOSIAP_OK && out) *out = Product(product);
        return status;
    }

    /** Whether the user owns the product now (iosiap_is_entitled). */
    bool isEntitled(const std::string &productId) const {
        int entitled = 0;
        return iosiap_is_entitled(&entitled, store_, productId.c_str()) == IOSIAP_OK && entitled == 1;
    }

    /** Since 0.5. Whether each transaction is verified before the game hears of it; false when they are delivered
        unchecked (the local store opened without verification, as for development). iosiap_store_verifies. */
    bool verifiesTransactions() const {
        int verifies = 0;
        return iosiap_store_verifies(&verifies, store_) == IOSIAP_OK && verifies == 1;
    }

    /** The current entitlements (empty on error). Rethrows what collecting them threw (std::bad_alloc). */
    std::vector<Transaction> entitlements() const {
        Collector<Transaction> collector;
        iosiap_entitlements(store_, &collect, &collector);
        collector.rethrow();
        return std::move(collector.items);
    }

    /** Whether this user may pay (iosiap_can_make_payments). */
    bool canMakePayments() const { return iosiap_can_make_payments(store_) == 1; }

    /** Copies the store's App Transaction into *out (iosiap_app_transaction: blocks until the store answers,
        so not every frame). Rethrows std::bad_alloc from copying, after freeing the C record. */
    int appTransaction(AppTransaction *out) const {
        iosiap_app_transaction_info *app = nullptr;
        int status = iosiap_app_transaction(&app, store_);
        if (status != IOSIAP_OK) return status;
#if IOSIAP_CPP_EXCEPTIONS
        try {
            if (out) *out = AppTransaction(*app);
        } catch (...) {
            iosiap_app_transaction_free(app);
            throw;
        }
#else
        if (out) *out = AppTransaction(*app);
#endif
        iosiap_app_transaction_free(app);
        return status;
    }
    /* Since 0.4: what the store knows about the user. Each blocks until the store answers (see iosiap.h): call
       them from a loading screen or a thread of your own, never from a delegate callback. */

    /** Copies the user's storefront (ISO 3166-1 alpha-3) into *out. */
    int storefront(std::string *out) const {
        char *code = nullptr;
        int status = iosiap_storefront(&code, store_);
        if (status != IOSIAP_OK) return status;
#if IOSIAP_CPP_EXCEPTIONS
        try {
            if (out) *out = code;
        } catch (...) {
            iosiap_string_free(code);
            throw;
        }
#else
        if (out) *out = code;
#endif
        iosiap_string_free(code);
        return status;
    }
    /** Copies where subscription group groupId stands into *out (out->subscribedEver false if the user never
        subscribed in it). Rethrows std::bad_alloc from copying, after freeing the C record. */
    int subscriptionStatus(const std::string &groupId, SubscriptionStatus *out) const {
        iosiap_subscription_status_info *info = nullptr;
        int status = iosiap_subscription_status(&info, store_, groupId.c_str());
        if (status != IOSIAP_OK) return status;
#if IOSIAP_CPP_EXCEPTIONS
        try {
            if (out) *out = info ? SubscriptionStatus(*info) : SubscriptionStatus();
        } catch (...) {
            iosiap_subscription_status_free(info);
            throw;
        }
#else
        if (out) *out = info ? SubscriptionStatus(*info) : SubscriptionStatus();
#endif
        iosiap_subscription_status_free(info);
        return status;
    }
    /** Whether a payment in subscription group groupId would get its introductory offer (false on error). */
    bool isEligibleForIntroOffer(const std::string &groupId) const {
        int eligible = 0;
        return iosiap_is_eligible_for_intro_offer(&eligible, store_, groupId.c_str()) == IOSIAP_OK && eligible == 1;
    }
    /** Every transaction of the user, oldest first, refunded and expired ones too (empty on error). Rethrows what
        collecting them threw (std::bad_alloc). */
    std::vector<Transaction> transactionHistory() const {
        Collector<Transaction> collector;
        iosiap_transaction_history(store_, &collect, &collector);
        collector.rethrow();
        return std::move(collector.items);
    }

    /** Local store: the app version the user first got (and the current one; empty: the same). */
    int localSetOriginalAppVersion(const std::string &originalAppVersion, const std::string &appVersion = std::string()) {
        return iosiap_local_set_original_app_version(store_, originalAppVersion.c_str(),
                                                     appVersion.empty() ? nullptr : appVersion.c_str());
    }

    /* The grant ledger (see iosiap.h): register in StoreDelegate::onOpen (with deliverOnLibraryThread, only
       there), or in poll mode right after the open, before the first poll. */
    /** Registers a product that grants a currency, amountPerUnit per unit (iosiap_ledger_register_currency). */
    int registerCurrency(const std::string &productId, const std::string &currency, std::int64_t amountPerUnit) {
        return iosiap_ledger_register_currency(store_, productId.c_str(), currency.c_str(), amountPerUnit);
    }
    /** Registers a product that grants an entitlement (iosiap_ledger_register_entitlement). */
    int registerEntitlement(const std::string &productId, const std::string &entitlement) {
        return iosiap_ledger_register_entitlement(store_, productId.c_str(), entitlement.c_str());
    }
    /** The balance of currency (0 on error). */
    std::int64_t balance(const std::string &currency) const {
        std::int64_t balance = 0;
        iosiap_ledger_balance(&balance, store_, currency.c_str());
        return balance;
    }
    /** Spends from a balance; IOSIAP_E_INSUFFICIENT_BALANCE, changing nothing, if it is too low. */
    int spend(const std::string &currency, std::int64_t amount) { return iosiap_ledger_spend(store_, currency.c_str(), amount); }
    /** Whether the ledger grants the entitlement now. */
    bool hasEntitlement(const std::string &entitlement) const {
        int entitled = 0;
        return iosiap_ledger_has_entitlement(&entitled, store_, entitlement.c_str()) == IOSIAP_OK && entitled == 1;
    }
    /** Whether a refund takes back the currency its purchase granted (iosiap_ledger_set_deduct_refunds). */
    int setDeductRefunds(bool deduct) { return iosiap_ledger_set_deduct_refunds(store_, deduct ? 1 : 0); }

    /* The local App Store's controls (see iosiap.h): for QA and tests, on a store opened with openLocal. */
    /** A purchase waiting for approval (Ask to Buy) or for an interruption to be resolved. */
    struct PendingPurchase {
        std::int64_t id; /**< what localApproveAskToBuy and the others take */
        std::string productId; /**< the product waiting */
        int quantity; /**< units */
    };
    /** iosiap_local_set_ask_to_buy: see iosiap.h. */
    int localSetAskToBuy(bool enabled) { return iosiap_local_set_ask_to_buy(store_, enabled ? 1 : 0); }
    /** The purchases waiting for approval. Rethrows what collecting them threw (std::bad_alloc). */
    std::vector<PendingPurchase> localPendingPurchases() const {
        Collector<PendingPurchase> collector;
        iosiap_local_pending_purchases(store_, &collectPending, &collector);
        collector.rethrow();
        return std::move(collector.items);
    }
    /** iosiap_local_approve_ask_to_buy: see iosiap.h. */
    int localApproveAskToBuy(std::int64_t pendingId) { return iosiap_local_approve_ask_to_buy(store_, pendingId); }
    /** iosiap_local_decline_ask_to_buy: see iosiap.h. */
    int localDeclineAskToBuy(std::int64_t pendingId) { return iosiap_local_decline_ask_to_buy(store_, pendingId); }
    /** iosiap_local_set_interrupted_purchases: see iosiap.h. */
    int localSetInterruptedPurchases(bool enabled) { return iosiap_local_set_interrupted_purchases(store_, enabled ? 1 : 0); }
    /** iosiap_local_resolve_interrupted_purchase: see iosiap.h. */
    int localResolveInterruptedPurchase(std::int64_t pendingId) {
        return iosiap_local_resolve_interrupted_purchase(store_, pendingId);
    }
    /** api: an iosiap_failable_api; status: the error, or IOSIAP_OK to stop failing. */
    int localSetSimulatedError(int api, int status) { return iosiap_local_set_simulated_error(store_, api, status); }
    /** iosiap_local_set_purchase_cancelled: see iosiap.h. */
    int localSetPurchaseCancelled(bool cancel) { return iosiap_local_set_purchase_cancelled(store_, cancel ? 1 : 0); }
    /** iosiap_local_refund: see iosiap.h. */
    int localRefund(std::uint64_t transactionId, int reason = 0) { return iosiap_local_refund(store_, transactionId, reason); }
    /** iosiap_local_expire_subscription: see iosiap.h. */
    int localExpireSubscription(const std::string &productId) { return iosiap_local_expire_subscription(store_, productId.c_str()); }
    /** iosiap_local_force_renewal: see iosiap.h. */
    int localForceRenewal(const std::string &productId) { return iosiap_local_force_renewal(store_, productId.c_str()); }
    /** iosiap_local_set_auto_renew: see iosiap.h. */
    int localSetAutoRenew(const std::string &productId, bool enabled) {
        return iosiap_local_set_auto_renew(store_, productId.c_str(), enabled ? 1 : 0);
    }
    /** iosiap_local_set_billing_issues: see iosiap.h. */
    int localSetBillingIssues(bool enabled) { return iosiap_local_set_billing_issues(store_, enabled ? 1 : 0); }
    /** iosiap_local_set_billing_grace_period: see iosiap.h. */
    int localSetBillingGracePeriod(bool enabled) { return iosiap_local_set_billing_grace_period(store_, enabled ? 1 : 0); }
    /** iosiap_local_resolve_billing_issue: see iosiap.h. */
    int localResolveBillingIssue(const std::string &productId) {
        return iosiap_local_resolve_billing_issue(store_, productId.c_str());
    }
    /** iosiap_local_set_time_rate: see iosiap.h. */
    int localSetTimeRate(int rate) { return iosiap_local_set_time_rate(store_, rate); }
    /** iosiap_local_set_storefront: see iosiap.h. */
    int localSetStorefront(const std::string &storefront) { return iosiap_local_set_storefront(store_, storefront.c_str()); }
    /** iosiap_local_set_locale: see iosiap.h. */
    int localSetLocale(const std::string &locale) { return iosiap_local_set_locale(store_, locale.c_str()); }
    /** iosiap_local_buy: see iosiap.h. */
    int localBuy(const std::string &productId, int quantity = 1, std::uint64_t *transactionId = nullptr) {
        return iosiap_local_buy(transactionId, store_, productId.c_str(), quantity);
    }
    /** Since 0.4. A family member buys a family-shareable product and shares it (Family Sharing). */
    int localBuyFamilyShared(const std::string &productId, std::uint64_t *transactionId = nullptr) {
        return iosiap_local_buy_family_shared(transactionId, store_, productId.c_str());
    }
    /** Since 0.4. The family member stops sharing: the shared transaction is revoked. */
    int localStopFamilySharing(std::uint64_t transactionId) { return iosiap_local_stop_family_sharing(store_, transactionId); }
    /** Starts a purchase in the App Store; since 0.4 offerId (or empty) names a win-back offer the user redeems. */
    int localRequestPurchaseIntent(const std::string &productId, const std::string &offerId = std::string()) {
        return iosiap_local_request_purchase_intent_with_offer(store_, productId.c_str(),
                                                               offerId.empty() ? nullptr : offerId.c_str());
    }
    /** Since 0.4. Raises an App Store message (an iosiap_message_reason) about a subscription; offerId (or empty)
        names one of its win-back offers, for a win-back offer message. */
    int localSendMessage(int reason, const std::string &productId, const std::string &offerId = std::string()) {
        return iosiap_local_send_message(store_, reason, productId.c_str(), offerId.empty() ? nullptr : offerId.c_str());
    }
    /** iosiap_local_reset: see iosiap.h. */
    int localReset() { return iosiap_local_reset(store_); }
    /** Since 0.4. Sets the App Store Server Notifications V2 URL; empty clears it. */
    int localSetNotificationUrl(const std::string &url) {
        return iosiap_local_set_notification_url(store_, url.empty() ? nullptr : url.c_str());
    }
    /** Redeems an offer code from outside the game, as the user would in the App Store. */
    int localRedeemOfferCode(const std::string &productId, const std::string &offerCode, std::uint64_t *transactionId = nullptr) {
        return iosiap_local_redeem_offer_code(transactionId, store_, productId.c_str(), offerCode.c_str());
    }
    /** Signs an offer with the catalog's key, as the game's server would (for QA and tests). */
    int localSignPromotionalOffer(PromotionalOffer *out, const std::string &productId, const std::string &offerId,
                                  const std::string &appAccountToken = std::string()) {
        iosiap_offer_signature signature = IOSIAP_OFFER_SIGNATURE_INIT;
        int status = iosiap_local_sign_promotional_offer(&signature, store_, productId.c_str(), offerId.c_str(),
                                                         appAccountToken.empty() ? nullptr : appAccountToken.c_str());
        if (status == IOSIAP_OK && out) {
            out->offerId = offerId;
            out->keyId = signature.key_id;
            out->nonce = signature.nonce;
            out->timestampMs = signature.timestamp_ms;
            out->signature = signature.signature;
            out->compactJWS.clear();  /* the older form, which a JWS left in *out would replace */
        }
        return status;
    }

    /** The calling thread's last error message. */
    static std::string lastErrorMessage() { return Product::text(iosiap_last_error_message()); }

private:
    /** Heap-allocated so that its address, the C user_data, survives moves of the Store. */
    struct Dispatcher {
        StoreDelegate *delegate;
        bool onLibraryThread;
        Store *owner;  /* the Store being opened: what onOpen is given */
        iosiap_store *store;  /* the C store, once open: what iosiap_event_not_handled is given */
#if IOSIAP_CPP_EXCEPTIONS
        std::exception_ptr pending;
#endif
        Dispatcher(StoreDelegate *d, bool thread, Store *o) : delegate(d), onLibraryThread(thread), owner(o), store(nullptr) {}

        /** On the opening thread, inside the open call, which has stored the handle in owner->store_ already. */
        static int onOpen(iosiap_store *store, void *userData) {
            Dispatcher *self = static_cast<Dispatcher *>(userData);
            self->store = store;
            if (!self->delegate) return IOSIAP_OK;
            self->owner->store_ = store;
#if IOSIAP_CPP_EXCEPTIONS
            try {
                return self->delegate->onOpen(*self->owner);
            } catch (...) {
                self->pending = std::current_exception();  /* rethrown by openWith once the open has returned */
                return IOSIAP_E_SYSTEM;
            }
#else
            return self->delegate->onOpen(*self->owner);
#endif
        }

        static void onEvent(const iosiap_event *event, void *userData) {
            Dispatcher *self = static_cast<Dispatcher *>(userData);
            if (!self->delegate) return;
#if IOSIAP_CPP_EXCEPTIONS
            try {
                dispatch(*self->delegate, *event);
            } catch (...) {
                iosiap_event_not_handled(self->store, event);  /* a refund is told again at the next launch */
                if (self->onLibraryThread) {
                    std::fputs("iosiap: an exception thrown by a StoreDelegate on the delivery thread was dropped "
                               "(its event counts as not handled)\n", stderr);
                } else if (!self->pending) {
                    self->pending = std::current_exception();
                }
            }
#else
            dispatch(*self->delegate, *event);
#endif
        }
    };

    /** Closes what is open, then opens through `open` (a C open call given the callbacks); the dispatcher
        is kept on success. An exception the delegate's onOpen threw is rethrown here. */
    template <typename OpenCall>
    int openWith(StoreDelegate *delegate, bool onLibraryThread, OpenCall open) {
        if (opening_) return IOSIAP_E_WRONG_STATE;  // from onOpen: closing here would close the store being opened
        close();
        Dispatcher *dispatcher = new Dispatcher(delegate, onLibraryThread, this);
        iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
        callbacks.on_event = &Dispatcher::onEvent;
        callbacks.on_open = &Dispatcher::onOpen;
        callbacks.user_data = dispatcher;
        opening_ = true;
        int status = open(&store_, &callbacks);
        opening_ = false;
        if (status != IOSIAP_OK) {
#if IOSIAP_CPP_EXCEPTIONS
            std::exception_ptr thrown = dispatcher->pending;
#endif
            delete dispatcher;
            store_ = nullptr;
#if IOSIAP_CPP_EXCEPTIONS
            if (thrown) std::rethrow_exception(thrown);
#endif
            return status;
        }
        dispatcher_ = dispatcher;
        return IOSIAP_OK;
    }

    static std::string text(const char *value) { return Product::text(value); }

    static void dispatch(StoreDelegate &delegate, const iosiap_event &event) {
        const std::string productId = text(event.product_id);
        const int quantity = event.quantity > 0 ? event.quantity : 1;
        switch (event.kind) {
        case IOSIAP_EVENT_PRODUCTS_RECEIVED: {
            std::vector<Product> products;
            std::vector<std::string> invalid;
            for (std::size_t i = 0; i < event.product_count; i++) products.push_back(Product(event.products[i]));
            for (std::size_t i = 0; i < event.invalid_product_id_count; i++) invalid.push_back(text(event.invalid_product_ids[i]));
            delegate.onProductsReceived(event.request_id, products, invalid);
            delegate.onRequestProductsFinish();
            break;
        }
        case IOSIAP_EVENT_PRODUCTS_FAILED:
            delegate.onProductsFailed(event.request_id, event.status, text(event.message));
            delegate.onRequestProductsError(event.status);
            break;
        case IOSIAP_EVENT_PURCHASING:
            delegate.onPurchasing(event.request_id, productId);
            delegate.onPaymentEvent(productId, PaymentState::Purchasing, quantity);
            break;
        case IOSIAP_EVENT_PURCHASED:
            delegate.onPurchased(event.request_id, Transaction(*event.transaction, event.verified != 0));
            delegate.onPaymentEvent(productId, PaymentState::Purchased, quantity);
            break;
        case IOSIAP_EVENT_GRANTED:
            delegate.onGranted(event.request_id, Transaction(*event.transaction, event.verified != 0), text(event.grant_currency),
                               event.grant_amount, text(event.grant_entitlement));
            delegate.onPaymentEvent(productId, PaymentState::Purchased, quantity);
            break;
        case IOSIAP_EVENT_VERIFICATION_FAILED:
            delegate.onVerificationFailed(event.request_id, Transaction(*event.transaction), event.status, text(event.message));
            delegate.onPaymentEvent(productId, PaymentState::Failed, quantity);
            break;
        case IOSIAP_EVENT_CANCELLED:
            delegate.onCancelled(event.request_id, productId);
            delegate.onPaymentEvent(productId, PaymentState::Failed, quantity);
            break;
        case IOSIAP_EVENT_FAILED:
            delegate.onFailed(event.request_id, productId, event.status, text(event.message));
            delegate.onPaymentEvent(productId, PaymentState::Failed, quantity);
            break;
        case IOSIAP_EVENT_DEFERRED:
            delegate.onDeferred(event.request_id, productId);
            delegate.onPaymentEvent(productId, PaymentState::Removed, quantity);
            break;
        case IOSIAP_EVENT_DECLINED:
            delegate.onDeclined(productId);
            delegate.onPaymentEvent(productId, PaymentState::Failed, quantity);
            break;
        case IOSIAP_EVENT_RESTORED:
            delegate.onRestored(event.request_id, Transaction(*event.transaction, event.verified != 0));
            delegate.onPaymentEvent(productId, PaymentState::Restored, quantity);
            break;
        case IOSIAP_EVENT_RESTORE_FINISHED:
            delegate.onRestoreFinished(event.request_id, event.status == IOSIAP_OK, event.restored_count, event.status,
                                       text(event.message));
            delegate.onRestoreFinished(event.status == IOSIAP_OK);
            break;
        case IOSIAP_EVENT_REVOKED:
            delegate.onRevoked(Transaction(*event.transaction));
            break;
        case IOSIAP_EVENT_EXPIRED:
            delegate.onExpired(Transaction(*event.transaction));
            break;
        case IOSIAP_EVENT_PURCHASE_INTENT:
            if (event.product_count == 0) break;
            if (event.size > offsetof(iosiap_event, intent_offer_id))
                delegate.onPurchaseIntentWithOffer(Product(event.products[0]), event.intent_offer_type, text(event.intent_offer_id));
            else
                delegate.onPurchaseIntentWithOffer(Product(event.products[0]), IOSIAP_OFFER_TYPE_NONE, std::string());
            break;
        case IOSIAP_EVENT_JOURNAL_ROW_UNREADABLE:
            delegate.onJournalRowUnreadable(productId, event.status, text(event.message));
            break;
        case IOSIAP_EVENT_REFUND_REQUEST_FINISHED:
            if (event.size > offsetof(iosiap_event, refund_transaction_id))
                delegate.onRefundRequestFinished(event.request_id, event.refund_transaction_id, event.refund_request_outcome,
                                                 event.status, text(event.message));
            break;
        case IOSIAP_EVENT_MANAGE_SUBSCRIPTIONS_CLOSED:
            delegate.onManageSubscriptionsClosed(event.request_id, event.status, text(event.message));
            break;
        case IOSIAP_EVENT_STOREKIT_MESSAGE:
            if (event.size > offsetof(iosiap_event, message_reason)) delegate.onStoreKitMessage(text(event.message_id), event.message_reason);
            break;
        case IOSIAP_EVENT_STOREFRONT_CHANGED:
            if (event.size > offsetof(iosiap_event, storefront)) delegate.onStorefrontChanged(text(event.storefront));
            break;
        default:
            break; /* a kind from a newer library: ignored */
        }
    }

    /** What a C visitor collects, and the first exception collecting threw, rethrown after the C call. */
    template <typename Item> struct Collector {
        std::vector<Item> items;
#if IOSIAP_CPP_EXCEPTIONS
        std::exception_ptr pending;
        void rethrow() const {
            if (pending) std::rethrow_exception(pending);
        }
#else
        void rethrow() const {}
#endif
    };

    /** Runs `add` inside a C callback: an exception is kept in the collector, never thrown into the library;
        after one, the remaining items are skipped. */
    template <typename Item, typename Add> static void guarded(Collector<Item> &collector, Add add) {
#if IOSIAP_CPP_EXCEPTIONS
        if (collector.pending) return;
        try {
            add();
        } catch (...) {
            collector.pending = std::current_exception();
        }
#else
        (void)collector;
        add();
#endif
    }

    static void collectPending(std::int64_t id, const char *productId, int quantity, void *userData) {
        Collector<PendingPurchase> &collector = *static_cast<Collector<PendingPurchase> *>(userData);
        guarded(collector, [&] {
            PendingPurchase pending = {id, text(productId), quantity};
            collector.items.push_back(pending);
        });
    }

    static void collect(const iosiap_transaction *transaction, void *userData) {
        Collector<Transaction> &collector = *static_cast<Collector<Transaction> *>(userData);
        guarded(collector, [&] { collector.items.push_back(Transaction(*transaction)); });
    }

    iosiap_store *store_;
    Dispatcher *dispatcher_;
    bool opening_;  // inside openWith's open call, where onOpen runs
};

} /* namespace iosiap */

#endif /* IOSIAP_IOSIAP_HPP */
