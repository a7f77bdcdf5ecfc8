#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// A purchase store over StoreKit 2, opened as every caller should: StoreKit's own verdict on each
/// transaction first, then the developer's server if one is given, and the journal in the app's Application
/// Support folder unless told otherwise. C: `iosiap_store_open_storekit`.
public enum StoreKitPurchaseStore {
    /// The journal's folder when none is given: `IOSiAP` in the app's Application Support folder.
    public static func defaultStateDirectory() throws(StoreError) -> StateDirectory {
        guard let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first else {
            throw StoreError(.storageFailure, "the app has no Application Support folder")
        }
        return try StateDirectory(support.appendingPathComponent("IOSiAP", isDirectory: true))
    }

    /// Opens a purchase store over `api` (`LiveStoreKit()` on Apple platforms).
    /// - Parameters:
    ///   - stateDirectory: where the journal is kept; `nil` for `defaultStateDirectory()`.
    ///   - serverVerifier: the developer's server, asked after StoreKit's verdict passed.
    public static func open<API: StoreKitAPI>(api: API, stateDirectory: StateDirectory? = nil,
                                              serverVerifier: (any TransactionVerifier)? = nil) throws(StoreError) -> PurchaseStore {
        let directory = if let stateDirectory { stateDirectory } else { try defaultStateDirectory() }
        let backend = StoreKitBackend(api: api)
        let verifiers: [any TransactionVerifier] = [backend.verifier] + (serverVerifier.map { [$0] } ?? [])
        return try PurchaseStore(backend: backend, stateDirectory: directory, verifier: VerifierChain(verifiers))
    }
}
