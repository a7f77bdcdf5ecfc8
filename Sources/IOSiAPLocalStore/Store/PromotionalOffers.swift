import Foundation
import IOSiAPCore
import IOSiAPVerification

/// What the local store does with promotional offers, as the App Store does: it checks the offer a payment
/// carries against the catalog's `subscriptionOffersKeyPair`, redeems each signature once, and (for QA,
/// whose server is not at hand) signs offers with that key.
struct PromotionalOffers: Sendable {
    /// The catalog's key; `nil` when the catalog has none.
    let signer: PromotionalOfferSigner?

    private static let noKey = "the catalog has no subscriptionOffersKeyPair; generate one in Xcode (Editor > Subscription Offers Key)"

    /// The offer `offerID` of `item` signed for `appAccountToken`, stamped `date`.
    func sign(_ offerID: String, of item: CatalogProduct, appAccountToken: UUID?, at date: Date) throws(StoreError) -> SignedPromotionalOffer {
        _ = try Self.terms(offerID, of: item)
        guard let signer else { throw StoreError(.wrongState, Self.noKey) }
        return try signer.sign(productID: item.id, offerID: offerID, appAccountToken: appAccountToken, timestamp: date)
    }

    /// What the App Store checks before the purchase sheet: an offer of the product, signed with the
    /// catalog's key for this product and account token, within 24 hours of `date`. Returns its terms.
    func check(_ signed: SignedPromotionalOffer, for item: CatalogProduct, appAccountToken: UUID?,
               at date: Date) throws(StoreError) -> (TransactionOffer, CatalogOffer) {
        let terms = try Self.terms(signed.offerID, of: item)
        guard let signer else { throw StoreError(.invalidSignature, Self.noKey) }
        guard signed.keyID == signer.keyID else {
            throw StoreError(.invalidSignature, "offer signed with key '\(signed.keyID)'; the catalog's key is '\(signer.keyID)'")
        }
        let age = date.timeIntervalSince1970 - Double(signed.timestamp) / 1000
        guard abs(age) <= PromotionalOfferSigner.validity else {
            throw StoreError(.invalidSignature, "the offer's signature is from \(Int(abs(age) / 3600)) hours "
                             + (age > 0 ? "ago" : "ahead") + "; it is good for 24 hours")
        }
        guard signer.isSignatureValid(signed, productID: item.id, appAccountToken: appAccountToken) else {
            throw StoreError(.invalidSignature, "the signature of offer '\(signed.offerID)' does not match product '\(item.id)', "
                             + "the app account token, nonce and timestamp, or was not made with the catalog's key")
        }
        return terms
    }

    /// Redeems a checked offer: only a user who has, or had, a subscription in its group may, and each
    /// signature once.
    func redeem(_ signed: SignedPromotionalOffer, for item: CatalogProduct, in state: LocalStoreState,
                at date: Date) throws(StoreError) {
        guard let groupID = item.subscription?.groupID, try state.hasSubscribed(inGroup: groupID) else {
            throw StoreError(.ineligibleForOffer,
                             "promotional offers are for current and past subscribers; this user never subscribed in '\(item.id)''s group")
        }
        guard try state.redeemOfferNonce(signed.nonce, at: date) else {
            throw StoreError(.invalidSignature, "the offer's nonce \(signed.nonce.uuidString.lowercased()) was already redeemed")
        }
    }

    /// The catalog's terms of `item`'s promotional offer `offerID`.
    static func terms(_ offerID: String, of item: CatalogProduct) throws(StoreError) -> (TransactionOffer, CatalogOffer) {
        let offer = TransactionOffer(type: .promotional, id: offerID)
        guard let terms = item.offer(offer) else {
            throw StoreError(.invalidOfferIdentifier, "'\(item.id)' has no promotional offer '\(offerID)' in the catalog")
        }
        return (offer, terms)
    }
}
