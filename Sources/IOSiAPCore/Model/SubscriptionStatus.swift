/// Where an auto-renewable subscription stands (StoreKit 2: `Product.SubscriptionInfo.Status`).
public struct SubscriptionStatus: Sendable, Equatable {
    /// The renewal state (`Product.SubscriptionInfo.RenewalState`).
    public enum State: Int32, Sendable {
        case subscribed = 1
        case expired = 2
        case inBillingRetryPeriod = 3
        case inGracePeriod = 4
        case revoked = 5
    }

    /// The state.
    public let state: State
    /// The subscription's latest transaction.
    public let transaction: StoreTransaction
    /// Whether it renews at the end of the period.
    public let willAutoRenew: Bool
    /// The product it renews into (another level after a downgrade).
    public let autoRenewProductID: String

    public init(state: State, transaction: StoreTransaction, willAutoRenew: Bool, autoRenewProductID: String) {
        self.state = state
        self.transaction = transaction
        self.willAutoRenew = willAutoRenew
        self.autoRenewProductID = autoRenewProductID
    }
}
