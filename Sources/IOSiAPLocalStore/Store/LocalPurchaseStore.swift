#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// A purchase store on the local App Store, opened in the order that keeps a refused open from changing
/// anything: the arguments are checked, the state directory is taken (the journal's lock), and only then
/// are the local store's state and signing chain opened, the locale and storefront saved and the local
/// store's watcher started. C: `iosiap_store_open_local`.
public struct LocalPurchaseStore: Sendable {
    /// The local App Store, for its controls.
    public let localStore: LocalStore
    /// The purchase store over it.
    public let store: PurchaseStore

    /// Opens both on `stateDirectory`.
    /// - Parameters:
    ///   - locale: the locale titles and prices are shown in; `nil` for the catalog's `_locale` (an
    ///     earlier launch's choice does not persist).
    ///   - storefront: an ISO 3166-1 alpha-3 code; `nil` for the catalog's `_storefront`.
    ///   - verifier: makes the verifier from the local store (whose signing chain on-device verification
    ///     trusts); `nil` delivers transactions unchecked.
    public static func open(catalog: Catalog, stateDirectory: StateDirectory, bundleID: String = "com.example.game",
                            locale: String? = nil, storefront: String? = nil,
                            verifier: (LocalStore) throws(StoreError) -> (any TransactionVerifier)? = { _ in nil })
        throws(StoreError) -> LocalPurchaseStore {
        if let locale, locale.isEmpty { throw StoreError(.invalidArgument, "locale is empty") }
        if let storefront, AppStoreStorefront(code: storefront) == nil {
            throw StoreError(.invalidArgument, AppStoreStorefront.unknownMessage(storefront))
        }
        // The purchase store takes the directory (its journal's lock) before the local store opens: refused, the
        // open stops there, before the local store creates or migrates its state or its signing chain.
        var opened: LocalStore?
        let store = try PurchaseStore(stateDirectory: stateDirectory) { () throws(StoreError) in
            let localStore = try LocalStore(catalog: catalog, stateDirectory: stateDirectory, bundleID: bundleID)
            var madeVerifier = false
            defer { if !madeVerifier { localStore.close() } }
            let transactionVerifier = try verifier(localStore)
            madeVerifier = true
            opened = localStore
            return (localStore, transactionVerifier)
        }
        guard let localStore = opened else { preconditionFailure("the purchase store opened without making its backend") }
        do {
            try localStore.setLocaleOverride(locale)
            try localStore.setStorefrontOverride(storefront)
        } catch {
            store.close()
            throw error
        }
        return LocalPurchaseStore(localStore: localStore, store: store)
    }
}
