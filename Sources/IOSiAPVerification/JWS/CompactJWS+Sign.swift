#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPSignedData

extension CompactJWS {
    /// Signs `payload` with `key` as ES256 with the certificate chain `x5c` (DER, leaf first).
    package static func sign(payload: [UInt8], key: PrivateKey, x5c: [[UInt8]]) throws(StoreError) -> String {
        try sign(payload: payload, key: key, header: Header(alg: "ES256", x5c: x5c.map { Data($0).base64EncodedString() }, kid: nil, typ: "JWT"))
    }

    /// Signs `payload` with `key` under `header`, whose `alg` must be ES256.
    package static func sign(payload: [UInt8], key: PrivateKey, header: Header) throws(StoreError) -> String {
        let headerJSON: Data
        do { headerJSON = try JSONEncoder().encode(header) } catch {
            throw StoreError(.systemError, "cannot encode a JWS header: \(error)")
        }
        let input = Base64URL.encode(Array(headerJSON)) + "." + Base64URL.encode(payload)
        let signature = try key.signES256(Array(input.utf8))
        return input + "." + Base64URL.encode(signature)
    }
}
