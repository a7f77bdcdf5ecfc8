import CIOSiAP
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import IOSiAPCore
#if IOSIAP_LOCAL_STORE
import IOSiAPLocalStore
#endif

// The App Transaction in C: PurchaseStore.appTransaction(), waited for on the calling thread (the C call
// returns the record itself), copied into one library-made iosiap_app_transaction_info the caller frees.

@c(iosiap_app_transaction)
public func iosiap_app_transaction(_ out: UnsafeMutablePointer<UnsafeMutablePointer<iosiap_app_transaction_info>?>?,
                                   _ store: OpaquePointer?) -> CInt {
    withStatus { () throws(StoreError) in
        guard let out else { throw StoreError(.invalidArgument, "out is NULL") }
        out.pointee = nil
        let purchaseStore = try HandleRegistry.handle(store).store
        let appTransaction = try waitFor { () async throws(StoreError) in try await purchaseStore.appTransaction() }
        out.pointee = AppTransactionCopy.make(appTransaction)
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_app_transaction_free)
public func iosiap_app_transaction_free(_ appTransaction: UnsafeMutablePointer<iosiap_app_transaction_info>?) {
    AppTransactionCopy.free(appTransaction)
}

#if IOSIAP_LOCAL_STORE
@c(iosiap_local_set_original_app_version)
public func iosiap_local_set_original_app_version(_ store: OpaquePointer?, _ originalAppVersion: UnsafePointer<CChar>?,
                                                  _ appVersion: UnsafePointer<CChar>?) -> CInt {
    withStatus { () throws(StoreError) in
        guard let local = try HandleRegistry.handle(store).localStore else {
            throw StoreError(.wrongState, "this store is not a local store: its controls do not apply")
        }
        try local.setOriginalAppVersion(try CStringInput.required(originalAppVersion, "original_app_version", maximumLength: 64),
                                        appVersion: try CStringInput.optional(appVersion, "app_version", maximumLength: 64))
        return IOSIAP_OK.rawValue
    }
}
#else
@c(iosiap_local_set_original_app_version)
public func iosiap_local_set_original_app_version(_ store: OpaquePointer?, _ originalAppVersion: UnsafePointer<CChar>?,
                                                  _ appVersion: UnsafePointer<CChar>?) -> CInt {
    withStatus { () throws(StoreError) in throw LocalStoreSupport.unavailable("iosiap_local_set_original_app_version") }
}
#endif

/// The C copy of an App Transaction: the struct and its strings, each allocated on its own and freed together.
private enum AppTransactionCopy {
    static func make(_ app: StoreAppTransaction) -> UnsafeMutablePointer<iosiap_app_transaction_info> {
        func copy(_ text: String?) -> UnsafePointer<CChar>? { text.map { UnsafePointer(strdup($0)!) } }
        func milliseconds(_ date: Date?) -> Int64 {
            // Dates come from signed payloads, already within year 0...9999: this never clamps in practice.
            guard let date else { return 0 }
            return Int64(max(min((date.timeIntervalSince1970 * 1000).rounded(.down), 9e15), -9e15))
        }
        let pointer = UnsafeMutablePointer<iosiap_app_transaction_info>.allocate(capacity: 1)
        pointer.initialize(to: iosiap_app_transaction_info(
            size: MemoryLayout<iosiap_app_transaction_info>.size, signed_jws: copy(app.signedJWS),
            environment: copy(app.environment.rawValue), bundle_id: copy(app.bundleID), app_version: copy(app.appVersion),
            original_app_version: copy(app.originalAppVersion),
            original_purchase_date_ms: milliseconds(app.originalPurchaseDate), signed_date_ms: milliseconds(app.signedDate),
            preorder_date_ms: milliseconds(app.preorderDate), app_id: app.appID ?? 0, app_version_id: app.appVersionID ?? 0,
            app_transaction_id: copy(app.appTransactionID), original_platform: copy(app.originalPlatform),
            device_verification: copy(app.deviceVerification),
            device_verification_nonce: copy(app.deviceVerificationNonce?.uuidString.lowercased())))
        return pointer
    }

    static func free(_ pointer: UnsafeMutablePointer<iosiap_app_transaction_info>?) {
        guard let pointer else { return }
        let app = pointer.pointee
        for text in [app.signed_jws, app.environment, app.bundle_id, app.app_version, app.original_app_version,
                     app.app_transaction_id, app.original_platform, app.device_verification, app.device_verification_nonce] {
            releaseCString(text)
        }
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}

/// Frees a string `strdup` made (a plain `free` inside `AppTransactionCopy.free` would name that function).
private func releaseCString(_ text: UnsafePointer<CChar>?) {
    free(UnsafeMutablePointer(mutating: text))
}
