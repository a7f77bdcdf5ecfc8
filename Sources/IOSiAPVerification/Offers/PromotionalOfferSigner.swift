#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPSignedData

/// Signs promotional offers as a developer's server does with its In-App Purchase key, and checks such
/// signatures as the App Store does (Apple: "Generating a signature for promotional offers").
///
/// The signed text is `bundleID, keyID, productID, offerID, appAccountToken, nonce, timestamp`, joined with
/// U+2063 (invisible separator); the token and nonce as lowercase UUID text, the token empty when there is
/// none, the timestamp in Unix milliseconds. The signature is ECDSA P-256 with SHA-256, DER-encoded.
public struct PromotionalOfferSigner: Sendable {
    /// The id of the key (App Store Connect's key id; a `.storekit` file's `subscriptionOffersKeyPair.id`).
    public let keyID: String
    /// The app the offers are for.
    public let bundleID: String
    let key: PrivateKey  // internal: the JWS forms (PromotionalOfferSigner+JWS.swift) sign with it too

    /// How long a signature stays good after its timestamp.
    public static let validity: TimeInterval = 24 * 60 * 60

    /// A signer with a P-256 private key in PKCS#8: a `.p8` file's PEM text, or its base64 body as a
    /// `.storekit` file keeps it. A key that is not P-256 PKCS#8 is an `invalidArgument` error.
    public init(privateKey text: String, keyID: String, bundleID: String) throws(StoreError) {
        let body = text.split(whereSeparator: \.isNewline)
            .filter { !$0.hasPrefix("-----") }
            .joined()
            .trimmingWhitespace
        guard let der = Data(base64Encoded: body), !der.isEmpty else {
            throw StoreError(.invalidArgument, "the promotional offer key is not base64 or PEM text")
        }
        let key: PrivateKey
        do {
            key = try PrivateKey(pkcs8: Array(der))
        } catch {
            throw StoreError(.invalidArgument, "the promotional offer key is not a PKCS#8 private key")
        }
        guard key.publicKey.isP256 else {
            throw StoreError(.invalidArgument, "the promotional offer key is not a P-256 key")
        }
        self.key = key
        self.keyID = keyID
        self.bundleID = bundleID
    }

    /// Signs `offerID` of `productID` for one purchase, as a server answers the game's request for it.
    public func sign(productID: String, offerID: String, appAccountToken: UUID? = nil,
                     nonce: UUID = UUID(), timestamp: Date = Date()) throws(StoreError) -> SignedPromotionalOffer {
        let milliseconds = Int64(Milliseconds(timestamp).value)
        let message = Self.message(bundleID: bundleID, keyID: keyID, productID: productID, offerID: offerID,
                                   appAccountToken: appAccountToken, nonce: nonce, timestamp: milliseconds)
        return SignedPromotionalOffer(offerID: offerID, keyID: keyID, nonce: nonce, timestamp: milliseconds,
                                      signature: Data(try key.signECDSA(message)))
    }

    /// Whether `offer`'s signature is this key's, for `productID` and `appAccountToken`. Says nothing of
    /// its age or whether its nonce was used: that is the store's to track.
    public func isSignatureValid(_ offer: SignedPromotionalOffer, productID: String, appAccountToken: UUID?) -> Bool {
        guard offer.keyID == keyID else { return false }
        let message = Self.message(bundleID: bundleID, keyID: offer.keyID, productID: productID, offerID: offer.offerID,
                                   appAccountToken: appAccountToken, nonce: offer.nonce, timestamp: offer.timestamp)
        return key.publicKey.verifyECDSA(derSignature: Array(offer.signature), message: message)
    }

    static func message(bundleID: String, keyID: String, productID: String, offerID: String,
                        appAccountToken: UUID?, nonce: UUID, timestamp: Int64) -> [UInt8] {
        let parts = [bundleID, keyID, productID, offerID, appAccountToken?.uuidString.lowercased() ?? "",
                     nonce.uuidString.lowercased(), String(timestamp)]
        return Array(parts.joined(separator: "\u{2063}").utf8)
    }
}
