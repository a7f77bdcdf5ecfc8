#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the user is entitled to, computed from transactions (StoreKit 2: `Transaction.currentEntitlements`).
public enum Entitlements {
    /// How far in the future a passed copy's purchase date may lie and still count now whatever else runs. A copy
    /// dated further ahead waits for its date (less this) while a passed period of its subscription (its chain, or
    /// the user's own group) runs now: a change scheduled for a renewal (StoreKit may answer a downgrade with a
    /// transaction dated then) never ends the running level early. With nothing running, it counts at once: the device's
    /// clock is behind the App Store's, and a purchase just made must not wait for it.
    public static let clockSkewTolerance: TimeInterval = 300

    /// The non-consumables and non-renewing subscriptions owned, and the auto-renewable subscriptions whose
    /// period has not ended at `now`; revoked transactions are excluded. One transaction per product: the
    /// latest purchase. An auto-renewable subscription is decided by the newest transaction of its chain (its
    /// original transaction), as StoreKit's `currentEntitlements`: when that one has ended or was refunded, an older
    /// one does not keep the subscription (its copy may not say that a renewal or a change of level ended it).
    /// The user's own subscriptions in a group are one at a time ("users can subscribe to one subscription product
    /// per group at a time", App Store Connect Help): the newest copy in the group that `entitles` decides it, so
    /// an upgrade or a crossgrade that starts a new original transaction (as the local store's do) ends the level it
    /// replaced whatever the replaced copy says (StoreKit marks it `isUpgraded`: "look for another transaction that
    /// has a subscription with a higher level of service"), and a level changed at a renewal leaves only the new
    /// one. A chain's group is the one any of its copies names. Family members' subscriptions shared with the user,
    /// and chains naming no group, are decided by their chain alone: two members may each share one in a group.
    /// A transaction `entitles` refuses (one a verifier failed, or has not passed yet) entitles to nothing; as the
    /// newest of its chain it keeps the older ones of that chain from entitling too, as a StoreKit app that ignores
    /// an unverified newest transaction does, but only from its purchase date on: a copy dated in the future ends
    /// nothing before that date (a passed one, as `clockSkewTolerance` says). It ends no other
    /// chain of its group: an upgrade with a new original transaction whose check has not passed, or a forged copy
    /// of another level, leaves the level the user verifiably holds. Where an upgrade keeps its original
    /// transaction, its copy is the newest of that one chain and decides it, pending check or not.
    public static func current(from transactions: [StoreTransaction], at now: Date,
                               entitles: (StoreTransaction) -> Bool = { _ in true }) -> [StoreTransaction] {
        var groupOfChain: [Chain: String] = [:]
        // Named by a copy that entitles only: a forged copy must not move a chain into another group.
        for transaction in transactions where transaction.productType == .autoRenewable && entitles(transaction) {
            if let group = transaction.subscriptionGroupID { groupOfChain[Chain(transaction)] = group }
        }
        // Until when the passed periods dated up to now run, by chain and by the user's own group.
        var runsUntil: [Chain: Date] = [:]
        var ownGroupRunsUntil: [String: Date] = [:]
        for transaction in transactions where transaction.productType == .autoRenewable && !transaction.isRevoked
            && transaction.purchaseDate <= now + clockSkewTolerance && entitles(transaction) {
            let chain = Chain(transaction)
            let end = max(transaction.expirationDate ?? .distantPast, transaction.gracePeriodExpirationDate ?? .distantPast)
            runsUntil[chain] = max(runsUntil[chain] ?? .distantPast, end)
            if transaction.ownershipType == .purchased, let group = groupOfChain[chain] {
                ownGroupRunsUntil[group] = max(ownGroupRunsUntil[group] ?? .distantPast, end)
            }
        }
        func waitsForItsDate(_ transaction: StoreTransaction, entitling: Bool) -> Bool {
            guard entitling else { return transaction.purchaseDate > now }
            let starts = transaction.purchaseDate - clockSkewTolerance
            guard starts > now else { return false }
            let chain = Chain(transaction)
            let group = transaction.ownershipType == .purchased ? groupOfChain[chain] : nil
            let running = max(runsUntil[chain] ?? .distantPast, group.flatMap { ownGroupRunsUntil[$0] } ?? .distantPast)
            return running > now
        }
        var newestOfChain: [Chain: StoreTransaction] = [:]
        var newestEntitlingOfOwnGroup: [String: StoreTransaction] = [:]
        for transaction in transactions where transaction.productType == .autoRenewable {
            let entitling = entitles(transaction)
            guard !waitsForItsDate(transaction, entitling: entitling) else { continue }
            let chain = Chain(transaction)
            keepNewer(transaction, in: &newestOfChain, at: chain)
            if entitling, transaction.ownershipType == .purchased, let group = groupOfChain[chain] {
                keepNewer(transaction, in: &newestEntitlingOfOwnGroup, at: group)
            }
        }
        var latestByProduct: [String: StoreTransaction] = [:]
        for transaction in transactions where entitles(transaction) && isActive(transaction, at: now) {
            if transaction.productType == .autoRenewable {
                let chain = Chain(transaction)
                guard newestOfChain[chain]?.id == transaction.id else { continue }
                if transaction.ownershipType == .purchased, let group = groupOfChain[chain],
                   newestEntitlingOfOwnGroup[group]?.id != transaction.id {
                    continue
                }
            }
            if let kept = latestByProduct[transaction.productID], kept.purchaseDate >= transaction.purchaseDate {
                continue
            }
            latestByProduct[transaction.productID] = transaction
        }
        return latestByProduct.values.sorted { ($0.purchaseDate, $0.id) < ($1.purchaseDate, $1.id) }
    }

    private static func keepNewer<Key: Hashable>(_ transaction: StoreTransaction, in newest: inout [Key: StoreTransaction],
                                                 at key: Key) {
        if let kept = newest[key], (kept.purchaseDate, kept.id) >= (transaction.purchaseDate, transaction.id) { return }
        newest[key] = transaction
    }

    /// What the transactions of one auto-renewable subscription share: who owns it and its original transaction.
    private struct Chain: Hashable {
        let ownership: OwnershipType
        let originalID: UInt64

        init(_ transaction: StoreTransaction) {
            ownership = transaction.ownershipType
            originalID = transaction.originalID
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
