#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A promotional offer with the signature the developer's server made for it, as a payment redeems it
/// (StoreKit 2: `Product.PurchaseOption.promotionalOffer(offerID:keyID:nonce:signature:timestamp:)`).
///
/// The server signs `bundleID, keyID, productID, offerID, appAccountToken, nonce, timestamp` with its
/// In-App Purchase key; the App Store (or the local store, with the catalog's `subscriptionOffersKeyPair`)
/// checks the signature, accepts each nonce once, and the signature for 24 hours.
public struct SignedPromotionalOffer: Sendable, Equatable, Codable {
    /// The offer's id in the catalog (`adHocOffers[].offerID`).
    public let offerID: String
    /// The id of the key that signed it.
    public let keyID: String
    /// A one-time value the server chose.
    public let nonce: UUID
    /// When the server signed it, in Unix milliseconds.
    public let timestamp: Int64
    /// The ECDSA P-256 / SHA-256 signature, DER-encoded (the server usually sends it as base64).
    public let signature: Data

    /// Creates a signed offer from what the server sent.
    public init(offerID: String, keyID: String, nonce: UUID, timestamp: Int64, signature: Data) {
        self.offerID = offerID
        self.keyID = keyID
        self.nonce = nonce
        self.timestamp = timestamp
        self.signature = signature
    }
}
