#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// Purchase intents: a purchase started in the App Store, outside the game.
extension LocalStore {
    /// Starts a purchase in the "App Store", outside the game (StoreKit: a `PurchaseIntent` from a promoted
    /// in-app purchase): the game running on this state directory receives `purchaseIntent` and decides to
    /// pay for it now, later or not at all. Nothing is charged until it does.
    ///
    /// `offerID` names a win-back offer of subscription `productID` the user redeems in the App Store: the
    /// event carries it (StoreKit: `PurchaseIntent.offer`, which Apple documents as set for a win-back offer).
    /// The App Store offers it to lapsed subscribers only, so an offer the catalog lacks is refused with
    /// `invalidOfferIdentifier`, one this user may not redeem now with `ineligibleForOffer`; nothing is stored.
    public func requestPurchaseIntent(productID: String, offerID: String? = nil) throws(StoreError) {
        guard let item = catalog.product(id: productID) else {
            throw StoreError(.unknownProduct, "product '\(productID)' is not in the catalog")
        }
        let timeRate = try currentSettings().timeRate
        try state.withLock { state throws(StoreError) in
            try state.database.transaction { () throws(StoreError) in
                let offer = try offerID.map { (id) throws(StoreError) in
                    try SubscriptionOfferRules.winBackOffer(id, of: item, catalog: catalog, in: state, timeRate: timeRate, at: now()).0
                }
                try state.addPurchaseIntent(productID, offer: offer, at: now())
            }
        }
        try advanceTime()
    }
}
