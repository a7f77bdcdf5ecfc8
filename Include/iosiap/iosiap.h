/** @file
 * iosiap.h — IOSiAP's C ABI: in-app purchases for C and C++ games.
 *
 * A game opens a store, asks for products, payments and restores, and receives every result as an event
 * through its callback. Conventions (stable across releases):
 *   - Functions return an int status: IOSIAP_OK (0) or a negative iosiap_status code, never renumbered.
 *     iosiap_last_error_message() gives the human text of the calling thread's last failure.
 *   - Out-parameters come first; callbacks take `void *user_data` last.
 *   - Option and callback structs begin with a version field and only grow at the end; fill them with their
 *     _INIT macro, then set the fields you need.
 *   - Structs the library fills in the caller's memory (iosiap_offer, iosiap_offer_signature) begin with a
 *     size_t size and only grow at the end. The caller sets size to the sizeof it was compiled with (their
 *     _INIT macro does); the library writes at most that many bytes, never past them, and sets size to how
 *     many it wrote: read a field added later only when size > offsetof(struct, field). A size below the
 *     struct's first published layout is refused with IOSIAP_E_INVALID_ARGUMENT and nothing is written.
 *   - Strings are UTF-8 and NUL-terminated. Each comment says who owns a pointer and how long it lives.
 *
 * Platforms: this header and the library's set of functions are the same everywhere. The local App Store and
 * Apple's verification algorithm need OpenSSL and exist on Linux and macOS only: on iOS, tvOS and visionOS,
 * iosiap_store_open_local, every iosiap_local_* function and iosiap_verify_transaction return
 * IOSIAP_E_UNSUPPORTED_PLATFORM whatever their arguments (setting *out or *out_payload_json to NULL, writing
 * nothing else); open the store with iosiap_store_open_storekit there. StoreKit exists on Apple platforms only:
 * elsewhere iosiap_store_open_storekit returns IOSIAP_E_SK_UNSUPPORTED_PLATFORM.
 *
 * Thread rules:
 *   - Every function may be called from any thread, except as stated here.
 *   - iosiap_poll delivers events on the thread that calls it; call it from one thread at a time (the game
 *     loop, once per frame). With IOSIAP_DELIVERY_THREAD, events arrive on one library-owned thread instead,
 *     one at a time, and iosiap_poll is not used.
 *   - No callback runs inside a request call: requests only queue work.
 *   - iosiap_store_close must not run concurrently with other calls on the same store, nor from inside its
 *     callback. After it, the handle is dead: passing it again is a caller error that returns
 *     IOSIAP_E_STORE_NOT_OPEN and changes nothing.
 */
#ifndef IOSIAP_IOSIAP_H
#define IOSIAP_IOSIAP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Versions ----------------------------------------------------------------------------------------- */

/** The major version of the C ABI this header declares (CHANGELOG.md). */
#define IOSIAP_VERSION_MAJOR 0
/** The minor version of the C ABI this header declares. */
#define IOSIAP_VERSION_MINOR 5
/** The patch version of the C ABI this header declares. */
#define IOSIAP_VERSION_PATCH 0
/** MAJOR * 10000 + MINOR * 100 + PATCH of this header; compare with iosiap_version() at run time. */
#define IOSIAP_VERSION_NUMBER (IOSIAP_VERSION_MAJOR * 10000 + IOSIAP_VERSION_MINOR * 100 + IOSIAP_VERSION_PATCH)

/** The version number of the library actually loaded, in the form of IOSIAP_VERSION_NUMBER. */
int iosiap_version(void);

/* ---- Status codes ------------------------------------------------------------------------------------- */

/** Status codes. Never renumbered; new codes take unused numbers. -100 - n is StoreKit's SKError code n. */
typedef enum iosiap_status {
    IOSIAP_OK = 0,                         /**< success */
    IOSIAP_E_INVALID_ARGUMENT = -1,        /**< NULL where a value is needed, empty id, count mismatch */
    IOSIAP_E_INVALID_UTF8 = -2,            /**< a string is not valid UTF-8 */
    IOSIAP_E_UNKNOWN_PRODUCT = -3,         /**< not loaded by a products request */
    IOSIAP_E_QUANTITY_OUT_OF_RANGE = -4,   /**< outside 1...10 */
    IOSIAP_E_STORE_NOT_OPEN = -5,          /**< closed or invalid handle */
    IOSIAP_E_UNKNOWN_TRANSACTION = -6,     /**< the store never recorded a transaction of that id */
    IOSIAP_E_WRONG_STATE = -7,             /**< not allowed now (e.g. a product without the offer asked for, a
                                                transaction already refunded) */
    IOSIAP_E_INVALID_CATALOG = -8,         /**< the .storekit file is malformed; the message names the key path */
    IOSIAP_E_CATALOG_NOT_READABLE = -9,    /**< the .storekit file cannot be read */
    IOSIAP_E_STORAGE = -10,                /**< the state directory cannot be read or written (a full disk, a
                                                read-only folder) */
    IOSIAP_E_QUANTITY_NOT_ALLOWED = -11,   /**< quantity above 1 for a non-consumable */
    IOSIAP_E_STORE_UNREACHABLE = -12,      /**< the store cannot be reached (offline); try again later */
    IOSIAP_E_SYSTEM = -13,                 /**< the system refused (a lock, a file, memory); the message says which */
    IOSIAP_E_NOT_ENTITLED = -14,           /**< StoreKit's notEntitled: the app lacks the entitlement the call needs */
    IOSIAP_E_STRING_TOO_LONG = -15,        /**< a string above its limit (the IOSIAP_MAX_* below) */
    IOSIAP_E_INSUFFICIENT_BALANCE = -16,   /**< a ledger spend larger than the balance */
    IOSIAP_E_STATE_DIRECTORY_IN_USE = -17, /**< another open store, in this or another process, uses it */
    IOSIAP_E_UNSUPPORTED_PLATFORM = -18,   /**< not in this platform's library (see Platforms at the top) */
    IOSIAP_E_DUPLICATE_REFUND_REQUEST = -19, /**< since 0.4: the transaction was refunded or has a refund request
                                                  pending */
    IOSIAP_E_NOT_DELIVERED = -20,            /**< since 0.4: iosiap_finish_transaction of a transaction never delivered
                                                as PURCHASED or RESTORED (e.g. a VERIFICATION_FAILED's): refused */
    IOSIAP_E_REFUND_REQUEST_INELIGIBLE = -21, /**< since 0.5: the App Store takes no refund request for the
                                                   transaction */
    IOSIAP_E_INVALID_PRESENTATION_CONTEXT = -22, /**< since 0.5: StoreKit cannot show its sheet from the UI context
                                                      given, or none was found */
    IOSIAP_E_SK_UNKNOWN = -100,            /**< StoreKit's SKError.unknown (each IOSIAP_E_SK_* is -100 minus SKError's
                                                code) */
    IOSIAP_E_SK_CLIENT_INVALID = -101,     /**< SKError.clientInvalid: the client may not make the request */
    IOSIAP_E_SK_PAYMENT_CANCELLED = -102,  /**< SKError.paymentCancelled: the user cancelled */
    IOSIAP_E_SK_PAYMENT_INVALID = -103,    /**< SKError.paymentInvalid: a payment parameter was not recognized */
    IOSIAP_E_SK_PAYMENT_NOT_ALLOWED = -104, /**< SKError.paymentNotAllowed: this device or user may not pay (e.g.
                                                 parental controls) */
    IOSIAP_E_SK_STORE_PRODUCT_NOT_AVAILABLE = -105, /**< SKError.storeProductNotAvailable: not sold in the current
                                                         storefront */
    IOSIAP_E_SK_CLOUD_SERVICE_PERMISSION_DENIED = -106, /**< SKError.cloudServicePermissionDenied */
    IOSIAP_E_SK_CLOUD_SERVICE_NETWORK_CONNECTION_FAILED = -107, /**< SKError.cloudServiceNetworkConnectionFailed: no
                                                                     network */
    IOSIAP_E_SK_CLOUD_SERVICE_REVOKED = -108, /**< SKError.cloudServiceRevoked */
    IOSIAP_E_SK_PRIVACY_ACKNOWLEDGEMENT_REQUIRED = -109, /**< SKError.privacyAcknowledgementRequired: the user has not
                                                              accepted Apple's privacy policy */
    IOSIAP_E_SK_UNAUTHORIZED_REQUEST_DATA = -110, /**< SKError.unauthorizedRequestData */
    IOSIAP_E_SK_INVALID_OFFER_IDENTIFIER = -111, /**< SKError.invalidOfferIdentifier: no such offer for the product */
    IOSIAP_E_SK_INVALID_SIGNATURE = -112,  /**< SKError.invalidSignature: the offer's signature was refused */
    IOSIAP_E_SK_MISSING_OFFER_PARAMS = -113, /**< SKError.missingOfferParams: an offer without all its signed fields */
    IOSIAP_E_SK_INVALID_OFFER_PRICE = -114, /**< SKError.invalidOfferPrice */
    IOSIAP_E_SK_OVERLAY_CANCELLED = -115,  /**< SKError.overlayCancelled */
    IOSIAP_E_SK_OVERLAY_INVALID_CONFIGURATION = -116, /**< SKError.overlayInvalidConfiguration */
    IOSIAP_E_SK_OVERLAY_TIMEOUT = -117,    /**< SKError.overlayTimeout */
    IOSIAP_E_SK_INELIGIBLE_FOR_OFFER = -118, /**< SKError.ineligibleForOffer: the user may not redeem the offer */
    IOSIAP_E_SK_UNSUPPORTED_PLATFORM = -119, /**< SKError.unsupportedPlatform; also StoreKit where it does not exist
                                                  (Linux) */
    IOSIAP_E_SK_OVERLAY_PRESENTED_IN_BACKGROUND_SCENE = -120, /**< SKError.overlayPresentedInBackgroundScene */
    IOSIAP_E_SK_PAYMENT_METHOD_BINDING_CONFIGURATION_REQUIRED = -121, /**< the user must add a payment method to their
                                                                           Apple Account first (StoreKit's
                                                                           paymentMethodBindingConfigurationRequired;
                                                                           since 0.5 also Product.PurchaseError's) */
    IOSIAP_E_VERIFY_INVALID_FORMAT = -200, /**< not a three-part JWS, bad base64url or JSON */
    IOSIAP_E_VERIFY_UNSUPPORTED_ALGORITHM = -201, /**< alg is not ES256 */
    IOSIAP_E_VERIFY_INVALID_CERTIFICATE = -202, /**< an x5c entry is not a certificate */
    IOSIAP_E_VERIFY_INVALID_CHAIN_LENGTH = -203, /**< x5c does not hold exactly three */
    IOSIAP_E_VERIFY_UNTRUSTED_CHAIN = -204, /**< the chain does not lead to the trusted root */
    IOSIAP_E_VERIFY_MISSING_APPLE_MARKER = -205, /**< Apple's intermediate or leaf OID is missing */
    IOSIAP_E_VERIFY_CERTIFICATE_NOT_VALID_AT_DATE = -206, /**< a certificate of the chain is not valid at the signing
                                                               date */
    IOSIAP_E_VERIFY_INVALID_SIGNATURE = -207, /**< the signature does not match the signed data (forged or damaged) */
    IOSIAP_E_VERIFY_INVALID_APP_IDENTIFIER = -208, /**< another bundle id */
    IOSIAP_E_VERIFY_INVALID_ENVIRONMENT = -209, /**< another environment (Sandbox against Production) */
    IOSIAP_E_VERIFY_RETRYABLE = -210,      /**< could not complete (network); retried later */
    IOSIAP_E_VERIFY_REJECTED_BY_SERVER = -211, /**< the game's verification server said no */
    IOSIAP_E_VERIFY_INPUT_TOO_LARGE = -212 /**< the signed data is above its size limit */
} iosiap_status;

