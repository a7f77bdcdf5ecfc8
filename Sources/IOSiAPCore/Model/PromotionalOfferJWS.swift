#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A promotional offer with the JWS the developer's server signed for it, as a payment redeems it (StoreKit 2,
/// iOS 26 / macOS 26 SDK: `Product.PurchaseOption.promotionalOffer(_:compactJWS:)`; C: `iosiap_payment_options`'s
/// `offer_id` with `offer_jws`).
///
/// The server signs it with its In-App Purchase key (Apple's `PromotionalOfferV2SignatureCreator`): an ES256 JWS
/// whose header names the key (`kid`) and whose claims are `bid`, `iss`, `aud` "promotional-offer", `iat`,
/// `nonce`, `productId`, `offerIdentifier` and, optionally, `transactionId` (any transaction of the user, or its
/// app transaction id). The App Store (or the local store, with the catalog's `subscriptionOffersKeyPair`) checks
/// it, accepts each nonce once, and the signature for 24 hours. It replaces `SignedPromotionalOffer`, which
/// StoreKit keeps for older SDKs.
public struct PromotionalOfferJWS: Sendable, Equatable, Codable {
    /// The offer's id in the catalog (`adHocOffers[].offerID`); the JWS's `offerIdentifier` must be the same.
    public let offerID: String
    /// The compact JWS (`header.payload.signature`) the server sent.
    public let compactJWS: String

    /// Creates a JWS-signed offer from what the server sent.
    public init(offerID: String, compactJWS: String) {
        self.offerID = offerID
        self.compactJWS = compactJWS
    }
}
