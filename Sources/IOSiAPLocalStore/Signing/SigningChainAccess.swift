import IOSiAPCore
import IOSiAPVerification

/// The local store's signing chain for the other signers of the package: the App Store Server API's
/// notifications (IOSiAPServerAPI) are signed by the same chain as the store's transactions.
package enum LocalStoreSigningChain {
    /// The chain kept in `signing/` in `directory` (created there on first use, as the store does).
    package static func load(in directory: StateDirectory) throws(StoreError) -> SigningChain {
        try SigningChainFiles.loadOrCreate(in: directory)
    }
}