/** A static English description of a status code; never NULL, never to be freed. */
const char *iosiap_status_text(int status);

/**
 * The message of the last failed call on the calling thread, or "" if none failed yet.
 * Owned by the library; valid until the next IOSiAP call on the same thread.
 */
const char *iosiap_last_error_message(void);

/* ---- Limits -------------------------------------------------------------------------------------------- */

/** Product ids longer than this many UTF-8 bytes are refused with IOSIAP_E_STRING_TOO_LONG. */
#define IOSIAP_MAX_PRODUCT_ID_LENGTH 255
/** A products request may name at most this many ids. */
#define IOSIAP_MAX_PRODUCTS_PER_REQUEST 1000
/** Quantities of a payment: 1...10 (StoreKit's limit); above 1 for consumables only. */
#define IOSIAP_MIN_QUANTITY 1
#define IOSIAP_MAX_QUANTITY 10 /**< see IOSIAP_MIN_QUANTITY */
/** A payment's offer JWS (iosiap_payment_options.offer_jws, intro_offer_eligibility_jws) longer than this many
    bytes is refused with IOSIAP_E_STRING_TOO_LONG; a server's is well under 1 KiB. */
#define IOSIAP_MAX_OFFER_JWS_LENGTH 8192

/* ---- Products ----------------------------------------------------------------------------------------- */

/** What a product is (StoreKit: Product.ProductType). */
typedef enum iosiap_product_type {
    IOSIAP_PRODUCT_CONSUMABLE = 0,         /**< bought again and again (coins) */
    IOSIAP_PRODUCT_NON_CONSUMABLE = 1,     /**< bought once, owned for good */
    IOSIAP_PRODUCT_AUTO_RENEWABLE = 2,     /**< an auto-renewable subscription */
    IOSIAP_PRODUCT_NON_RENEWING = 3        /**< a non-renewing subscription */
} iosiap_product_type;

/** The unit of a subscription period or an offer period. */
typedef enum iosiap_period_unit {
    IOSIAP_PERIOD_DAY = 0,                 /**< days */
    IOSIAP_PERIOD_WEEK = 1,                /**< weeks */
    IOSIAP_PERIOD_MONTH = 2,               /**< months */
    IOSIAP_PERIOD_YEAR = 3                 /**< years */
} iosiap_period_unit;

/** A product loaded by a products request. Owned by its store; valid until the store is closed. */
typedef struct iosiap_product iosiap_product;

/* Product accessors. Strings are owned by the product and live as long as it. NULL product: NULL or -1. */
/** The product id; NULL for a NULL product. */
const char *iosiap_product_id(const iosiap_product *product);
/** An iosiap_product_type value. */
int iosiap_product_type_of(const iosiap_product *product);
/** The product's display name, in the storefront's language. */
const char *iosiap_product_title(const iosiap_product *product);
/** The product's description, in the storefront's language. */
const char *iosiap_product_description(const iosiap_product *product);
/** The price as exact decimal text in the storefront's currency, e.g. "0.99". */
const char *iosiap_product_price(const iosiap_product *product);
/** The ISO 4217 currency code, e.g. "USD". */
const char *iosiap_product_currency_code(const iosiap_product *product);
/** The price formatted for the storefront's locale, e.g. "$0.99", "0,99 €", "¥120". */
const char *iosiap_product_display_price(const iosiap_product *product);
/** The subscription's renewal period; IOSIAP_E_WRONG_STATE for a product that is not an auto-renewable. */
int iosiap_product_subscription_period(int *out_value, int *out_unit, const iosiap_product *product);
/** The subscription group id, or NULL for a product that is not an auto-renewable. */
const char *iosiap_product_subscription_group(const iosiap_product *product);
/** The subscription group's reference name, or NULL for a product that is not an auto-renewable. */
const char *iosiap_product_subscription_group_name(const iosiap_product *product);
/** The level inside the group (1 is the highest), or 0 for a product that is not an auto-renewable. */
int iosiap_product_subscription_level(const iosiap_product *product);

/** How an offer is paid (StoreKit: Product.SubscriptionOffer.PaymentMode). */
typedef enum iosiap_offer_payment_mode {
    IOSIAP_OFFER_FREE_TRIAL = 0,           /**< free for its periods */
    IOSIAP_OFFER_PAY_AS_YOU_GO = 1,        /**< a lower price each period */
    IOSIAP_OFFER_PAY_UP_FRONT = 2          /**< one lower price for all its periods, paid at once */
} iosiap_offer_payment_mode;

/**
 * A subscription offer, filled in the caller's memory. Its strings are owned by the product and live as
 * long as it. Initialise it with IOSIAP_OFFER_INIT (see the size rule at the top; the first published
 * layout, 0.1, ends after display_price).
 */
typedef struct iosiap_offer {
    size_t size;                           /**< in: sizeof(iosiap_offer) of the caller; out: bytes written */
    const char *id;                        /**< promotional or win-back offer id; NULL for the introductory offer */
    int payment_mode;                      /**< iosiap_offer_payment_mode */
    int period_value;                      /**< one offer period: value and iosiap_period_unit */
    int period_unit;                       /**< iosiap_period_unit of period_value */
    int period_count;                      /**< how many periods the offer lasts */
    const char *price;                     /**< exact decimal text per period, "0" for a free trial */
    const char *display_price;             /**< formatted for the storefront's locale */
} iosiap_offer;

/** An iosiap_offer to be filled: its size set, the rest empty. */
#define IOSIAP_OFFER_INIT { sizeof(iosiap_offer), NULL, 0, 0, 0, 0, NULL, NULL }

/** Fills *out (out->size set, see the size rule) with the introductory offer; IOSIAP_E_WRONG_STATE when the
    product has none. */
int iosiap_product_intro_offer(iosiap_offer *out, const iosiap_product *product);
/** How many promotional offers the product has (0 for a NULL product). */
size_t iosiap_product_promotional_offer_count(const iosiap_product *product);
/** Fills *out (out->size set) with promotional offer `index` (0-based); IOSIAP_E_INVALID_ARGUMENT when index
    is out of range. */
int iosiap_product_promotional_offer(iosiap_offer *out, const iosiap_product *product, size_t index);
/** How many win-back offers the product has (0 for a NULL product). StoreKit reads them from the App Store;
    the local store does not read a .storekit file's win-back offers yet, so its products have none. */
size_t iosiap_product_win_back_offer_count(const iosiap_product *product);
/** Fills *out (out->size set) with win-back offer `index` (0-based); IOSIAP_E_INVALID_ARGUMENT when index
    is out of range. */
int iosiap_product_win_back_offer(iosiap_offer *out, const iosiap_product *product, size_t index);

/* ---- Transactions ------------------------------------------------------------------------------------- */

