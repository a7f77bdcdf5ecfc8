import Foundation
import IOSiAPCore
import IOSiAPVerification

/// Checks the bearer token of an App Store Server API request as Apple specifies it ("Generating JSON Web
/// Tokens for API requests", developer.apple.com/documentation/appstoreserverapi): a JWT whose header has
/// `alg` ES256, `kid` (the key id) and `typ` JWT, and whose claims have `iss` (the issuer id), `aud`
/// "appstoreconnect-v1", `bid` (the app's bundle id), `exp` and, optionally, `iat`, signed by the key `kid`.
struct BearerTokenChecker: Sendable {
    let keys: [ServerAPIKey]
    let bundleID: String

    /// Apple refuses tokens that live longer than 60 minutes; a minute of clock skew is allowed.
    static let maximumLifetime: TimeInterval = 60 * 60
    static let clockSkew: TimeInterval = 60
    /// A token is a few hundred bytes; anything much larger is refused before it is decoded.
    static let maximumLength = 8 * 1024

    /// Nil when the header carries a valid token; otherwise why not, for the server's own log only: it names the
    /// key ids of the state directory, which a client must not learn (every refusal answers the same 401).
    func refusal(of authorization: String?, at now: Date) -> String? {
        guard let authorization else { return "no Authorization header" }
        guard authorization.utf8.count <= Self.maximumLength else { return "the token is too long" }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return "the Authorization header is not 'Bearer <JWT>'" }
        let jws: CompactJWS
        do {
            jws = try CompactJWS(String(parts[1]).trimmingCharacters(in: .whitespaces))
        } catch {
            return "the token is not a JWT"
        }
        guard jws.header.alg == "ES256" else { return "the token's alg is not ES256" }
        if let typ = jws.header.typ, typ != "JWT" { return "the token's typ is not JWT" }
        guard let kid = jws.header.kid, let key = keys.first(where: { $0.keyID == kid }) else {
            return "the token's kid names no key of this state directory (iosiap-store server-key add)"
        }
        guard key.publicKey.verifyES256(signature: jws.signature, message: jws.signingInput) else {
            return "the token's signature does not verify with key \(kid)"
        }
        // A claim of the wrong type (an array aud, a string exp) fails the whole decoding: refused.
        guard let claims = try? JSONDecoder().decode(Claims.self, from: Data(jws.payload)) else {
            return "the token's claims are not the expected JSON object"
        }
        guard claims.iss == key.issuerID else { return "the token's iss is not the issuer id of key \(kid)" }
        guard claims.aud == "appstoreconnect-v1" else { return "the token's aud is not appstoreconnect-v1" }
        guard claims.bid == bundleID else { return "the token's bid is not \(bundleID)" }
        guard let exp = claims.exp, exp.isFinite else { return "the token has no numeric exp" }
        let current = now.timeIntervalSince1970
        guard exp > current - Self.clockSkew else { return "the token has expired" }
        // Apple's Python library sends no iat; when there is one, it bounds the lifetime.
        if let issued = claims.iat {
            guard issued.isFinite, issued <= current + Self.clockSkew else { return "the token's iat is in the future" }
            guard exp - issued <= Self.maximumLifetime else { return "the token lives longer than 60 minutes" }
        }
        guard exp <= current + Self.maximumLifetime + Self.clockSkew else { return "the token expires more than 60 minutes from now" }
        return nil
    }

    /// The claims checked; NumericDates as seconds.
    private struct Claims: Decodable {
        var iss: String?
        var aud: String?
        var bid: String?
        var exp: Double?
        var iat: Double?
    }
}
