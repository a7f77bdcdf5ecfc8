#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// The purchases waiting for the user: Ask to Buy approved or declined, interrupted purchases resolved.
extension LocalStore {
    /// The purchases waiting for approval.
    public func pendingPurchases() throws(StoreError) -> [PendingPurchase] {
        try state.withLock { state throws(StoreError) in try state.pendingPurchases() }
    }

    /// The user resolves an interrupted purchase (SKTestSession `resolveIssueForTransaction`): it is charged
    /// and reaches the game as a `purchased` update.
    @discardableResult
    public func resolveInterruptedPurchase(_ pendingID: Int64) throws(StoreError) -> StoreTransaction {
        try completePendingPurchase(pendingID, kind: .interrupted)
    }

    /// Approves a deferred purchase: it is charged and reaches the game as a `purchased` update.
    @discardableResult
    public func approveAskToBuy(_ pendingID: Int64) throws(StoreError) -> StoreTransaction {
        try completePendingPurchase(pendingID, kind: .askToBuy)
    }

    private func completePendingPurchase(_ pendingID: Int64, kind: PendingPurchase.Kind) throws(StoreError) -> StoreTransaction {
        let settings = try currentSettings()
        let (transaction, owned) = try state.withLock { state throws(StoreError) in
            try state.database.transaction { () throws(StoreError) -> (StoreTransaction, Bool) in
                let pending = try state.removePendingPurchase(pendingID, kind: kind)
                guard let item = catalog.product(id: pending.productID) else {
                    throw StoreError(.storeProductNotAvailable, "product '\(pending.productID)' is not in the catalog")
                }
                let request = PaymentRequest(productID: pending.productID, quantity: pending.quantity,
                                             appAccountToken: pending.appAccountToken)
                // A promotional or win-back offer waited with the purchase: its id names it (ids are unique across types).
                let offer = try pending.offerID.map { (id) throws(StoreError) in
                    guard let redeemed = item.redeemedOffer(id: id) else { return try PromotionalOffers.terms(id, of: item) }
                    return redeemed
                }
                let charged = try charge(item, request, offer: offer, introductoryOfferAllowed: pending.introductoryOfferAllowed,
                                         settings, pendingID: pending.id, in: state)
                // The App Store answers a purchase of something owned with the transaction that grants it: the
                // purchase ends with that one, never as declined, also for a game in another process.
                return (charged, try state.notePendingOutcomeIfOwned(pending.id, transactionID: charged.id))
            }
        }
        // A new transaction is a purchase like any other (told once); one that granted the product already ends the
        // deferral the game was told of.
        updateSink.yield(owned ? .deferredPurchaseCompleted(transaction) : .purchased(transaction))
        return transaction
    }

    /// Declines a deferred purchase: nothing is charged and the game gets a `declined` update.
    public func declineAskToBuy(_ pendingID: Int64) throws(StoreError) {
        let pending = try state.withLock { state throws(StoreError) in try state.removePendingPurchase(pendingID, kind: .askToBuy) }
        updateSink.yield(.declined(productID: pending.productID))
    }
}