/** A completed purchase. Dates are Unix milliseconds; 0 means "none". */
typedef struct iosiap_transaction {
    size_t size;                           /**< sizeof(iosiap_transaction) of the library that filled it */
    uint64_t id;                           /**< the App Store's transaction id */
    uint64_t original_id;                  /**< the first transaction of its subscription chain; its own id for other products */
    const char *product_id;                /**< the product bought */
    int product_type;                      /**< iosiap_product_type */
    int quantity;                          /**< units bought */
    int64_t purchase_date_ms;              /**< Unix milliseconds, as every date here */
    int64_t original_purchase_date_ms;     /**< the original transaction's purchase date */
    int64_t expiration_date_ms;            /**< auto-renewable subscriptions */
    int64_t revocation_date_ms;            /**< refunded or revoked */
    int revocation_reason;                 /**< 0 other reason, 1 an issue in the app, -1 not revoked; since 0.5 also
                                              2, the user moved to a subscription bundle (StoreKit on iOS 27) */
    const char *app_account_token;         /**< UUID text, or NULL */
    const char *environment;               /**< "Sandbox", "Production", "Xcode", "LocalTesting" */
    const char *storefront;                /**< ISO 3166-1 alpha-3, e.g. "USA" */
    const char *ownership_type;            /**< "PURCHASED" or "FAMILY_SHARED"; since 0.5 also "ASSIGNED": given by an
                                              organization (StoreKit on iOS 27), entitling as a purchase does */
    const char *subscription_group_id;     /**< or NULL */
    const char *signed_jws;                /**< the store's signed transaction, or NULL */
    const char *signed_renewal_info;       /**< an auto-renewable's signed renewal info, or NULL */
    const char *reason;                    /**< "PURCHASE", or "RENEWAL" for a subscription's renewal */
    int offer_type;                        /**< since 0.2, read only when size > offsetof(iosiap_transaction,
                                              offer_type): iosiap_offer_type the transaction was charged with, or 0 */
    const char *offer_id;                  /**< since 0.2, read only when size > offsetof(iosiap_transaction,
                                              offer_id): the promotional or win-back offer id, the offer code's
                                              reference name, or NULL */
} iosiap_transaction;

/** The kind of subscription offer a transaction used (the signed payload's offerType). */
typedef enum iosiap_offer_type {
    IOSIAP_OFFER_TYPE_NONE = 0,            /**< no offer */
    IOSIAP_OFFER_TYPE_INTRODUCTORY = 1,    /**< the introductory offer */
    IOSIAP_OFFER_TYPE_PROMOTIONAL = 2,     /**< a promotional offer */
    IOSIAP_OFFER_TYPE_OFFER_CODE = 3,      /**< an offer code the user redeemed */
    IOSIAP_OFFER_TYPE_WIN_BACK = 4         /**< a win-back offer */
} iosiap_offer_type;

/* ---- Events ------------------------------------------------------------------------------------------- */

/** What an event reports (iosiap_event.kind), and which of its fields are set. */
typedef enum iosiap_event_kind {
    IOSIAP_EVENT_PRODUCTS_RECEIVED = 1,    /**< products, invalid_product_ids */
    IOSIAP_EVENT_PRODUCTS_FAILED = 2,      /**< status, message */
    IOSIAP_EVENT_PURCHASING = 3,           /**< product_id */
    IOSIAP_EVENT_PURCHASED = 4,            /**< transaction; grant it, then iosiap_finish_transaction */
    IOSIAP_EVENT_CANCELLED = 5,            /**< product_id; the user cancelled, nothing charged */
    IOSIAP_EVENT_FAILED = 6,               /**< product_id, status, message */
    IOSIAP_EVENT_DEFERRED = 7,             /**< product_id; Ask to Buy or an interrupted purchase: the outcome comes
                                              later, PURCHASED without a request when approved or resolved (for
                                              something owned already, the transaction that grants it, unless
                                              the game finished that one: then nothing, the entitlement stands),
                                              or DECLINED (local store only: over StoreKit a
                                              decline is told as nothing, so never wait on DEFERRED) */
    IOSIAP_EVENT_DECLINED = 8,             /**< product_id; a deferred purchase was declined (by the parent; on the
                                              local store also by clearing its history): never an approval or a
                                              resolution. Local store only: StoreKit tells no app of a decline */
    IOSIAP_EVENT_RESTORED = 9,             /**< transaction */
    IOSIAP_EVENT_RESTORE_FINISHED = 10,    /**< status (IOSIAP_OK or the failure), message, restored_count */
    IOSIAP_EVENT_REVOKED = 11,             /**< transaction; refunded: take back what it granted, keyed by
                                              transaction id. Told until a callback of it returned (without
                                              iosiap_event_not_handled): again at launch if the store closed or
                                              the process died before that, or just after */
    IOSIAP_EVENT_GRANTED = 12,             /**< transaction, grant_*; the ledger granted and finished it */
    IOSIAP_EVENT_VERIFICATION_FAILED = 13, /**< transaction, status, message: not granted, not finished (nor
                                              to be: iosiap_finish_transaction refuses its id);
                                              IOSIAP_E_VERIFY_RETRYABLE: checked again later */
    IOSIAP_EVENT_EXPIRED = 14,             /**< transaction: a subscription ended without renewing (the local
                                              store; StoreKit reports no end but a billing grace period's that
                                              ends early, so over StoreKit the entitlement otherwise ends at its
                                              date untold: read iosiap_is_entitled) */
    IOSIAP_EVENT_PURCHASE_INTENT = 15,     /**< product_id, products[0], and since 0.4 intent_offer_*: bought in
                                              the App Store, outside the game; to continue, call
                                              iosiap_request_payment for it (with the offer, if any) */
    IOSIAP_EVENT_JOURNAL_ROW_UNREADABLE = 16, /**< since 0.3; product_id, status, message (naming the transaction
                                              id): a journal row that cannot be read (damaged), once per
                                              launch: an unfinished purchase the store no longer holds (kept,
                                              not delivered), or a row an entitlement or unfinished list read
                                              skipped (it entitles to nothing) */
    IOSIAP_EVENT_REFUND_REQUEST_FINISHED = 17, /**< since 0.4; refund_request_outcome, refund_transaction_id, and
                                              status, message when it FAILED: ends iosiap_begin_refund_request */
    IOSIAP_EVENT_MANAGE_SUBSCRIPTIONS_CLOSED = 18, /**< since 0.4; status, message if the sheet could not be shown:
                                              refresh what the game shows; ends iosiap_show_manage_subscriptions */
    IOSIAP_EVENT_STOREKIT_MESSAGE = 19,    /**< since 0.4; message_id, message_reason: the App Store has a message
                                              for the user, held back; show it when it suits the game with
                                              iosiap_display_message, or ignore it */
    IOSIAP_EVENT_STOREFRONT_CHANGED = 20   /**< since 0.4; storefront: the user's App Store country changed;
                                              request the products again for its prices */
} iosiap_event_kind;

/** Why the App Store sends a message (StoreKit: Message.Reason); iosiap_event.message_reason. Since 0.4. */
typedef enum iosiap_message_reason {
    IOSIAP_MESSAGE_REASON_GENERIC = 0,     /**< any other message */
    IOSIAP_MESSAGE_REASON_PRICE_INCREASE = 1, /**< a subscription's price rises: the user agrees or not */
    IOSIAP_MESSAGE_REASON_BILLING_ISSUE = 2, /**< a renewal could not be charged: the user fixes the payment */
    IOSIAP_MESSAGE_REASON_WIN_BACK_OFFER = 3 /**< a lapsed subscriber may redeem a win-back offer */
} iosiap_message_reason;

/** How a refund request ended (iosiap_event.refund_request_outcome of IOSIAP_EVENT_REFUND_REQUEST_FINISHED). */
typedef enum iosiap_refund_request_outcome {
    IOSIAP_REFUND_REQUEST_SUBMITTED = 1,   /**< the user sent it; Apple decides later: a refund arrives as REVOKED */
    IOSIAP_REFUND_REQUEST_CANCELLED = 2,   /**< the user closed the sheet without sending it; not a failure */
    IOSIAP_REFUND_REQUEST_FAILED = 3       /**< status, message say why */
} iosiap_refund_request_outcome;

/**
 * One event. Every pointer in it, and everything they point to, is owned by the library and lives only
 * until the callback returns: copy what you keep.
 */
typedef struct iosiap_event {
    size_t size;                           /**< sizeof(iosiap_event) of the library that filled it */
    int kind;                              /**< iosiap_event_kind */
    uint64_t request_id;                   /**< the request it answers; 0 for events of the store's own */
    const char *product_id;                /**< or NULL */
    int quantity;                          /**< units of PURCHASING and of events with a transaction; else 0 */
    int status;                            /**< IOSIAP_OK, or the error of a failure */
    const char *message;                   /**< the failure's text, or NULL */
    const iosiap_transaction *transaction; /**< or NULL */
    const iosiap_product *const *products; /**< products received; owned by the store, valid until close */
    size_t product_count;                  /**< how many products */
    const char *const *invalid_product_ids; /**< PRODUCTS_RECEIVED: the ids the store does not sell */
    size_t invalid_product_id_count;       /**< how many invalid_product_ids */
    size_t restored_count;                 /**< RESTORE_FINISHED: how many transactions were restored */
    const char *grant_currency;            /**< GRANTED: the currency granted, or NULL */
    int64_t grant_amount;                  /**< GRANTED: how much of it (amount per unit x quantity) */
    const char *grant_entitlement;         /**< GRANTED: the entitlement granted, or NULL */
    int verified;                          /**< 1: the transaction passed the store's verification */
    int refund_request_outcome;            /**< since 0.4, read only when size > offsetof(iosiap_event,
                                              refund_request_outcome): REFUND_REQUEST_FINISHED's
                                              iosiap_refund_request_outcome; else 0 */
    uint64_t refund_transaction_id;        /**< since 0.4, read only when size > offsetof(iosiap_event,
                                              refund_transaction_id): REFUND_REQUEST_FINISHED's transaction, the
                                              one it asked about; else 0 */
    const char *message_id;                /**< since 0.4, read only when size > offsetof(iosiap_event,
                                              message_id): STOREKIT_MESSAGE's id for iosiap_display_message; else
                                              NULL */
    int message_reason;                    /**< since 0.4, read only when size > offsetof(iosiap_event,
                                              message_reason): STOREKIT_MESSAGE's iosiap_message_reason; else 0 */
    const char *storefront;                /**< since 0.4, read only when size > offsetof(iosiap_event,
                                              storefront): STOREFRONT_CHANGED's new storefront (ISO 3166-1
                                              alpha-3); else NULL */
    int intent_offer_type;                 /**< since 0.4, read only when size > offsetof(iosiap_event,
                                              intent_offer_type): PURCHASE_INTENT's offer (StoreKit:
                                              PurchaseIntent.offer, iOS 18, macOS 15), as iosiap_offer_type, or 0
                                              for none. Apple documents it as set for a win-back offer the user
                                              redeemed in the App Store: pay with
                                              iosiap_payment_options.win_back_offer_id = intent_offer_id. A
                                              promotional one would need the game's server's signature, as any
                                              (offer_id and offer_*); an introductory one applies by itself to a
                                              user eligible for it. */
    const char *intent_offer_id;           /**< since 0.4, read only when size > offsetof(iosiap_event,
                                              intent_offer_id): PURCHASE_INTENT's offer id (NULL for an
                                              introductory offer); else NULL */
} iosiap_event;

