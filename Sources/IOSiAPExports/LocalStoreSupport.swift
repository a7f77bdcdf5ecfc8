import IOSiAPCore
#if IOSIAP_LOCAL_STORE
import IOSiAPLocalStore
#endif

// Whether this library has the local App Store. IOSIAP_LOCAL_STORE is set by Package.swift on the platforms
// where OpenSSL exists and the local store, the signer and on-device verification are built (Linux, macOS),
// with the same condition that makes IOSiAPLocalStore and IOSiAPVerification dependencies of this module.
// On iOS, tvOS and visionOS the functions that need them (iosiap_store_open_local, iosiap_local_*,
// iosiap_verify_transaction) come from UnavailableExports.swift and answer IOSIAP_E_UNSUPPORTED_PLATFORM:
// one header and one symbol set everywhere (scripts/check-apple-graph.sh compares them).
enum LocalStoreSupport {
    #if IOSIAP_LOCAL_STORE
    /// The local App Store behind a handle opened by `iosiap_store_open_local`.
    typealias Store = LocalStore
    #else
    /// No value: on this platform no handle holds a local store.
    enum Store: Sendable {}
    #endif

    /// The error of a function that needs what this platform's library is built without.
    static func unavailable(_ function: String) -> StoreError {
        StoreError(.unavailableOnPlatform, "\(function) needs the local App Store or OpenSSL, which this platform's "
            + "library is built without (they exist on Linux and macOS); open the store with iosiap_store_open_storekit")
    }
}
