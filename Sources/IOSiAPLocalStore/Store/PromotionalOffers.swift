#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPVerification

/// What the local store does with signed offers, as the App Store does: it checks the promotional offer a
/// payment carries (the older signature or the JWS form) and its introductory offer eligibility JWS against the
/// catalog's `subscriptionOffersKeyPair`, redeems each nonce once, and (for QA, whose server is not at hand)
/// signs them with that key.
struct PromotionalOffers: Sendable {
    /// The catalog's key; `nil` when the catalog has none.
    let signer: PromotionalOfferSigner?

    /// The `iss` of the JWS the local store signs. App Store Connect's issuer id names the team of the key; a
    /// `.storekit` key pair has none, so this placeholder stands for it, and any non-empty `iss` is accepted.
    static let issuerID = "00000000-0000-0000-0000-000000000000"

    private static let noKey = "the catalog has no subscriptionOffersKeyPair; generate one in Xcode (Editor > Subscription Offers Key)"

    /// The offer `offerID` of `item` signed for `appAccountToken`, stamped `date`.
    func sign(_ offerID: String, of item: CatalogProduct, appAccountToken: UUID?, at date: Date) throws(StoreError) -> SignedPromotionalOffer {
        _ = try Self.terms(offerID, of: item)
        return try requireSigner().sign(productID: item.id, offerID: offerID, appAccountToken: appAccountToken, timestamp: date)
    }

    /// The offer `offerID` of `item` signed as a JWS naming `transactionID` (if any), issued at `date`.
    func signJWS(_ offerID: String, of item: CatalogProduct, transactionID: String?, at date: Date) throws(StoreError) -> String {
        _ = try Self.terms(offerID, of: item)
        return try requireSigner().signPromotionalOfferJWS(productID: item.id, offerID: offerID, transactionID: transactionID,
                                                           issuerID: Self.issuerID, issuedAt: date)
    }

    /// Whether a purchase of `item` gets its introductory offer, signed as a JWS naming `transactionID`, issued at `date`.
    func signIntroductoryOfferEligibility(_ allow: Bool, of item: CatalogProduct, transactionID: String,
                                          at date: Date) throws(StoreError) -> String {
        guard item.subscription != nil else {
            throw StoreError(.invalidArgument, "'\(item.id)' is not an auto-renewable subscription; introductory offers apply to those only")
        }
        return try requireSigner().signIntroductoryOfferEligibilityJWS(productID: item.id, allowIntroductoryOffer: allow,
                                                                       transactionID: transactionID, issuerID: Self.issuerID, issuedAt: date)
    }

    private func requireSigner() throws(StoreError) -> PromotionalOfferSigner {
        guard let signer else { throw StoreError(.wrongState, Self.noKey) }
        return signer
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

    /// The same for an offer signed as a JWS: signed with the catalog's key, for this product and exactly the
    /// offer the payment names. Returns its terms and the claims `redeem` spends.
    func check(_ signed: PromotionalOfferJWS, for item: CatalogProduct,
               at date: Date) throws(StoreError) -> (terms: (TransactionOffer, CatalogOffer), claims: OfferJWSClaims) {
        let terms = try Self.terms(signed.offerID, of: item)
        let claims = try verify(signed.compactJWS, for: .promotionalOffer, of: item, at: date)
        guard claims.offerIdentifier == signed.offerID else {
            throw StoreError(.invalidSignature, "the promotional-offer JWS is signed for offer '\(claims.offerIdentifier ?? "")'; "
                             + "the payment redeems '\(signed.offerID)'")
        }
        return (terms, claims)
    }

    /// An introductory offer eligibility JWS checked: signed with the catalog's key, for this product.
    func checkIntroductoryOfferEligibility(_ jws: String, for item: CatalogProduct, at date: Date) throws(StoreError) -> OfferJWSClaims {
        try verify(jws, for: .introductoryOfferEligibility, of: item, at: date)
    }

    private func verify(_ jws: String, for audience: OfferJWSClaims.Audience, of item: CatalogProduct,
                        at date: Date) throws(StoreError) -> OfferJWSClaims {
        guard let signer else { throw StoreError(.invalidSignature, Self.noKey) }
        let claims = try signer.verifyJWS(jws, for: audience, at: date)
        guard claims.productID == item.id else {
            throw StoreError(.invalidSignature, "the \(audience.rawValue) JWS is signed for product '\(claims.productID)', not '\(item.id)'")
        }
        return claims
    }

    /// Redeems a checked offer: only a user who has, or had, a subscription in its group may, and each
    /// nonce once.
    func redeem(_ nonce: UUID, for item: CatalogProduct, in state: LocalStoreState, at date: Date) throws(StoreError) {
        guard let groupID = item.subscription?.groupID, try state.hasSubscribed(inGroup: groupID) else {
            throw StoreError(.ineligibleForOffer,
                             "promotional offers are for current and past subscribers; this user never subscribed in '\(item.id)''s group")
        }
        try Self.spend(nonce, in: state, at: date)
    }

    /// Redeems a checked JWS offer: its `transactionId`, if any, must be the user's, then as `redeem(_:for:in:at:)`.
    func redeem(_ claims: OfferJWSClaims, for item: CatalogProduct, in state: LocalStoreState, at date: Date) throws(StoreError) {
        if let transactionID = claims.transactionID { try Self.requireTransaction(transactionID, in: state, at: date) }
        try redeem(claims.nonce, for: item, in: state, at: date)
    }

    /// Redeems a checked introductory offer eligibility JWS (its `transactionId` the user's, its nonce unused) and
    /// returns its decision.
    func redeemIntroductoryOfferEligibility(_ claims: OfferJWSClaims, in state: LocalStoreState, at date: Date) throws(StoreError) -> Bool {
        try Self.requireTransaction(claims.transactionID ?? "", in: state, at: date)
        try Self.spend(claims.nonce, in: state, at: date)
        return claims.allowIntroductoryOffer == true
    }

    private static func spend(_ nonce: UUID, in state: LocalStoreState, at date: Date) throws(StoreError) {
        guard try state.redeemOfferNonce(nonce, at: date) else {
            throw StoreError(.invalidSignature, "the offer's nonce \(nonce.uuidString.lowercased()) was already redeemed")
        }
    }

    /// A JWS's `transactionId` names one of the user's transactions in this store, or its app transaction (made
    /// now if none was asked for yet: the caller's SQL transaction rolls it back with a refused payment).
    private static func requireTransaction(_ transactionID: String, in state: LocalStoreState, at date: Date) throws(StoreError) {
        // Digits only, as the App Store writes ids: "+5" or "005" name no transaction.
        if transactionID.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), !transactionID.hasPrefix("0"),
           let id = UInt64(transactionID), try state.transaction(id: id) != nil { return }
        if try LocalAppTransaction.record(in: state.database, at: date).id == transactionID { return }
        throw StoreError(.invalidSignature, "the JWS's transactionId '\(transactionID)' is neither a transaction of this user "
                         + "nor its app transaction id")
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