/** Receives one event. Must not call iosiap_store_close on the store that delivers it. An event counts as
    handled once it returns, unless it called iosiap_event_not_handled for it. */
typedef void (*iosiap_event_callback)(const iosiap_event *event, void *user_data);

/** An open store. Opaque. */
typedef struct iosiap_store iosiap_store;

/**
 * Since 0.4. Called once by the open call, on its thread, with the store it opened (*out already holds it),
 * before any event can reach on_event: before the delivery thread starts (IOSIAP_DELIVERY_THREAD), before the
 * open returns (so before the first iosiap_poll). Register the grant ledger's products here
 * (iosiap_ledger_register_*, iosiap_ledger_set_deduct_refunds); any other call on the store is allowed too,
 * except iosiap_store_close. Return IOSIAP_OK to go on. Any other value refuses the open: the store is closed
 * without delivering any event (nothing is lost: as after iosiap_store_close, what is unfinished comes back at
 * the next launch), *out is set to NULL, and the open returns the value if it is negative (e.g. a failed ledger
 * call's status; the message names what failed inside on_open), else IOSIAP_E_INVALID_ARGUMENT. Closing the
 * store from it is a caller error: the open then returns IOSIAP_E_STORE_NOT_OPEN with *out NULL.
 */
typedef int (*iosiap_open_callback)(iosiap_store *store, void *user_data);

/** Version 2 added `on_open`; the library reads version 1 structs too. */
#define IOSIAP_CALLBACKS_VERSION 2

/** Where events go, and what runs at open. */
typedef struct iosiap_callbacks {
    unsigned int version;                  /**< IOSIAP_CALLBACKS_VERSION */
    iosiap_event_callback on_event;        /**< may be NULL: events are then dropped */
    void *user_data;                       /**< passed to every callback */
    iosiap_open_callback on_open;          /**< since 0.4 (version 2); NULL: none */
} iosiap_callbacks;

/** Callbacks with their version set and none given. */
#define IOSIAP_CALLBACKS_INIT { IOSIAP_CALLBACKS_VERSION, NULL, NULL, NULL }

/* ---- Opening and closing a store --------------------------------------------------------------------- */

/** Where events are delivered. */
typedef enum iosiap_delivery_mode {
    IOSIAP_DELIVERY_POLL = 0,              /**< events wait until iosiap_poll (the default) */
    IOSIAP_DELIVERY_THREAD = 1             /**< events arrive on a library-owned serial thread, started once
                                              the open call has stored the handle and on_open has returned */
} iosiap_delivery_mode;

/** How transactions are verified before the game hears of them. */
typedef enum iosiap_verification_mode {
    IOSIAP_VERIFY_NONE = 0,                /**< transactions are delivered unchecked */
    IOSIAP_VERIFY_ON_DEVICE = 1,           /**< each transaction's JWS and certificate chain, on the device */
    IOSIAP_VERIFY_SERVER = 2               /**< POSTed to the developer's server */
} iosiap_verification_mode;

/** The version of iosiap_verification_options this header declares. */
#define IOSIAP_VERIFICATION_OPTIONS_VERSION 1

/** How transactions are verified before the game hears of them. Copied during open. */
typedef struct iosiap_verification_options {
    unsigned int version;                  /**< IOSIAP_VERIFICATION_OPTIONS_VERSION */
    int mode;                              /**< iosiap_verification_mode */
    const uint8_t *trusted_root_der;       /**< ON_DEVICE: the root to trust; NULL: the local store's own */
    size_t trusted_root_der_length;        /**< bytes in trusted_root_der */
    const char *server_url;                /**< SERVER: where to POST; required */
    const char *sandbox_server_url;        /**< SERVER: where a 21007 answer is sent again; NULL: none */
    int legacy_receipt_body;               /**< SERVER: 1 = {"receipt-data", "password"} instead of the JWS */
    const char *shared_secret;             /**< SERVER, legacy body: the "password"; NULL: "" */
    int timeout_ms;                        /**< SERVER: per request, the whole POST; 0 = 10000 */
    int attempts;                          /**< SERVER: tries before "retry later"; 0 = 3 */
} iosiap_verification_options;

/** Verification options with their version set: no verification. */
#define IOSIAP_VERIFICATION_OPTIONS_INIT { IOSIAP_VERIFICATION_OPTIONS_VERSION, IOSIAP_VERIFY_NONE, NULL, 0, NULL, NULL, 0, NULL, 0, 0 }

/** Version 2 added `verification`; the library reads version 1 structs too. */
#define IOSIAP_LOCAL_STORE_OPTIONS_VERSION 2

/** How to open the local App Store. The library copies every string during iosiap_store_open_local. */
typedef struct iosiap_local_store_options {
    unsigned int version;                  /**< IOSIAP_LOCAL_STORE_OPTIONS_VERSION */
    const char *catalog_path;              /**< the .storekit file; required */
    const char *state_directory;           /**< where purchases are kept; required, created if missing */
    const char *bundle_id;                 /**< NULL: "com.example.game" */
    const char *locale;                    /**< NULL: the catalog's _locale */
    const char *storefront;                /**< NULL: the catalog's _storefront, e.g. "USA" */
    int delivery;                          /**< iosiap_delivery_mode */
    const iosiap_verification_options *verification; /**< NULL: no verification (version 2) */
} iosiap_local_store_options;

/** Local store options with their version set and every default. */
#define IOSIAP_LOCAL_STORE_OPTIONS_INIT { IOSIAP_LOCAL_STORE_OPTIONS_VERSION, NULL, NULL, NULL, NULL, NULL, IOSIAP_DELIVERY_POLL, NULL }

/**
 * Opens the local App Store. On success *out is the store, to be closed with iosiap_store_close.
 * Transactions left unfinished by earlier launches are queued again as IOSIAP_EVENT_PURCHASED (one whose
 * journal row cannot be read, as IOSIAP_EVENT_JOURNAL_ROW_UNREADABLE).
 */
int iosiap_store_open_local(iosiap_store **out, const iosiap_local_store_options *options,
                            const iosiap_callbacks *callbacks);

/** The version of iosiap_storekit_options this header declares. */
#define IOSIAP_STOREKIT_OPTIONS_VERSION 1

/** How to open the store over StoreKit 2. Copied during iosiap_store_open_storekit. */
typedef struct iosiap_storekit_options {
    unsigned int version;                  /**< IOSIAP_STOREKIT_OPTIONS_VERSION */
    const char *state_directory;           /**< where the journal is kept; NULL: "IOSiAP" in the app's
                                              Application Support folder */
    int delivery;                          /**< iosiap_delivery_mode */
    const iosiap_verification_options *verification; /**< NULL or ON_DEVICE: StoreKit's own verdict;
                                                        SERVER: StoreKit's verdict, then the server's */
} iosiap_storekit_options;

/** StoreKit options with their version set and every default. */
#define IOSIAP_STOREKIT_OPTIONS_INIT { IOSIAP_STOREKIT_OPTIONS_VERSION, NULL, IOSIAP_DELIVERY_POLL, NULL }

/**
 * Opens the store over StoreKit 2 (the library is built for iOS 18, macOS 15, tvOS 18, visionOS 2 and later):
 * the real App Store, or the .storekit configuration an Xcode scheme selects. Where StoreKit does not exist
 * (Linux) it returns IOSIAP_E_SK_UNSUPPORTED_PLATFORM: use iosiap_store_open_local there.
 */
int iosiap_store_open_storekit(iosiap_store **out, const iosiap_storekit_options *options,
                               const iosiap_callbacks *callbacks);

/** Closes the store and frees it. Queued events are dropped (purchases and refunds among them come back at
    the next launch: a refund is told again until a callback of its IOSIAP_EVENT_REVOKED has returned); with
    IOSIAP_DELIVERY_THREAD, a callback in progress finishes first (close waits for it, without a limit) and none
    runs after this returns. Requests still waiting or running are cancelled: they get no further event. Waits
    for the store's worker to end, at most about 2 s, and on the local store as long again for each of its own
    threads (its watcher, its notification senders). A server verification in progress may outlast that: it
    then ends on its own, on Linux after at most `attempts` tries of about timeout_ms each with pauses between
    (one more after a 21007 answer sends it to sandbox_server_url); on Apple platforms timeout_ms bounds each
    wait for data, not the whole. NULL does nothing.
    On Linux and macOS the library initialises OpenSSL 3 as it is loaded, without the cleanup OpenSSL otherwise
    runs at exit, so that returning from main while the library verifies does not free libcrypto under it
    (tested on Linux, with the store's and the game's threads verifying on the device; a server verification
    over https, whose TLS on Linux uses OpenSSL, and macOS rest on the same initialisation). That holds when
    nothing in the process initialised OpenSSL before the library was loaded (another library's load-time code
    that uses it and runs first, a dlopen of libiosiap after OpenSSL was used). There, before returning from
    main, close the store and join the game's threads that call iosiap_verify_transaction; a game cannot wait
    for a server verification close stopped waiting for, and over https on Linux its exit can still meet one.
    With IOSIAP_DELIVERY_THREAD (whose callbacks could run while the game's static destructors do), close the
    store before returning from main. */
