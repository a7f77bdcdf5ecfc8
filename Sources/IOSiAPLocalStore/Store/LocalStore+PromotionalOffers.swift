#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// Promotional offers and introductory offer eligibility signed with the catalog's key, as the game's server would.
extension LocalStore {
    /// Signs a promotional offer with the catalog's `subscriptionOffersKeyPair`, as the game's server would
    /// with its In-App Purchase key: for QA and tests, whose server is not at hand. Stamped with the store's
    /// clock and a fresh nonce.
    public func signPromotionalOffer(productID: String, offerID: String,
                                     appAccountToken: UUID? = nil) throws(StoreError) -> SignedPromotionalOffer {
        try offers.sign(offerID, of: try catalogProduct(productID), appAccountToken: appAccountToken, at: now())
    }

    /// Signs a promotional offer as a JWS with the catalog's `subscriptionOffersKeyPair`, as the game's server
    /// would with Apple's `PromotionalOfferV2SignatureCreator`: for QA and tests (`iosiap-store sign-offer --jws`).
    /// `transactionID` (optional): any transaction of the user, or its app transaction id. Issued at the store's
    /// clock with a fresh nonce; its `iss` is a placeholder (`00000000-0000-0000-0000-000000000000`): a `.storekit`
    /// key has no issuer id.
    public func signPromotionalOfferJWS(productID: String, offerID: String, transactionID: String? = nil) throws(StoreError) -> String {
        try offers.signJWS(offerID, of: try catalogProduct(productID), transactionID: transactionID, at: now())
    }

    /// Signs whether a purchase of `productID` gets its introductory offer (`allow`), whatever the App Store's own
    /// rule says, as a JWS with the catalog's key, as the game's server would with Apple's
    /// `IntroductoryOfferEligibilitySignatureCreator`: for QA and tests (`iosiap-store sign-intro-eligibility`).
    /// `transactionID`: any transaction of the user, or its app transaction id. Issued, and its `iss` set, as
    /// `signPromotionalOfferJWS`'s.
    public func signIntroductoryOfferEligibility(productID: String, allow: Bool, transactionID: String) throws(StoreError) -> String {
        try offers.signIntroductoryOfferEligibility(allow, of: try catalogProduct(productID), transactionID: transactionID, at: now())
    }

    private func catalogProduct(_ productID: String) throws(StoreError) -> CatalogProduct {
        guard let item = catalog.product(id: productID) else {
            throw StoreError(.unknownProduct, "product '\(productID)' is not in the catalog")
        }
        return item
    }
}
