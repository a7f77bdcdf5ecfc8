import Foundation

/// What the user is entitled to, computed from transactions (StoreKit 2: `Transaction.currentEntitlements`).
public enum Entitlements {
    /// The non-consumables and non-renewing subscriptions owned, and the auto-renewable subscriptions whose
    /// period has not ended at `now`; revoked transactions are excluded. One transaction per product: the
    /// latest purchase. An auto-renewable subscription is decided by the newest transaction of its chain, as
    /// StoreKit's `currentEntitlements`: when that one has ended or was refunded, an older one does not keep the
    /// subscription (its copy may not say that a renewal or a change of level ended it), and a level changed at a
    /// renewal leaves only the new one. The user's own subscriptions in a group are one chain ("users can subscribe
    /// to one subscription product per group at a time", App Store Connect Help), so an upgrade or a crossgrade
    /// ends the level it replaced whatever the replaced copy says (StoreKit marks it `isUpgraded`: "look for another
    /// transaction that has a subscription with a higher level of service"). Family members' subscriptions shared
    /// with the user, and copies naming no group, are chained by their original transaction: two members may
    /// each share one in the same group.
    /// A transaction `entitles` refuses (one a verifier failed) entitles to nothing, and as the newest of its
    /// chain keeps the older ones from entitling too, as a StoreKit app that ignores an unverified newest
    /// transaction does, but only from its purchase date on: a copy dated in the future ends nothing before
    /// that date. One dated in the past ends the chain until a newer transaction entitles.
    public static func current(from transactions: [StoreTransaction], at now: Date,
                               entitles: (StoreTransaction) -> Bool = { _ in true }) -> [StoreTransaction] {
        var newestOfChain: [Chain: StoreTransaction] = [:]
        for transaction in transactions where transaction.productType == .autoRenewable {
            if transaction.purchaseDate > now, !entitles(transaction) { continue }
            if let kept = newestOfChain[Chain(transaction)],
               (kept.purchaseDate, kept.id) >= (transaction.purchaseDate, transaction.id) {
                continue
            }
            newestOfChain[Chain(transaction)] = transaction
        }
        var latestByProduct: [String: StoreTransaction] = [:]
        for transaction in transactions where entitles(transaction) && isActive(transaction, at: now) {
            if transaction.productType == .autoRenewable, newestOfChain[Chain(transaction)]?.id != transaction.id {
                continue
            }
            if let kept = latestByProduct[transaction.productID], kept.purchaseDate >= transaction.purchaseDate {
                continue
            }
            latestByProduct[transaction.productID] = transaction
        }
        return latestByProduct.values.sorted { ($0.purchaseDate, $0.id) < ($1.purchaseDate, $1.id) }
    }

    /// What one auto-renewable subscription's transactions share: the group of the user's own, else the original
    /// transaction.
    private enum Chain: Hashable {
        case ownGroup(String)
        case original(UInt64)

        init(_ transaction: StoreTransaction) {
            if transaction.ownershipType == .purchased, let group = transaction.subscriptionGroupID {
                self = .ownGroup(group)
            } else {
                self = .original(transaction.originalID)
            }
        }
    }

    /// Whether one transaction entitles the user at `now`.
    public static func isActive(_ transaction: StoreTransaction, at now: Date) -> Bool {
        guard !transaction.isRevoked else { return false }
        switch transaction.productType {
        case .consumable: return false
        case .nonConsumable, .nonRenewing: return true
        case .autoRenewable:
            // A billing grace period keeps a subscription whose renewal payment failed.
            let end = max(transaction.expirationDate ?? .distantPast, transaction.gracePeriodExpirationDate ?? .distantPast)
            return end > now
        }
    }
}