void iosiap_store_close(iosiap_store *store);

/* ---- Requests (each queues work and returns at once; the result comes as events) --------------------- */

/**
 * Asks for products. Duplicate ids are asked once. Ends in PRODUCTS_RECEIVED or PRODUCTS_FAILED.
 * *out_request_id (if not NULL) receives the request id the events carry.
 */
int iosiap_request_products(uint64_t *out_request_id, iosiap_store *store,
                            const char *const *product_ids, size_t count);

/**
 * Buys `quantity` of a product loaded by a products request. app_account_token is UUID text or NULL.
 * Emits PURCHASING, then ends in PURCHASED, CANCELLED, FAILED or DEFERRED. Bad input charges nothing.
 */
int iosiap_request_payment(uint64_t *out_request_id, iosiap_store *store, const char *product_id,
                           int quantity, const char *app_account_token);

/** The version of iosiap_payment_options this header declares. */
#define IOSIAP_PAYMENT_OPTIONS_VERSION 4

/**
 * A payment with everything StoreKit's purchase options carry. A promotional offer is redeemed by naming
 * it in offer_id and passing what the game's server signed for it (Apple: "Generating a signature for
 * promotional offers"): the server signs bundle id, key id, product id, offer id, app_account_token, nonce
 * and timestamp. The library copies every string during the call.
 *
 * ui_context (version 2) is the game's UI object that StoreKit shows the purchase confirmation near
 * (StoreKit's purchase(confirmIn:options:)), as an Objective-C object pointer (from Objective-C,
 * `(__bridge void *)object`). The library does not retain it: keep the object alive until the payment's
 * final event. What each platform takes:
 *   - iOS, tvOS: a UIViewController * (used from iOS/tvOS 18.2; before, its window's scene) or a
 *     UIWindowScene *; NULL (or, before 18.2, a view controller not in a window) takes the app's one
 *     foreground-active UIWindowScene, else its one foreground-inactive one. Where there is no such single scene
 *     the payment ends in FAILED with IOSIAP_E_INVALID_PRESENTATION_CONTEXT; StoreKit's purchase without a scene
 *     is not used (it fails from iOS 18.2: "Could not get confirmation scene ID").
 *   - visionOS: required, a UIWindowScene * or, from visionOS 2.2, a UIViewController *. Without one the
 *     payment ends in FAILED with IOSIAP_E_SK_UNSUPPORTED_PLATFORM (visionOS has no purchase without it).
 *   - macOS: an NSWindow * or an NSViewController * (its view's window), used from macOS 15.2 (before,
 *     StoreKit chooses), or NULL.
 *   - The local store ignores it.
 * An object of another class ends the payment in FAILED with IOSIAP_E_INVALID_ARGUMENT; a pointer to
 * anything but an Objective-C object is undefined behaviour (the library cannot check it).
 *
 * win_back_offer_id (version 3) redeems a win-back offer of the product: one of its subscription's
 * win-back offers (iosiap_product_win_back_offer), for a lapsed subscriber of its group (StoreKit:
 * Product.PurchaseOption.winBackOffer). A user the App Store finds ineligible ends the payment in FAILED with
 * IOSIAP_E_SK_INELIGIBLE_FOR_OFFER; a payment redeems one offer, so it is not set with offer_id.
 *
 * offer_jws (version 4) is the promotional offer offer_id names, signed by the game's server as a compact JWS
 * (Apple: "Generating JWS to sign App Store requests", its server library's PromotionalOfferV2SignatureCreator):
 * it replaces offer_key_id, offer_nonce, offer_timestamp_ms and offer_signature, which stay unset beside it.
 * intro_offer_eligibility_jws (version 4) is a compact JWS from the game's server (its
 * IntroductoryOfferEligibilitySignatureCreator) that decides whether this purchase gets the product's
 * introductory offer, whatever the App Store's own rule says; it may come with any offer. StoreKit takes them
 * (Product.PurchaseOption.promotionalOffer(_:compactJWS:), introductoryOfferEligibility(compactJWS:)) in a library
 * built with the iOS 26 / macOS 26 SDK; one built with an older SDK ends such a payment in FAILED with
 * IOSIAP_E_SK_UNSUPPORTED_PLATFORM. Each is at most IOSIAP_MAX_OFFER_JWS_LENGTH bytes; the store checks it, and a
 * JWS it refuses ends the payment in FAILED with IOSIAP_E_SK_INVALID_SIGNATURE (or, for a user who is not a
 * subscriber, IOSIAP_E_SK_INELIGIBLE_FOR_OFFER), charging nothing.
 *
 * Callers compiled with an earlier header keep working: for version 1 the library reads no byte past
 * offer_signature (ui_context is NULL), for version 2 none past ui_context (win_back_offer_id is NULL), for
 * version 3 none past win_back_offer_id (offer_jws and intro_offer_eligibility_jws are NULL).
 */
typedef struct iosiap_payment_options {
    unsigned int version;                  /**< IOSIAP_PAYMENT_OPTIONS_VERSION */
    int quantity;                          /**< 1...10; above 1 for consumables only */
    const char *app_account_token;         /**< UUID text, or NULL */
    const char *offer_id;                  /**< a promotional offer of the product, or NULL for none */
    const char *offer_key_id;              /**< with offer_id: the id of the key that signed it */
    const char *offer_nonce;               /**< with offer_id: the UUID the server signed, as text */
    int64_t offer_timestamp_ms;            /**< with offer_id: when the server signed it (Unix ms) */
    const char *offer_signature;           /**< with offer_id: the signature, base64 as the server sent it */
    /** Since version 2: */
    void *ui_context;                      /**< UIViewController *, UIWindowScene *, NSWindow *, NSViewController *, or NULL */
    /** Since version 3: */
    const char *win_back_offer_id;         /**< a win-back offer of the product, or NULL for none */
    /** Since version 4: */
    const char *offer_jws;                 /**< with offer_id: the offer signed as a JWS (instead of offer_key_id
                                              ... offer_signature), or NULL */
    const char *intro_offer_eligibility_jws; /**< a JWS deciding the introductory offer, or NULL for the App Store's rule */
} iosiap_payment_options;

/** Payment options with their version set: one unit, no offer, no UI context. */
#define IOSIAP_PAYMENT_OPTIONS_INIT { IOSIAP_PAYMENT_OPTIONS_VERSION, 1, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL }

/**
 * iosiap_request_payment with options: a promotional offer. An offer's parameters are checked before
 * anything is queued (IOSIAP_E_SK_MISSING_OFFER_PARAMS, IOSIAP_E_SK_INVALID_OFFER_IDENTIFIER, and
 * IOSIAP_E_INVALID_ARGUMENT for offer_jws set beside the older form's fields); the store checks its signature
 * and the user's eligibility, and a refusal ends in FAILED with IOSIAP_E_SK_INVALID_SIGNATURE or
 * IOSIAP_E_SK_INELIGIBLE_FOR_OFFER. Nothing is charged for a bad offer.
 */
int iosiap_request_payment_with_options(uint64_t *out_request_id, iosiap_store *store, const char *product_id,
                                        const iosiap_payment_options *options);

/**
 * Shows the App Store's sheet where the user enters an offer code (StoreKit: AppStore.presentOfferCodeRedeemSheet,
 * iOS 16+, visionOS and macOS 15+), from ui_context: on iOS and visionOS the game's UIWindowScene *
 * (`(__bridge void *)scene`), on macOS its NSViewController * or an NSWindow * whose contentViewController the
 * sheet shows from (a window without one shows nothing); StoreKit holds it while the sheet shows. It returns
 * once the sheet is asked for, without waiting for the user: a
 * code redeemed arrives later as IOSIAP_EVENT_PURCHASED without a request (request_id 0), its transaction's
 * offer_type IOSIAP_OFFER_TYPE_OFFER_CODE and offer_id the code's reference name; the sheet shows the user its own
 * errors. Returns IOSIAP_E_SK_UNSUPPORTED_PLATFORM on tvOS (StoreKit has no such sheet there) and when
 * ui_context is NULL, IOSIAP_E_INVALID_ARGUMENT when it is not of the class named above. The local store records
 * the call and shows nothing (its Offer Code Redeem Sheet simulated error fails it with that status):
 * `iosiap-store redeem-code` or iosiap_local_redeem_offer_code plays the user.
 */
int iosiap_present_offer_code_redeem_sheet(iosiap_store *store, void *ui_context);

/**
 * Since 0.4. Asks the App Store for a refund of a transaction: shows its refund request sheet (StoreKit:
 * Transaction.beginRefundRequest(for:in:), iOS 15+, visionOS and macOS) in ui_context: on iOS and visionOS the
 * game's UIWindowScene *, on macOS its NSViewController * or an NSWindow * with a contentViewController (StoreKit
 * holds it while the sheet shows). It queues the request and returns; the request ends in exactly one
 * IOSIAP_EVENT_REFUND_REQUEST_FINISHED whose refund_request_outcome is SUBMITTED (Apple decides later: a refund
 * granted arrives as IOSIAP_EVENT_REVOKED), CANCELLED (the user closed the sheet) or FAILED (status, message:
 * IOSIAP_E_DUPLICATE_REFUND_REQUEST for a transaction refunded or with a request pending,
 * IOSIAP_E_UNKNOWN_TRANSACTION, IOSIAP_E_WRONG_STATE for a transaction a family member shares (FAMILY_SHARED:
 * only the purchaser may ask), IOSIAP_E_SK_UNSUPPORTED_PLATFORM on tvOS and without a ui_context,
 * IOSIAP_E_INVALID_ARGUMENT when it is not of the class named above, or a macOS window without a
 * contentViewController). A transaction_id of 0 is refused at once with
 * IOSIAP_E_INVALID_ARGUMENT. The local store shows nothing: the request waits pending (across launches) until
 * `iosiap-store approve-refund` or `decline-refund`; its purchase dialog answering cancel plays CANCELLED, its
 * Refund Request Sheet simulated error FAILED.
 */
