#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a transaction was revoked (values of the signed payload's `revocationReason`).
public enum RevocationReason: Int32, Sendable, Codable {
    case refundedForOtherReason = 0
    case refundedDueToIssue = 1
    /// The user moved to a subscription bundle that includes this subscription (StoreKit 816, iOS 27 SDK:
    /// `Transaction.RevocationReason.upgradedToBundle`, raw value 2).
    case upgradedToBundle = 2
}

/// The server environment a transaction comes from (the signed payload's `environment`).
public enum StoreEnvironment: String, Sendable, Codable {
    case production = "Production"
    case sandbox = "Sandbox"
    case xcode = "Xcode"
    case localTesting = "LocalTesting"
}

/// Whether the user bought the product, has it through Family Sharing, or through an organization.
public enum OwnershipType: String, Sendable, Codable {
    case purchased = "PURCHASED"
    case familyShared = "FAMILY_SHARED"
    /// An organization gives the user access to it (StoreKit 816, iOS 27 SDK: `Transaction.OwnershipType.assigned`;
    /// the App Store Server API's `inAppOwnershipType` "ASSIGNED"). It entitles as a purchase does.
    case assigned = "ASSIGNED"
}

/// Whether a transaction is a first purchase or a subscription renewal.
public enum TransactionReason: String, Sendable, Codable {
    case purchase = "PURCHASE"
    case renewal = "RENEWAL"
}

/// A completed purchase, as the store reports it (C: `iosiap_transaction`; StoreKit 2: `Transaction`).
///
/// A transaction stays unfinished, and is delivered again at every launch, until the game calls
/// `PurchaseStore.finish(transactionID:)` after granting what it bought.
public struct StoreTransaction: Sendable, Equatable, Codable, Identifiable {
    /// The transaction id, unique for this user and app.
    public var id: UInt64
    /// The id of the first transaction of this purchase (renewals and restores share it).
    public var originalID: UInt64
    /// The product bought.
    public var productID: String
    /// The product's type.
    public var productType: ProductType
    /// The number of units bought (1…10, above 1 for consumables only).
    public var quantity: Int
    /// When this transaction was charged.
    public var purchaseDate: Date
    /// When the original transaction was charged.
    public var originalPurchaseDate: Date
    /// When an auto-renewable subscription period ends; `nil` for other types.
    public var expirationDate: Date?
    /// Until when a subscription whose renewal payment failed stays active (a billing grace period).
    public var gracePeriodExpirationDate: Date?
    /// When the App Store refunded or revoked the transaction, if it did.
    public var revocationDate: Date?
    /// Why it was revoked.
    public var revocationReason: RevocationReason?
    /// The app account token the game passed with the payment.
    public var appAccountToken: UUID?
    /// The environment that signed the transaction.
    public var environment: StoreEnvironment
    /// The storefront (ISO 3166-1 alpha-3) the purchase was made in.
    public var storefront: String
    /// Whether the user bought it or has it through Family Sharing.
    public var ownershipType: OwnershipType
    /// Purchase or renewal.
    public var reason: TransactionReason
    /// The subscription group, for subscriptions.
    public var subscriptionGroupID: String?
    /// The signed JWS of the transaction as the store sent it, when the store signs transactions.
    public var signedJWS: String?
    /// The signed renewal info (JWS) of an auto-renewable subscription, when the store signs it.
    public var signedRenewalInfo: String?
    /// The subscription offer this transaction was charged with, if any.
    public var offer: TransactionOffer?

    /// Creates a transaction.
    public init(id: UInt64, originalID: UInt64, productID: String, productType: ProductType, quantity: Int,
                purchaseDate: Date, originalPurchaseDate: Date, expirationDate: Date? = nil,
                revocationDate: Date? = nil, revocationReason: RevocationReason? = nil,
                appAccountToken: UUID? = nil, environment: StoreEnvironment, storefront: String,
                ownershipType: OwnershipType = .purchased, reason: TransactionReason = .purchase,
                subscriptionGroupID: String? = nil, signedJWS: String? = nil, signedRenewalInfo: String? = nil,
                gracePeriodExpirationDate: Date? = nil, offer: TransactionOffer? = nil) {
        self.id = id
        self.originalID = originalID
        self.productID = productID
        self.productType = productType
        self.quantity = quantity
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expirationDate = expirationDate
        self.revocationDate = revocationDate
        self.revocationReason = revocationReason
        self.appAccountToken = appAccountToken
        self.environment = environment
        self.storefront = storefront
        self.ownershipType = ownershipType
        self.reason = reason
        self.subscriptionGroupID = subscriptionGroupID
        self.signedJWS = signedJWS
        self.signedRenewalInfo = signedRenewalInfo
        self.gracePeriodExpirationDate = gracePeriodExpirationDate
        self.offer = offer
    }

    /// Whether the App Store revoked this transaction.
    public var isRevoked: Bool { revocationDate != nil }
}
