#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPVerification

/// The verifier of this store's signed data: the root it signs with, and a verifier that trusts it.
extension LocalStore {
    /// The root certificate (DER) of the chain this store signs with: what a verifier of its transactions
    /// trusts. Also in `signing/root.der` in the state directory.
    public var signingRootCertificate: [UInt8] { signer.chain.root.der }

    /// A verifier of this store's signed transactions: trusts its root, its bundle id and environment.
    public func makeVerifier() throws(StoreError) -> SignedDataVerifier {
        try SignedDataVerifier(trustedRoots: [signingRootCertificate], bundleID: bundleID, environment: environment)
    }
}