int iosiap_begin_refund_request(uint64_t *out_request_id, iosiap_store *store, uint64_t transaction_id, void *ui_context);

/**
 * Since 0.4. Shows the App Store's sheet where the user manages subscriptions (StoreKit:
 * AppStore.showManageSubscriptions(in:), iOS 15+ and visionOS) in ui_context, the game's UIWindowScene *. It
 * queues the sheet and returns; *out_request_id (if not NULL) receives the request id that the one
 * IOSIAP_EVENT_MANAGE_SUBSCRIPTIONS_CLOSED carries when the sheet closes, with the status of a sheet that could
 * not be shown (IOSIAP_E_SK_UNSUPPORTED_PLATFORM on macOS and tvOS), so the game can refresh; what the user
 * changed arrives as its own events. The local store records the call (count and
 * time in `iosiap-store settings`) and closes it at once: its controls play what the user does there
 * (auto-renew off, a plan change); its Manage Subscriptions Sheet simulated error fails it.
 */
int iosiap_show_manage_subscriptions(uint64_t *out_request_id, iosiap_store *store, void *ui_context);

/**
 * Since 0.4. Shows App Store message message_id (from IOSIAP_EVENT_STOREKIT_MESSAGE; StoreKit: Message.display(in:),
 * iOS 16+ and visionOS) in ui_context, the game's UIWindowScene *. The store listens for messages from its
 * opening, which keeps StoreKit from showing them over the game at once (open the store early in the launch):
 * each waits for this call, and one never displayed is offered again at a later launch. It returns once the
 * sheet is asked for. IOSIAP_E_INVALID_ARGUMENT for an id this store never delivered (or NULL), or a ui_context
 * that is not a UIWindowScene; IOSIAP_E_INVALID_UTF8 or IOSIAP_E_STRING_TOO_LONG (over 64 bytes) for an id no
 * store makes; IOSIAP_E_WRONG_STATE for one already displayed; IOSIAP_E_SK_UNSUPPORTED_PLATFORM
 * without a ui_context, and on macOS and tvOS (StoreKit has no messages there: none arrive). The local store shows
 * nothing and records the display (`iosiap-store messages`).
 */
int iosiap_display_message(iosiap_store *store, const char *message_id, void *ui_context);

/** Asks for what the user owns: RESTORED for each, then exactly one RESTORE_FINISHED. */
int iosiap_request_restore(uint64_t *out_request_id, iosiap_store *store);

/**
 * Marks a transaction granted so it is not delivered again. Idempotent (IOSIAP_OK for one finished already).
 * IOSIAP_E_UNKNOWN_TRANSACTION for an id the store never recorded, and, since 0.4, IOSIAP_E_NOT_DELIVERED,
 * finishing nothing, for one it never delivered as PURCHASED or RESTORED: the id of a VERIFICATION_FAILED (the
 * StoreKit 1 habit of finishing failures) may be a genuine purchase whose check has not passed yet, which is
 * delivered as PURCHASED once it does. A GRANTED transaction is finished already.
 */
int iosiap_finish_transaction(iosiap_store *store, uint64_t transaction_id);

/* ---- Events, products, entitlements ------------------------------------------------------------------ */

/**
 * Delivers up to max_events queued events (0: all) to the callback, on the calling thread.
 * Returns how many it delivered (>= 0), or a negative status. Cheap when nothing is queued.
 */
int iosiap_poll(iosiap_store *store, size_t max_events);

/**
 * Since 0.4. Called from inside on_event, with the store and the event it was given: the game could not handle
 * it (a C++ delegate threw; the game could not save what the event asked). The event then counts as not told: an
 * IOSIAP_EVENT_REVOKED is told again at the next launch (the grant ledger takes back once, however often it is
 * told). Other events are not told again for it (a purchase stays unfinished until iosiap_finish_transaction
 * anyway). IOSIAP_E_WRONG_STATE, changing nothing, outside on_event or for another event than the one it was given.
 */
int iosiap_event_not_handled(iosiap_store *store, const iosiap_event *event);

/** The product loaded with this id: *out is owned by the store, valid until close. */
int iosiap_store_product(const iosiap_product **out, iosiap_store *store, const char *product_id);

/** *out_entitled = 1 if the user owns the product now (non-consumable, active subscription), else 0. */
int iosiap_is_entitled(int *out_entitled, iosiap_store *store, const char *product_id);

/**
 * Since 0.5. *out_verifies = 1 if each transaction is verified before the game hears of it (over StoreKit always:
 * StoreKit's verdict, then the server's if set; on the local store with IOSIAP_VERIFY_ON_DEVICE or
 * IOSIAP_VERIFY_SERVER), 0 if transactions are delivered unchecked (the local store opened without verification,
 * as for development: a forged transaction would be granted). A game can log it at launch, or refuse to ship so.
 */
int iosiap_store_verifies(int *out_verifies, iosiap_store *store);

/** Receives one entitlement; the transaction lives until the callback returns. */
typedef void (*iosiap_transaction_callback)(const iosiap_transaction *transaction, void *user_data);

/**
 * Calls `visit` (on the calling thread, before returning) for each current entitlement.
 * Returns how many there are (>= 0), or a negative status. visit may be NULL to count only.
 */
int iosiap_entitlements(iosiap_store *store, iosiap_transaction_callback visit, void *user_data);

/** 1 if this user may make payments, 0 if not, or a negative status. */
int iosiap_can_make_payments(iosiap_store *store);

/* ---- The local App Store's controls (StoreKitTest's SKTestSession) ----------------------------------- */

/*
 * For QA and tests, on a store opened with iosiap_store_open_local (IOSIAP_E_WRONG_STATE on a StoreKit
 * store; IOSIAP_E_UNSUPPORTED_PLATFORM on iOS, tvOS and visionOS, which have no local store). Each takes
 * effect at once and is kept in the state directory; iosiap-store offers the same from a shell. What they
 * cause reaches the game as events, like anything the store does.
 */

/** The APIs whose failure can be simulated (values of `iosiap_local_set_simulated_error`). */
typedef enum iosiap_failable_api {
    IOSIAP_API_LOAD_PRODUCTS = 0,          /**< products requests */
    IOSIAP_API_PURCHASE = 1,               /**< payments */
    IOSIAP_API_VERIFICATION = 2,           /**< the store's verification of a transaction */
    IOSIAP_API_APP_STORE_SYNC = 3,         /**< the sync a restore starts with */
    IOSIAP_API_SUBSCRIPTION_STATUS = 4,    /**< subscription status queries */
    IOSIAP_API_APP_TRANSACTION = 5,        /**< iosiap_app_transaction */
    IOSIAP_API_MANAGE_SUBSCRIPTIONS = 6,   /**< the manage subscriptions sheet */
    IOSIAP_API_REFUND_REQUEST = 7,         /**< the refund request sheet */
    IOSIAP_API_OFFER_CODE_REDEEM = 8       /**< the offer code sheet */
} iosiap_failable_api;

/** Ask to Buy on (1) or off (0): purchases wait for approval and end in IOSIAP_EVENT_DEFERRED. */
int iosiap_local_set_ask_to_buy(iosiap_store *store, int enabled);
/** Receives one purchase waiting for approval; product_id lives until the callback returns. */
typedef void (*iosiap_pending_callback)(int64_t pending_id, const char *product_id, int quantity, void *user_data);
/** Calls `visit` for each purchase waiting for approval; returns how many (>= 0) or a negative status. */
int iosiap_local_pending_purchases(iosiap_store *store, iosiap_pending_callback visit, void *user_data);
/** Approves a waiting purchase: charged now, it reaches the game as IOSIAP_EVENT_PURCHASED. */
int iosiap_local_approve_ask_to_buy(iosiap_store *store, int64_t pending_id);
/** Declines a waiting purchase: the game receives IOSIAP_EVENT_DECLINED. */
int iosiap_local_decline_ask_to_buy(iosiap_store *store, int64_t pending_id);
/** Interrupted purchases on (1) or off (0): a purchase ends in IOSIAP_EVENT_DEFERRED until resolved. */
int iosiap_local_set_interrupted_purchases(iosiap_store *store, int enabled);
/** The user resolves an interrupted purchase (listed by iosiap_local_pending_purchases): it is charged and
    reaches the game as IOSIAP_EVENT_PURCHASED. */
int iosiap_local_resolve_interrupted_purchase(iosiap_store *store, int64_t pending_id);
/** Makes `api` (iosiap_failable_api) fail with `status` (a negative iosiap_status); IOSIAP_OK clears it. */
int iosiap_local_set_simulated_error(iosiap_store *store, int api, int status);
/** What the simulated user answers in the purchase sheet (and, since 0.4, the refund request sheet): 0 confirms, 1 cancels. */
int iosiap_local_set_purchase_cancelled(iosiap_store *store, int cancel);
/** Refunds a transaction (reason 0: other, 1: an issue in the app); the game receives IOSIAP_EVENT_REVOKED. */
int iosiap_local_refund(iosiap_store *store, uint64_t transaction_id, int reason);
/** Ends an active subscription now, without renewing; the game receives IOSIAP_EVENT_EXPIRED. */
int iosiap_local_expire_subscription(iosiap_store *store, const char *product_id);
/** Renews an active subscription now; the renewal arrives as IOSIAP_EVENT_PURCHASED (reason "RENEWAL"). */
int iosiap_local_force_renewal(iosiap_store *store, const char *product_id);
/** Turns an active subscription's auto-renew on (1) or off (0). */
int iosiap_local_set_auto_renew(iosiap_store *store, const char *product_id, int enabled);
/** Renewal payments fail (1) or succeed (0): a subscription reaching its renewal enters billing retry and
    the game receives IOSIAP_EVENT_EXPIRED, unless a grace period keeps it active until the grace ends.
    The payment is retried for 60 days: set back to 0 within them, the subscription renews at once
    (IOSIAP_EVENT_PURCHASED, reason "RENEWAL"); after them it has ended for good. */
