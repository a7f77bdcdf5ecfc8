#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPSignedData

/// The JWS forms of the signed requests StoreKit 26 takes (Apple: "Generating JWS to sign App Store requests";
/// Apple's server library: `PromotionalOfferV2SignatureCreator`, `IntroductoryOfferEligibilitySignatureCreator`),
/// signed with the same In-App Purchase key as the older promotional offer signature.
///
/// The JWS is ES256, its header `{alg ES256, kid, typ JWT}`, its claims `bid`, `iss`, `aud`, `iat` (seconds),
/// `nonce` (a lowercase UUID), `productId` and: for a promotional offer `offerIdentifier` and, optionally,
/// `transactionId`; for introductory offer eligibility `allowIntroductoryOffer` and `transactionId`.
extension PromotionalOfferSigner {
    /// The `iat` values read as dates: a later one is no date a server signs at (and no `Date` is made of it).
    static let latestIssuedAt: Int64 = 253_402_300_799  // 9999-12-31T23:59:59Z

    /// Signs promotional offer `offerID` of `productID`, as a server answers the game's request for it.
    /// `transactionID`: any transaction of the user, or its app transaction id (Apple recommends one).
    public func signPromotionalOfferJWS(productID: String, offerID: String, transactionID: String? = nil, issuerID: String,
                                        nonce: UUID = UUID(), issuedAt: Date = Date()) throws(StoreError) -> String {
        try signJWS(.promotionalOffer, productID: productID, issuerID: issuerID, nonce: nonce, issuedAt: issuedAt) {
            $0.offerIdentifier = offerID
            $0.transactionId = transactionID
        }
    }

    /// Signs whether a purchase of `productID` gets its introductory offer (`allowIntroductoryOffer`), whatever the
    /// App Store's own rule says. `transactionID`: any transaction of the user, or its app transaction id.
    public func signIntroductoryOfferEligibilityJWS(productID: String, allowIntroductoryOffer: Bool, transactionID: String,
                                                    issuerID: String, nonce: UUID = UUID(),
                                                    issuedAt: Date = Date()) throws(StoreError) -> String {
        try signJWS(.introductoryOfferEligibility, productID: productID, issuerID: issuerID, nonce: nonce, issuedAt: issuedAt) {
            $0.allowIntroductoryOffer = allowIntroductoryOffer
            $0.transactionId = transactionID
        }
    }

    private func signJWS(_ audience: OfferJWSClaims.Audience, productID: String, issuerID: String, nonce: UUID, issuedAt: Date,
                         _ specific: (inout OfferJWSClaims.Payload) -> Void) throws(StoreError) -> String {
        // A date no Int64 of seconds holds (not finite, or beyond ±2^63 s) is refused, never trapped on.
        guard let iat = Int64(exactly: issuedAt.timeIntervalSince1970.rounded(.down)) else {
            throw StoreError(.invalidArgument, "cannot sign a JWS issued at \(issuedAt.timeIntervalSince1970) s")
        }
        var payload = OfferJWSClaims.Payload(bid: bundleID, iss: issuerID, aud: audience.rawValue,
                                             iat: iat,
                                             nonce: nonce.uuidString.lowercased(), productId: productID)
        specific(&payload)
        let json: Data
        do { json = try JSONEncoder().encode(payload) } catch {
            throw StoreError(.systemError, "cannot encode the JWS claims: \(error)")
        }
        return try CompactJWS.sign(payload: Array(json), key: key,
                                   header: CompactJWS.Header(alg: "ES256", x5c: nil, kid: keyID, typ: "JWT"))
    }

    /// Checks `text` as the App Store checks a JWS for `audience` at `date`: ES256 signed by this key (`kid` its
    /// id), `aud` the audience, `bid` this bundle id, an `iss` (compared with nothing: a `.storekit` key has no
    /// issuer id), `iat` within `validity` of `date`, a UUID `nonce`, a `productId`, and the audience's own claims.
    /// Anything else is `invalidSignature`, naming what failed. The product, offer, transaction and nonce it names
    /// are the store's to check.
    public func verifyJWS(_ text: String, for audience: OfferJWSClaims.Audience, at date: Date) throws(StoreError) -> OfferJWSClaims {
        func refused(_ reason: String) -> StoreError {
            StoreError(.invalidSignature, "the \(audience.rawValue) JWS \(reason)")
        }
        let jws: CompactJWS
        do { jws = try CompactJWS(text) } catch { throw refused("is malformed: \(error.message)") }
        guard jws.header.alg == "ES256" else { throw refused("is signed with alg '\(jws.header.alg ?? "")'; ES256 is required") }
        guard jws.header.typ == nil || jws.header.typ == "JWT" else { throw refused("has typ '\(jws.header.typ ?? "")', not JWT") }
        guard jws.header.kid == keyID else { throw refused("names key '\(jws.header.kid ?? "")'; the key is '\(keyID)'") }
        guard key.publicKey.verifyES256(signature: jws.signature, message: jws.signingInput) else {
            throw refused("has a signature that does not verify with key '\(keyID)'")
        }
        let payload: OfferJWSClaims.Payload
        do { payload = try jws.decodedPayload() } catch { throw refused("has claims that are not the expected JSON: \(error.message)") }
        guard payload.aud == audience.rawValue else { throw refused("has aud '\(payload.aud ?? "")', not '\(audience.rawValue)'") }
        guard payload.bid == bundleID else { throw refused("is for bundle '\(payload.bid ?? "")', not '\(bundleID)'") }
        guard let issuer = payload.iss, !issuer.isEmpty else { throw refused("has no iss") }
        guard let iat = payload.iat, (0...Self.latestIssuedAt).contains(iat) else {
            throw refused("has no iat, or one that is no date: \(payload.iat.map(String.init) ?? "none")")
        }
        let age = date.timeIntervalSince1970 - Double(iat)
        guard abs(age) <= Self.validity else {
            throw refused("was signed \(Int(abs(age) / 3600)) hours " + (age > 0 ? "ago" : "ahead") + "; it is good for 24 hours")
        }
        // Apple's servers sign the nonce as lowercase UUID text: uppercase is refused, as a server bug to catch.
        guard let nonceText = payload.nonce, let nonce = UUID(uuidString: nonceText), nonceText == nonce.uuidString.lowercased() else {
            throw refused("has a nonce that is not a lowercase UUID: '\(payload.nonce ?? "")'")
        }
        guard let productID = payload.productId, !productID.isEmpty else { throw refused("names no productId") }
        if let transactionID = payload.transactionId, transactionID.isEmpty { throw refused("has an empty transactionId") }
        switch audience {
        case .promotionalOffer:
            guard let offer = payload.offerIdentifier, !offer.isEmpty else { throw refused("names no offerIdentifier") }
        case .introductoryOfferEligibility:
            guard payload.allowIntroductoryOffer != nil else { throw refused("has no allowIntroductoryOffer") }
            guard payload.transactionId != nil else { throw refused("names no transactionId") }
        }
        return OfferJWSClaims(audience: audience, issuerID: issuer, issuedAt: Date(timeIntervalSince1970: Double(iat)), nonce: nonce,
                              productID: productID, offerIdentifier: payload.offerIdentifier, transactionID: payload.transactionId,
                              allowIntroductoryOffer: payload.allowIntroductoryOffer)
    }
}
