#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// Family Sharing: a family member's purchase shared with the user, and the end of that sharing.
extension LocalStore {
    /// A family member buys `productID` and shares it with this user (StoreKit: a transaction whose
    /// `ownershipType` is `familyShared`, delivered through `Transaction.updates`): it reaches the game as a
    /// `purchased` event without a request, owned `FAMILY_SHARED` (in its signed payload too), and entitles the
    /// user. Only for a product whose catalog entry is `familyShareable` (`invalidArgument` otherwise), and not
    /// while the user owns it already (`wrongState`). A shared subscription renews as the family member's does,
    /// each renewal shared, without this user's offers. `iosiap-store buy --family`.
    @discardableResult
    public func buyFamilySharedProduct(_ productID: String) throws(StoreError) -> StoreTransaction {
        let settings = try currentSettings()
        guard let item = catalog.product(id: productID) else {
            throw StoreError(.unknownProduct, "product '\(productID)' is not in the catalog")
        }
        guard item.familyShareable else {
            throw StoreError(.invalidArgument, "'\(productID)' is not family-shareable (familyShareable is false in the catalog): "
                             + "a family member cannot share it")
        }
        let purchaseDate = now()
        let transaction = try state.withLock { state throws(StoreError) in
            try state.database.transaction { () throws(StoreError) in
                if let owned = try state.ownedTransactions(at: purchaseDate).first(where: {
                    $0.productID == productID || ($0.subscriptionGroupID != nil && $0.subscriptionGroupID == item.subscription?.groupID)
                }) {
                    throw StoreError(.wrongState, "this user has '\(owned.productID)' already (transaction \(owned.id)): "
                                     + "a family member's purchase would add nothing")
                }
                let shared = try state.insert(.init(
                    productID: item.id, productType: item.type, quantity: 1, purchaseDate: purchaseDate,
                    expirationDate: item.subscription.map { settings.timeRate.end(of: $0.period, from: purchaseDate) },
                    storefront: settings.storefront.code, reason: .purchase, subscriptionGroupID: item.subscription?.groupID,
                    ownershipType: .familyShared))
                return try sign(shared, settings, in: state)
            }
        }
        updateSink.yield(.purchased(transaction))
        return transaction
    }

    /// The family member stops sharing, or this user leaves the family: the shared purchase is revoked now
    /// (revocation reason 0, as Apple sets it then; for a subscription, its newest transaction, so it renews no
    /// more) and the game receives `revoked`, at its next launch if it is not running. `wrongState` for a
    /// transaction the user bought or whose sharing already ended. `iosiap-store stop-family-sharing`.
    @discardableResult
    public func stopFamilySharing(transactionID: UInt64) throws(StoreError) -> StoreTransaction {
        let newest = try state.withLock { state throws(StoreError) -> UInt64 in
            guard let transaction = try state.transaction(id: transactionID) else {
                throw StoreError(.unknownTransaction, "the local store has no transaction \(transactionID)")
            }
            guard transaction.ownershipType == .familyShared else {
                throw StoreError(.wrongState, "transaction \(transactionID) was bought by this user, not shared by a family member: "
                                 + "refund it instead")
            }
            let newest = try state.allTransactions().last { $0.originalID == transaction.originalID } ?? transaction
            guard !newest.isRevoked else {
                throw StoreError(.wrongState, "the family sharing of transaction \(transactionID) has already ended")
            }
            return newest.id
        }
        return try refund(newest, reason: .refundedForOtherReason) { _ throws(StoreError) in }
    }
}
