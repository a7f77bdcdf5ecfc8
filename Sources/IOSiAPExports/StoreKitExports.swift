import CIOSiAP
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
#if canImport(StoreKit)
import IOSiAPStoreKit
#endif
#if IOSIAP_STOREKIT_STANDIN
import StoreKit
#endif

@c(iosiap_store_open_storekit)
public func iosiap_store_open_storekit(_ out: UnsafeMutablePointer<OpaquePointer?>?,
                                       _ options: UnsafePointer<iosiap_storekit_options>?,
                                       _ callbacks: UnsafePointer<iosiap_callbacks>?) -> CInt {
    withStatus { () throws(StoreError) in
        guard let out else { throw StoreError(.invalidArgument, "out is NULL") }
        out.pointee = nil
        guard let options else { throw StoreError(.invalidArgument, "options is NULL") }
        guard options.pointee.version == IOSIAP_STOREKIT_OPTIONS_VERSION else {
            throw StoreError(.invalidArgument, "options version \(options.pointee.version) is not supported; "
                + "this library reads version \(IOSIAP_STOREKIT_OPTIONS_VERSION) (use IOSIAP_STOREKIT_OPTIONS_INIT)")
        }
        // Everything is checked before the store opens: a refused open takes nothing.
        let gameCallbacks = try Callbacks.from(callbacks)
        let settings = options.pointee
        let usesDeliveryThread = try StoreHandle.usesDeliveryThread(settings.delivery)
        let serverVerifier = try VerificationOptions.storeKitServerVerifier(settings.verification)
        let path = try CStringInput.optional(settings.state_directory, "options.state_directory")
        #if canImport(StoreKit)
        let directory = try path.map { path throws(StoreError) in try StateDirectory(path: path) }
        #if IOSIAP_STOREKIT_STANDIN
        // The test graph's StoreKit (Tests/StoreKitStandIn) finds its App Store in the environment: without one the
        // open fails here, with its reason, not every call after it.
        try StoreKitStandIn.requireAppStore()
        #endif
        let store = try StoreKitPurchaseStore.open(api: LiveStoreKit(), stateDirectory: directory, serverVerifier: serverVerifier)
        let handle = StoreHandle(store: store, localStore: nil, callbacks: gameCallbacks, usesDeliveryThread: usesDeliveryThread)
        return handle.open(into: out)
        #else
        _ = (gameCallbacks, usesDeliveryThread, serverVerifier, path)
        throw StoreError(.unsupportedPlatform,
                         "StoreKit exists only on Apple platforms; open the local App Store with iosiap_store_open_local")
        #endif
    }
}
