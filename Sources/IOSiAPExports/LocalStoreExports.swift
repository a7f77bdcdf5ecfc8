import CIOSiAP
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
#if IOSIAP_LOCAL_STORE
import IOSiAPLocalStore
import IOSiAPVerification

// Opening the local App Store, on the platforms that have it (LocalStoreSupport.swift); elsewhere
// UnavailableExports.swift exports the same function.

@c(iosiap_store_open_local)
public func iosiap_store_open_local(_ out: UnsafeMutablePointer<OpaquePointer?>?,
                                    _ options: UnsafePointer<iosiap_local_store_options>?,
                                    _ callbacks: UnsafePointer<iosiap_callbacks>?) -> CInt {
    withStatus { () throws(StoreError) in
        guard let out else { throw StoreError(.invalidArgument, "out is NULL") }
        out.pointee = nil
        guard let options else { throw StoreError(.invalidArgument, "options is NULL") }
        // Fields are read one by one: a version 1 struct ends before `verification`.
        let version = options.pointer(to: \.version)!.pointee
        guard (1...UInt32(IOSIAP_LOCAL_STORE_OPTIONS_VERSION)).contains(version) else {
            throw StoreError(.invalidArgument, "options version \(version) is not supported; "
                + "this library reads versions 1 to \(IOSIAP_LOCAL_STORE_OPTIONS_VERSION) (use IOSIAP_LOCAL_STORE_OPTIONS_INIT)")
        }
        let gameCallbacks = try Callbacks.from(callbacks)
        let usesDeliveryThread = try StoreHandle.usesDeliveryThread(options.pointer(to: \.delivery)!.pointee)
        let catalogPath = try CStringInput.required(options.pointer(to: \.catalog_path)!.pointee, "options.catalog_path")
        let statePath = try CStringInput.required(options.pointer(to: \.state_directory)!.pointee, "options.state_directory")
        let bundleID = try CStringInput.optional(options.pointer(to: \.bundle_id)!.pointee, "options.bundle_id") ?? "com.example.game"
        let locale = try CStringInput.optional(options.pointer(to: \.locale)!.pointee, "options.locale")
        let storefront = try CStringInput.optional(options.pointer(to: \.storefront)!.pointee, "options.storefront")
        let verification = version >= 2 ? options.pointer(to: \.verification)!.pointee : nil

        let directory = try StateDirectory(path: statePath)
        let catalog = try Catalog.load(contentsOf: URL(fileURLWithPath: catalogPath))
        let opened = try LocalPurchaseStore.open(catalog: catalog, stateDirectory: directory, bundleID: bundleID,
                                                 locale: locale, storefront: storefront) { localStore throws(StoreError) in
            try VerificationOptions.verifier(verification, localStore: localStore)
        }
        let handle = StoreHandle(store: opened.store, localStore: opened.localStore, callbacks: gameCallbacks,
                                 usesDeliveryThread: usesDeliveryThread)
        return handle.open(into: out)
    }
}

extension VerificationOptions {
    /// The verifier of a local store: none, on-device (OpenSSL), or the server's.
    static func verifier(_ options: UnsafePointer<iosiap_verification_options>?,
                         localStore: LocalStore) throws(StoreError) -> (any TransactionVerifier)? {
        guard let options, let mode = try mode(options) else { return nil }
        let settings = options.pointee
        switch mode {
        case IOSIAP_VERIFY_ON_DEVICE:
            let root = try rootCertificate(settings) ?? localStore.signingRootCertificate
            return OnDeviceVerifier(try SignedDataVerifier(trustedRoots: [root], bundleID: localStore.bundleID,
                                                           environment: localStore.environment))
        case IOSIAP_VERIFY_SERVER:
            return try serverVerifier(settings)
        default:
            return nil
        }
    }

    static func rootCertificate(_ settings: iosiap_verification_options) throws(StoreError) -> [UInt8]? {
        guard let bytes = settings.trusted_root_der else { return nil }
        guard settings.trusted_root_der_length > 0, settings.trusted_root_der_length <= 64 * 1024 else {
            throw StoreError(.invalidArgument, "verification.trusted_root_der_length must be 1 to 65536")
        }
        return Array(UnsafeBufferPointer(start: bytes, count: settings.trusted_root_der_length))
    }
}
#endif
