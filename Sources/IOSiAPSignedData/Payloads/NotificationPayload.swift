/// The payload of an App Store Server Notification V2's `signedPayload`: the fields of Apple's
/// `ResponseBodyV2DecodedPayload` and of the objects it carries (App Store Server Notifications documentation;
/// the `ResponseBodyV2DecodedPayload`, `Data`, `Summary`, `ExternalPurchaseToken` and `AppData` models of
/// apple/app-store-server-library-python name the same fields), every one optional; unknown fields are
/// ignored, and notification types, subtypes and other enumerations are kept as the strings or numbers they
/// are, so that a type Apple adds later still decodes. The local store encodes it; a backend decodes it with
/// `SignedDataVerifier.verifyNotification`.
public struct NotificationPayload: Codable, Sendable, Equatable {
    /// What happened: SUBSCRIBED, DID_RENEW, REFUND, TEST, …
    public var notificationType: String?
    /// More about it, for some types: INITIAL_BUY, VOLUNTARY, SUMMARY, …
    public var subtype: String?
    public var notificationUUID: String?
    /// "2.0".
    public var version: String?
    public var signedDate: Milliseconds?
    /// The app and the signed transaction and renewal info. Apple: at most one of `data`, `summary`,
    /// `externalPurchaseToken` and `appData` is present.
    public var data: Data?
    /// What a request to extend the renewal date of every active subscriber did (RENEWAL_EXTENSION, SUMMARY).
    public var summary: Summary?
    /// An external purchase token (EXTERNAL_PURCHASE_TOKEN).
    public var externalPurchaseToken: ExternalPurchaseToken?
    /// The app and its signed App Transaction.
    public var appData: AppData?

    public init() {}

    /// Apple's `data`: the app metadata and the signed transaction and renewal info.
    public struct Data: Codable, Sendable, Equatable {
        /// The app's App Store id (absent outside Production); refused when negative.
        public var appAppleId: UInt64?
        public var bundleId: String?
        public var bundleVersion: String?
        /// "Production" or "Sandbox" (the local store: its own environment).
        public var environment: String?
        public var signedTransactionInfo: String?
        public var signedRenewalInfo: String?
        /// The subscription's status at `signedDate`: 1 active, 2 expired, 3 in billing retry, 4 in the billing
        /// grace period, 5 revoked.
        public var status: Int32?
        /// Why the customer asked for a refund (CONSUMPTION_REQUEST): UNINTENDED_PURCHASE, FULFILLMENT_ISSUE, …
        public var consumptionRequestReason: String?

        public init() {}
    }

    /// Apple's `summary`: the outcome of a completed Extend Subscription Renewal Dates for All Active
    /// Subscribers request.
    public struct Summary: Codable, Sendable, Equatable {
        public var requestIdentifier: String?
        public var environment: String?
        public var appAppleId: UInt64?
        public var bundleId: String?
        public var productId: String?
        /// The storefronts the request named (none: every storefront).
        public var storefrontCountryCodes: [String]?
        /// Subscriptions that could not be extended.
        public var failedCount: Int64?
        /// Subscriptions extended.
        public var succeededCount: Int64?

        public init() {}
    }

    /// Apple's `externalPurchaseToken`. It names no environment: Apple's libraries take an id starting with
    /// "SANDBOX" as the sandbox's, any other as Production's.
    public struct ExternalPurchaseToken: Codable, Sendable, Equatable {
        public var externalPurchaseId: String?
        public var tokenCreationDate: Milliseconds?
        public var appAppleId: UInt64?
        public var bundleId: String?
        /// The kind of a custom link token: SERVICES or ACQUISITION (this field and the next: the library's
        /// 2026 `ExternalPurchaseToken` and `TokenType`).
        public var tokenType: String?
        /// When a custom link token expires.
        public var tokenExpirationDate: Milliseconds?

        public init() {}
    }

    /// Apple's `appData`: the app and its signed App Transaction.
    public struct AppData: Codable, Sendable, Equatable {
        public var appAppleId: UInt64?
        public var bundleId: String?
        public var environment: String?
        public var signedAppTransactionInfo: String?

        public init() {}
    }
}
