#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPSignedData

/// A root → intermediate → leaf chain of P-256 certificates shaped like the App Store's, and the leaf's
/// key: what the local store signs transactions with, and what tests forge with.
package struct SigningChain: Sendable {
    package let root: X509Certificate
    package let intermediate: X509Certificate
    package let leaf: X509Certificate
    package let leafKey: PrivateKey

    package init(root: X509Certificate, intermediate: X509Certificate, leaf: X509Certificate, leafKey: PrivateKey) {
        self.root = root
        self.intermediate = intermediate
        self.leaf = leaf
        self.leafKey = leafKey
    }

    /// A new chain whose certificates are valid for `days` from `start`. `markers: false` leaves out Apple's
    /// marker extensions (only tests want that).
    package static func create(name: String = "IOSiAP Local App Store", from start: Date = Date().addingTimeInterval(-86_400),
                               days: Int = 3650, leafDays: Int? = nil, markers: Bool = true) throws(StoreError) -> SigningChain {
        let rootKey = try PrivateKey()
        let intermediateKey = try PrivateKey()
        let leafKey = try PrivateKey()
        let root = try CertificateBuilder.issue(.root, name: "\(name) Root", key: rootKey, issuer: nil,
                                                serial: 1, validFor: days, from: start)
        let intermediate = try CertificateBuilder.issue(markers ? .intermediate : .root, name: "\(name) Intermediate",
                                                        key: intermediateKey, issuer: (root, rootKey),
                                                        serial: 2, validFor: days, from: start)
        let leaf = try CertificateBuilder.issue(markers ? .leaf : .plainLeaf, name: "\(name) Signing", key: leafKey,
                                                issuer: (intermediate, intermediateKey), serial: 3,
                                                validFor: leafDays ?? days, from: start)
        return SigningChain(root: root, intermediate: intermediate, leaf: leaf, leafKey: leafKey)
    }

    /// The `x5c` of a JWS signed by this chain: leaf, intermediate, root.
    package var x5c: [[UInt8]] { [leaf.der, intermediate.der, root.der] }

    /// Signs `payload` as a compact ES256 JWS carrying this chain.
    package func sign(_ payload: [UInt8]) throws(StoreError) -> String {
        try CompactJWS.sign(payload: payload, key: leafKey, x5c: x5c)
    }

    /// Signs the JSON encoding of `payload`.
    package func sign<Payload: Encodable>(json payload: Payload) throws(StoreError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return try sign(Array(encoder.encode(payload)))
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.systemError, "cannot encode a signed payload: \(error)")
        }
    }
}
