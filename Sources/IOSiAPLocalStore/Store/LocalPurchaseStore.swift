import Foundation
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
        if let storefront, Storefront(code: storefront) == nil {
            throw StoreError(.invalidArgument,
                             "unknown storefront '\(storefront)'; known: \(Storefront.knownCodes.joined(separator: ", "))")
        }
        // The directory is taken first, by opening its journal: refused, the open stops here, before the local
        // store creates or migrates its state or its signing chain. The journal is let go at once for the
        // purchase store to take for good; only another open racing this one between the two can still
        // refuse it after the local store opened.
        try Journal(directory: stateDirectory).releaseDirectory()
        let localStore = try LocalStore(catalog: catalog, stateDirectory: stateDirectory, bundleID: bundleID)
        let store: PurchaseStore
        do {
            store = try PurchaseStore(backend: localStore, stateDirectory: stateDirectory, verifier: try verifier(localStore))
        } catch {
            localStore.close()
            throw error
        }
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
