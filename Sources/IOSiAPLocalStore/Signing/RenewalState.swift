#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// How a subscription goes on after its current period: what its signed renewal info reports.
struct RenewalState: Sendable {
    /// Whether it renews (`autoRenewStatus`).
    var autoRenew = true
    /// The product it renews into, if not the current one (a downgrade waiting for the renewal).
    var renewProductID: String?
    /// Whether an upgrade replaced it (the transaction's `isUpgraded`).
    var upgraded = false
    /// Whether its last renewal failed to charge (`isInBillingRetryPeriod`).
    var inBillingRetry = false
    /// Why it ended, once it has (`expirationIntent`: 1 cancelled, 2 billing error, 4 product unavailable).
    var expirationIntent: Int32?
    /// The promotional offer redeemed while the subscription was active, for its next renewal.
    var renewOfferID: String?
    /// The offer the next renewal is charged with, and its terms (filled in by the clockwork, which knows
    /// the catalog).
    var nextOffer: (offer: TransactionOffer, terms: CatalogOffer)?
    /// What the next renewal costs: the offer's price, or the renewing product's (filled in by the clockwork).
    var renewalPrice: Decimal?
    /// The win-back offers of the subscription the lapsed user may redeem now, in catalog order
    /// (`eligibleWinBackOfferIds`; filled in by the clockwork).
    var eligibleWinBackOfferIDs: [String] = []
}
