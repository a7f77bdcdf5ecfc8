import CIOSiAP
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPSignedData

/// Turns `iosiap_verification_options` into the core's verifier. The modes that need the local store or
/// OpenSSL (`verifier(_:localStore:)`) are in LocalStoreExports.swift.
enum VerificationOptions {
    /// The server verifier the options describe (mode SERVER).
    static func serverVerifier(_ settings: iosiap_verification_options) throws(StoreError) -> ServerVerifier {
        let url = try serverURL(settings.server_url, "verification.server_url")
        guard let url else { throw StoreError(.invalidArgument, "verification.server_url is NULL") }
        let sandbox = try serverURL(settings.sandbox_server_url, "verification.sandbox_server_url")
        let format: ServerVerifier.BodyFormat = settings.legacy_receipt_body != 0
            ? .legacyReceipt(password: try CStringInput.optional(settings.shared_secret, "verification.shared_secret"))
            : .signedTransaction
        guard settings.timeout_ms >= 0, settings.attempts >= 0 else {
            throw StoreError(.invalidArgument, "verification.timeout_ms and attempts must not be negative")
        }
        return ServerVerifier(url: url, sandboxURL: sandbox, format: format,
                              timeout: .milliseconds(settings.timeout_ms == 0 ? 10_000 : Int(settings.timeout_ms)),
                              attempts: settings.attempts == 0 ? 3 : Int(settings.attempts))
    }

    /// The options' mode, once their version is one this library reads; `nil` for NULL options.
    static func mode(_ options: UnsafePointer<iosiap_verification_options>?) throws(StoreError) -> iosiap_verification_mode? {
        guard let options else { return nil }
        let settings = options.pointee
        guard settings.version == IOSIAP_VERIFICATION_OPTIONS_VERSION else {
            throw StoreError(.invalidArgument, "verification options version \(settings.version) is not supported; "
                + "this library reads version \(IOSIAP_VERIFICATION_OPTIONS_VERSION) (use IOSIAP_VERIFICATION_OPTIONS_INIT)")
        }
        switch UInt32(bitPattern: settings.mode) {
        case IOSIAP_VERIFY_NONE.rawValue, IOSIAP_VERIFY_ON_DEVICE.rawValue, IOSIAP_VERIFY_SERVER.rawValue:
            return iosiap_verification_mode(rawValue: UInt32(bitPattern: settings.mode))
        default:
            throw StoreError(.invalidArgument, "verification.mode \(settings.mode) is not an iosiap_verification_mode")
        }
    }

    /// What a StoreKit store verifies with beyond StoreKit's own verdict: nothing (NULL, NONE, ON_DEVICE),
    /// or the server (SERVER).
    static func storeKitServerVerifier(_ options: UnsafePointer<iosiap_verification_options>?) throws(StoreError) -> ServerVerifier? {
        guard let options, try mode(options) == IOSIAP_VERIFY_SERVER else { return nil }
        return try serverVerifier(options.pointee)
    }

    private static func serverURL(_ text: UnsafePointer<CChar>?, _ name: String) throws(StoreError) -> URL? {
        guard let string = try CStringInput.optional(text, name) else { return nil }
        guard let url = URL(string: string), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else {
            throw StoreError(.invalidArgument, "\(name) '\(string)' is not an http or https URL")
        }
        return url
    }
}
