import Foundation

/// What the user is entitled to, computed from transactions (StoreKit 2: `Transaction.currentEntitlements`).
public enum Entitlements {
    /// The non-consumables and non-renewing subscriptions owned, and the auto-renewable subscriptions whose
    /// period has not ended at `now`; revoked transactions are excluded. One transaction per product: the
    /// latest purchase.
    public static func current(from transactions: [StoreTransaction], at now: Date) -> [StoreTransaction] {
        var latestByProduct: [String: StoreTransaction] = [:]
        for transaction in transactions where isActive(transaction, at: now) {
            if let kept = latestByProduct[transaction.productID], kept.purchaseDate >= transaction.purchaseDate {
                continue
            }
            latestByProduct[transaction.productID] = transaction
        }
        return latestByProduct.values.sorted { ($0.purchaseDate, $0.id) < ($1.purchaseDate, $1.id) }
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
