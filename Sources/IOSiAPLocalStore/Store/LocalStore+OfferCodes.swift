#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// Offer codes: the offer code redeem sheet, and a code redeemed in the App Store.
extension LocalStore {
    /// Records the call: the local store has no sheet to show. What the user would enter there is played with
    /// `redeemOfferCode(productID:referenceName:)` (`iosiap-store redeem-code`). The Offer Code Redeem Sheet
    /// simulated error fails it, as StoreKitTest fails the sheet.
    public func presentOfferCodeRedeemSheet(uiContext: UIContext?) throws(StoreError) {
        try failIfSimulated(.offerCodeRedeem, try currentSettings())
        offerCodeSheets.withLock { $0 += 1 }
    }

    /// How many times the game asked this store for the offer code sheet.
    public var offerCodeRedeemSheetRequests: Int { offerCodeSheets.withLock { $0 } }

    /// The user redeems offer code `referenceName` of subscription `productID` in the App Store, outside the
    /// game (StoreKit: the offer code redemption sheet, or a code's URL): charged now at the offer's price, it
    /// reaches the game as a `purchased` event without a request, with offer type 3 (`offerCode`) and the
    /// reference name as offer id. A current subscriber of the same product gets it from the next renewal.
    /// Refused with `ineligibleForOffer`, charging nothing, when the code is not for this user (new, existing
    /// or expired subscribers of the group); `iosiap-store redeem-code`.
    @discardableResult
    public func redeemOfferCode(productID: String, referenceName: String) throws(StoreError) -> StoreTransaction {
        let settings = try currentSettings()
        guard let item = catalog.product(id: productID) else {
            throw StoreError(.unknownProduct, "product '\(productID)' is not in the catalog")
        }
        let transaction = try state.withLock { state throws(StoreError) in
            try state.database.transaction { () throws(StoreError) in
                // Whether the code is for this user (new, existing or lapsed subscriber) is decided after the renewals due.
                if item.subscription != nil { try clockwork.advanceSubscriptions(settings, in: state) }
                let offer = try SubscriptionOfferRules.offerCode(referenceName, of: item, in: state, at: now())
                return try charge(item, PaymentRequest(productID: productID), offer: offer, settings, in: state)
            }
        }
        updateSink.yield(.purchased(transaction))
        return transaction
    }
}
