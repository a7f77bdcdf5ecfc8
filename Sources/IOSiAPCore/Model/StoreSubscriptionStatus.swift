#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where an auto-renewable subscription stands (StoreKit 2: `Product.SubscriptionInfo.Status`, with its
/// `RenewalInfo`). C: `iosiap_subscription_status_info`.
public struct StoreSubscriptionStatus: Sendable, Equatable {
    /// The renewal state (`Product.SubscriptionInfo.RenewalState`).
    public enum State: Int32, Sendable {
        case subscribed = 1
        case expired = 2
        case inBillingRetryPeriod = 3
        case inGracePeriod = 4
        case revoked = 5

        /// How much it entitles the user, 0 the most: with Family Sharing a group can have several statuses (the
        /// user's own subscription and a family member's), and the one that entitles most answers for the group.
        public var entitlementRank: Int {
            switch self {
            case .subscribed: 0
            case .inGracePeriod: 1
            case .inBillingRetryPeriod: 2
            case .expired: 3
            case .revoked: 4
            }
        }
    }

    /// Why a subscription ended or will end (`RenewalInfo.ExpirationReason`; the values of the signed renewal
    /// info's `expirationIntent`).
    public enum ExpirationReason: Int32, Sendable {
        case autoRenewDisabled = 1
        case billingError = 2
        case didNotConsentToPriceIncrease = 3
        case productUnavailable = 4
        case unknown = 5
    }

    /// The state.
    public let state: State
    /// The subscription's latest transaction.
    public let transaction: StoreTransaction
    /// Whether it renews at the end of the period.
    public let willAutoRenew: Bool
    /// The product it renews into (another level after a downgrade).
    public let autoRenewProductID: String
    /// Why it expired, once it has (`RenewalInfo.expirationReason`); `nil` while it renews.
    public let expirationReason: ExpirationReason?
    /// Whether the App Store is still trying to charge a renewal (`RenewalInfo.isInBillingRetry`), in a grace
    /// period too.
    public let isInBillingRetry: Bool
    /// Until when a grace period keeps it active while the App Store retries the payment
    /// (`RenewalInfo.gracePeriodExpirationDate`).
    public let gracePeriodExpirationDate: Date?
    /// The signed renewal info (a compact JWS), when the store signs it, for the game's server.
    public let signedRenewalInfo: String?

    public init(state: State, transaction: StoreTransaction, willAutoRenew: Bool, autoRenewProductID: String,
                expirationReason: ExpirationReason? = nil, isInBillingRetry: Bool = false,
                gracePeriodExpirationDate: Date? = nil, signedRenewalInfo: String? = nil) {
        self.state = state
        self.transaction = transaction
        self.willAutoRenew = willAutoRenew
        self.autoRenewProductID = autoRenewProductID
        self.expirationReason = expirationReason
        self.isInBillingRetry = isInBillingRetry
        self.gracePeriodExpirationDate = gracePeriodExpirationDate
        self.signedRenewalInfo = signedRenewalInfo
    }
}
