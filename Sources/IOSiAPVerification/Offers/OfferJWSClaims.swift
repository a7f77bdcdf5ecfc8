#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a JWS-signed App Store request says once checked (Apple: "Generating JWS to sign App Store requests"):
/// a promotional offer (StoreKit: `Product.PurchaseOption.promotionalOffer(_:compactJWS:)`) or an introductory
/// offer eligibility decision (`Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`).
/// `PromotionalOfferSigner.verifyJWS(_:for:at:)` makes it; what it names (the product, the offer, the
/// transaction, the nonce) is the store's to check against the purchase.
public struct OfferJWSClaims: Sendable, Equatable {
    /// What a JWS is for: its `aud` claim.
    public enum Audience: String, Sendable {
        /// A promotional offer (Apple's `PromotionalOfferV2SignatureCreator`).
        case promotionalOffer = "promotional-offer"
        /// Whether the purchase gets the introductory offer (Apple's `IntroductoryOfferEligibilitySignatureCreator`).
        case introductoryOfferEligibility = "introductory-offer-eligibility"
    }

    /// `aud`.
    public let audience: Audience
    /// `iss`: the App Store Connect issuer id of the key's team.
    public let issuerID: String
    /// `iat`, a NumericDate (whole seconds).
    public let issuedAt: Date
    /// `nonce`: each one is redeemed once.
    public let nonce: UUID
    /// `productId`: the product the purchase is of.
    public let productID: String
    /// `offerIdentifier`: the promotional offer (required for `promotionalOffer`).
    public let offerIdentifier: String?
    /// `transactionId`: any transaction of the user, or its app transaction id (optional for a promotional offer,
    /// required for introductory offer eligibility).
    public let transactionID: String?
    /// `allowIntroductoryOffer` (required for `introductoryOfferEligibility`).
    public let allowIntroductoryOffer: Bool?

    /// The JSON payload as signed: Apple's claim names. `iat` is read as a whole number, which cannot trap.
    struct Payload: Codable {
        var bid: String?
        var iss: String?
        var aud: String?
        var iat: Int64?
        var nonce: String?
        var productId: String?
        var offerIdentifier: String?
        var transactionId: String?
        var allowIntroductoryOffer: Bool?
    }
}