int iosiap_local_set_billing_issues(iosiap_store *store, int enabled);
/** A billing grace period on (1) or off (0): 16 days (3 for weekly subscriptions) at the store's time rate. */
int iosiap_local_set_billing_grace_period(iosiap_store *store, int enabled);
/** The user fixes the payment of a subscription in billing retry: it renews now, and the renewal arrives as
    IOSIAP_EVENT_PURCHASED (reason "RENEWAL"). IOSIAP_E_WRONG_STATE if it is not in billing retry. */
int iosiap_local_resolve_billing_issue(iosiap_store *store, const char *product_id);
/** How fast subscription time runs: SKTestSession.TimeRate's values (0 real time, 13 a month every 5 minutes). */
int iosiap_local_set_time_rate(iosiap_store *store, int rate);
/** The storefront (ISO 3166-1 alpha-3) and the locale prices and titles use from the next products request.
    A storefront different from the one in force reaches the game as IOSIAP_EVENT_STOREFRONT_CHANGED (since 0.4). */
int iosiap_local_set_storefront(iosiap_store *store, const char *storefront);
/** The locale (e.g. "de_DE") prices and titles use from the next products request. */
int iosiap_local_set_locale(iosiap_store *store, const char *locale);
/** Buys from outside the game; it arrives as IOSIAP_EVENT_PURCHASED without a request. */
int iosiap_local_buy(uint64_t *out_transaction_id, iosiap_store *store, const char *product_id, int quantity);
/** Redeems offer code offer_code (its reference name in the catalog's codeOffers) of subscription product_id
    from outside the game, as the user would in the App Store: it arrives as IOSIAP_EVENT_PURCHASED without a
    request, with offer type 3 (offer code). IOSIAP_E_SK_INELIGIBLE_FOR_OFFER, charging nothing, when the code's
    eligibility (new, existing or expired subscribers of the group) does not fit this user. */
int iosiap_local_redeem_offer_code(uint64_t *out_transaction_id, iosiap_store *store, const char *product_id,
                                   const char *offer_code);
/** Since 0.4. A family member buys product_id and shares it with this user (Family Sharing), as
    `iosiap-store buy --family` does: it arrives as IOSIAP_EVENT_PURCHASED without a request, its ownership_type
    "FAMILY_SHARED" (in its signed_jws too), and entitles the user. IOSIAP_E_INVALID_ARGUMENT, changing nothing,
    for a product whose catalog entry is not familyShareable; IOSIAP_E_WRONG_STATE while the user owns it (or a
    subscription of its group) already. A shared subscription renews shared until the sharing ends. */
int iosiap_local_buy_family_shared(uint64_t *out_transaction_id, iosiap_store *store, const char *product_id);
/** Since 0.4. The family member stops sharing, or the user leaves the family (`iosiap-store stop-family-sharing`):
    the shared transaction (for a subscription, its newest) is revoked now, revocation_reason 0 as Apple sets it,
    and the game receives IOSIAP_EVENT_REVOKED, at its next launch if it is closed. IOSIAP_E_WRONG_STATE for a
    transaction the user bought or whose sharing already ended, IOSIAP_E_UNKNOWN_TRANSACTION for an unknown id. */
int iosiap_local_stop_family_sharing(iosiap_store *store, uint64_t transaction_id);
/** Starts a purchase in the "App Store": the game receives IOSIAP_EVENT_PURCHASE_INTENT. */
int iosiap_local_request_purchase_intent(iosiap_store *store, const char *product_id);
/** Since 0.4. The same, the user redeeming offer_id (or NULL: none), one of subscription product_id's win-back
    offers, as `iosiap-store intent PRODUCT OFFER` does: the event carries it in intent_offer_*. Refused, storing
    nothing, with IOSIAP_E_SK_INVALID_OFFER_IDENTIFIER for an offer the catalog does not list, and with
    IOSIAP_E_SK_INELIGIBLE_FOR_OFFER unless the user is a lapsed subscriber the offer is for (the App Store shows
    win-back offers to those only). */
int iosiap_local_request_purchase_intent_with_offer(iosiap_store *store, const char *product_id, const char *offer_id);
/** Since 0.4. Sets the URL (http or https) App Store Server Notifications V2 are POSTed to, or clears it with
    NULL; kept in the state directory, the setting of `iosiap-store notifications url`. From then on every change
    the App Store would notify about is recorded, signed, in the state directory and sent with retries by this
    store (on a thread of its own: a dead endpoint slows no call) or by `iosiap-store serve`. What happened
    before is not notified. IOSIAP_E_INVALID_ARGUMENT for anything but an http or https URL. */
int iosiap_local_set_notification_url(iosiap_store *store, const char *url);
/** Since 0.4. Raises an App Store message (reason: iosiap_message_reason) about subscription product_id, as
    `iosiap-store message` does: the game receives IOSIAP_EVENT_STOREKIT_MESSAGE. offer_id (or NULL) names one
    of the product's win-back offers, for IOSIAP_MESSAGE_REASON_WIN_BACK_OFFER only. */
int iosiap_local_send_message(iosiap_store *store, int reason, const char *product_id, const char *offer_id);
/** Clears the history and every control's setting: the catalog's defaults apply again. */
int iosiap_local_reset(iosiap_store *store);

/**
 * A promotional offer's signature, as a game's server would send it, filled in the caller's memory.
 * Initialise it with IOSIAP_OFFER_SIGNATURE_INIT (see the size rule at the top; the first published
 * layout, 0.2, ends after signature).
 */
typedef struct iosiap_offer_signature {
    size_t size;                           /**< in: sizeof(iosiap_offer_signature) of the caller; out: bytes written */
    char key_id[64];                       /**< the key id the offer was signed with */
    char nonce[40];                        /**< lowercase UUID text */
    int64_t timestamp_ms;                  /**< when it was signed, Unix milliseconds */
    char signature[128];                   /**< base64 DER ECDSA signature */
} iosiap_offer_signature;

/** An iosiap_offer_signature to be filled: its size set, the rest empty. */
#define IOSIAP_OFFER_SIGNATURE_INIT { sizeof(iosiap_offer_signature), {0}, {0}, 0, {0} }

/**
 * Signs a promotional offer with the catalog's subscriptionOffersKeyPair, as the game's server would with
 * its In-App Purchase key, into *out (out->size set): for QA and tests without that server.
 * IOSIAP_E_WRONG_STATE when the catalog has no key; app_account_token (UUID text or NULL) must be the one
 * the payment passes.
 */
int iosiap_local_sign_promotional_offer(iosiap_offer_signature *out, iosiap_store *store, const char *product_id,
                                        const char *offer_id, const char *app_account_token);

/* ---- The App Transaction (the app's own signed purchase record) ------------------------------------- */

/**
 * The app's own purchase record, signed by the store (StoreKit: AppTransaction): which version of the app
 * the user first got and when, e.g. to grant a paid-to-free migration's players what they paid for. Made by
 * the library and freed with iosiap_app_transaction_free; its strings are owned by it and live until then.
 * Dates are Unix milliseconds. size is sizeof(iosiap_app_transaction_info) of the library that made it: fields
 * are only added at the end, read one added later only when size > offsetof(iosiap_app_transaction_info, field).
 */
typedef struct iosiap_app_transaction_info {
    size_t size;                           /**< sizeof(iosiap_app_transaction_info) of the library that filled it */
    const char *signed_jws;                /**< the signed App Transaction: send it to your server to verify */
    const char *environment;               /**< "Production", "Sandbox", "Xcode", "LocalTesting" (receiptType) */
    const char *bundle_id;                 /**< the app's bundle id */
    const char *app_version;               /**< the version it was signed for (applicationVersion) */
    const char *original_app_version;      /**< the version the user first got (originalApplicationVersion) */
    int64_t original_purchase_date_ms;     /**< when the user first got the app; Xcode signs year 1 (negative) */
    int64_t signed_date_ms;                /**< when the store signed it (receiptCreationDate) */
    int64_t preorder_date_ms;              /**< when the user pre-ordered the app, or 0 */
    uint64_t app_id;                       /**< the App Store id (appAppleId), or 0 (Xcode, sandbox, local) */
    uint64_t app_version_id;               /**< the App Store's id of the version (versionExternalIdentifier), or 0 */
    const char *app_transaction_id;        /**< the app download's transaction id, or NULL */
    const char *original_platform;         /**< "iOS", "macOS", "tvOS", "visionOS", or NULL */
    const char *device_verification;       /**< base64, or NULL */
    const char *device_verification_nonce; /**< UUID text, or NULL */
} iosiap_app_transaction_info;

/**
 * Gets the store's App Transaction into *out (to be freed with iosiap_app_transaction_free; NULL on failure).
 * It blocks the calling thread until the store answers: StoreKit may reach the App Store (and ask the user to
 * sign in) the first time, so call it from a loading screen or a thread of your own, not every frame, and
 * never from the store's callback. A record StoreKit could not verify is an IOSIAP_E_VERIFY_* status, not a
 * record. The local store signs one with its chain: its bundle id and environment, an id and an original
 * purchase date made once per state directory, and original_app_version "1.0" until
 * iosiap_local_set_original_app_version (or `iosiap-store app-version`) sets it.
 */
int iosiap_app_transaction(iosiap_app_transaction_info **out, iosiap_store *store);
/** Frees what iosiap_app_transaction made. NULL does nothing. */
void iosiap_app_transaction_free(iosiap_app_transaction_info *app_transaction);
/** Local store: the app version the user first got, signed from now on, kept in the state directory;
    app_version is the current one (NULL: the same). Each 1 to 64 bytes of UTF-8. */
int iosiap_local_set_original_app_version(iosiap_store *store, const char *original_app_version,
                                          const char *app_version);

/* ---- What the store knows about the user (since 0.4) ----------------------------------------------- */

/*
 * Each call here asks the store and blocks the calling thread until it answers. StoreKit may reach the App Store
 * over the network first, so call them from a loading screen or a thread of your own, not every frame; asked from
 * the store's callback, they hold up the events after it until they answer. The local store answers at once.
 * Nothing they return is an event: a transaction they show is not delivered again and needs no finish.
 */

/** The user's App Store country: *out_storefront is ISO 3166-1 alpha-3 text (e.g. "USA"), to be freed with
    iosiap_string_free (NULL on failure). StoreKit: Storefront.current; IOSIAP_E_STORE_UNREACHABLE when it is
    not known. */
int iosiap_storefront(char **out_storefront, iosiap_store *store);

/** A subscription's renewal state (StoreKit: Product.SubscriptionInfo.RenewalState). */
typedef enum iosiap_subscription_state {
    IOSIAP_SUBSCRIPTION_SUBSCRIBED = 1,    /**< active */
    IOSIAP_SUBSCRIPTION_EXPIRED = 2,       /**< ended */
    IOSIAP_SUBSCRIPTION_IN_BILLING_RETRY = 3, /**< a renewal could not be charged; not active */
    IOSIAP_SUBSCRIPTION_IN_GRACE_PERIOD = 4, /**< a renewal could not be charged; active until the grace ends */
    IOSIAP_SUBSCRIPTION_REVOKED = 5        /**< refunded, or its Family Sharing ended */
} iosiap_subscription_state;

/** Why a subscription expired (the renewal info's expirationIntent; StoreKit: RenewalInfo.ExpirationReason). */
typedef enum iosiap_expiration_reason {
    IOSIAP_EXPIRATION_NONE = 0,            /**< not expired */
    IOSIAP_EXPIRATION_AUTO_RENEW_DISABLED = 1, /**< the user turned auto-renew off */
    IOSIAP_EXPIRATION_BILLING_ERROR = 2,   /**< the renewal could not be charged */
    IOSIAP_EXPIRATION_PRICE_INCREASE_DECLINED = 3, /**< the user did not accept a price increase */
    IOSIAP_EXPIRATION_PRODUCT_UNAVAILABLE = 4, /**< the product was no longer sold at renewal */
    IOSIAP_EXPIRATION_UNKNOWN = 5          /**< another reason */
} iosiap_expiration_reason;

/**
 * Where a subscription group stands for the user, with its renewal info (StoreKit: Product.SubscriptionInfo.Status).
 * Made by the library and freed with iosiap_subscription_status_free; everything it points to is owned by it
 * and lives until then. size is sizeof(iosiap_subscription_status_info) of the library that made it: fields are
 * only added at the end, read one added later only when size > offsetof(iosiap_subscription_status_info, field).
 */
typedef struct iosiap_subscription_status_info {
    size_t size;                           /**< sizeof(iosiap_subscription_status_info) of the library that filled it */
    int state;                             /**< iosiap_subscription_state */
    const iosiap_transaction *transaction; /**< the subscription's latest transaction */
    int will_auto_renew;                   /**< 1 if it renews at the end of the period */
    const char *auto_renew_product_id;     /**< what it renews into (another level after a downgrade) */
    int expiration_reason;                 /**< iosiap_expiration_reason, 0 while it has not expired */
    int is_in_billing_retry;               /**< 1 while the App Store retries a renewal's payment (grace period too) */
    int64_t grace_period_expiration_date_ms; /**< IN_GRACE_PERIOD: when the grace ends (Unix ms); else 0 */
    const char *signed_renewal_info;       /**< the signed renewal info (JWS) for your server, or NULL */
} iosiap_subscription_status_info;

/**
 * Gets where subscription group group_id stands into *out (to be freed with iosiap_subscription_status_free).
 * A user who never subscribed in the group: IOSIAP_OK with *out NULL. With Family Sharing there may be
 * several (the user's own subscription and a family member's); the one that entitles the user most is given.
 * Blocks (see above). A group's id: a product's iosiap_product_subscription_group. The local store refuses a
 * group its catalog does not have with IOSIAP_E_INVALID_ARGUMENT, as iosiap_is_eligible_for_intro_offer does, so
 * a typo never reads as "never subscribed". The StoreKit backend checks no group: when StoreKit reports no
 * status for group_id, known or not, it answers IOSIAP_OK with *out NULL.
 */
int iosiap_subscription_status(iosiap_subscription_status_info **out, iosiap_store *store, const char *group_id);
/** Frees what iosiap_subscription_status made. NULL does nothing. */
void iosiap_subscription_status_free(iosiap_subscription_status_info *status);

/**
 * *out_eligible = 1 if a payment for a subscription of group_id would get its introductory offer now (once per
 * group: a user who never subscribed in it), else 0; for a product, pass its iosiap_product_subscription_group.
 * StoreKit: Product.SubscriptionInfo.isEligibleForIntroOffer(for:), whose answer the StoreKit backend passes on
 * for any group_id, known or not. The local store answers as it charges, and refuses a group its catalog does not
 * have with IOSIAP_E_INVALID_ARGUMENT. Blocks (see above).
 */
int iosiap_is_eligible_for_intro_offer(int *out_eligible, iosiap_store *store, const char *group_id);

/**
 * Calls `visit` (on the calling thread, before returning) for each of the user's transactions, oldest first:
 * refunded, revoked, expired and finished ones too, e.g. for a purchase history screen (StoreKit:
 * Transaction.all, without those StoreKit could not verify). Returns how many there are (>= 0), or a negative
 * status; visit may be NULL to count only. Blocks (see above).
 */
int iosiap_transaction_history(iosiap_store *store, iosiap_transaction_callback visit, void *user_data);

/* ---- Verification for a game's backend ------------------------------------------------------------ */

/**
 * Verifies a signed transaction (a JWS) by Apple's algorithm: trusted_root_der (NULL: Apple Root CA - G3),
 * bundle_id, environment ("Production", "Sandbox", "Xcode"; NULL: "Production"). On success
 * *out_payload_json is the decoded payload as JSON, to be freed with iosiap_string_free; on failure the
 * status says which step failed and iosiap_last_error_message() why. Returning from main while threads call
 * it: see iosiap_store_close.
 */
int iosiap_verify_transaction(char **out_payload_json, const char *jws, const uint8_t *trusted_root_der,
                              size_t trusted_root_der_length, const char *bundle_id, const char *environment);

/** Frees a string the library returned for the caller to own. NULL does nothing. */
void iosiap_string_free(char *string);

/* ---- The grant ledger (optional) ---------------------------------------------------------------------- */

/*
 * Register what a product grants before its purchases are delivered: in iosiap_callbacks.on_open (since 0.4),
 * which runs before any event, or in poll mode right after opening, before the first poll. Its purchases are
 * then granted and finished in one journal transaction on the library's thread before their event is queued,
 * which becomes IOSIAP_EVENT_GRANTED instead of IOSIAP_EVENT_PURCHASED: do not grant or finish them yourself.
 * iosiap_poll does not wait for the disk, except for a purchase queued before the first poll and before its
 * product was registered (one redelivered at launch): it is granted as it is polled. A refund takes back its grant
 * in the commit that records it, on the library's thread; one recorded before the first poll (while the game may
 * still set its refund rule), or told again at launch, as its IOSIAP_EVENT_REVOKED is handed out, before the
 * callback, by the rule of that moment: once either way, and before the game's handler sees the balance. A
 * transaction delivered again after a crash is never granted twice. With IOSIAP_DELIVERY_THREAD,
 * register in on_open: delivery starts inside the open call, right after on_open, so once the open has returned
 * a purchase redelivered at launch may already have arrived as IOSIAP_EVENT_PURCHASED, for the game to grant.
 */

/** Each unit bought of product_id adds amount_per_unit (1...10^12) to the balance of currency. */
int iosiap_ledger_register_currency(iosiap_store *store, const char *product_id, const char *currency,
                                    int64_t amount_per_unit);
/** product_id grants the named entitlement while it entitles the user (owned; a subscription active now). */
int iosiap_ledger_register_entitlement(iosiap_store *store, const char *product_id, const char *entitlement);
/** *out_balance = the balance of currency (0 if never granted). */
int iosiap_ledger_balance(int64_t *out_balance, iosiap_store *store, const char *currency);
/** Takes amount (> 0) from the balance; IOSIAP_E_INSUFFICIENT_BALANCE, changing nothing, if it is lower. */
int iosiap_ledger_spend(iosiap_store *store, const char *currency, int64_t amount);
/** *out_entitled = 1 if a product registered with this entitlement entitles the user now, else 0. */
int iosiap_ledger_has_entitlement(int *out_entitled, iosiap_store *store, const char *entitlement);
/** deduct = 1: a refund takes back the currency its purchase granted, as far as the balance allows. */
int iosiap_ledger_set_deduct_refunds(iosiap_store *store, int deduct);

#ifdef __cplusplus
}
#endif

#endif /* IOSIAP_IOSIAP_H */
