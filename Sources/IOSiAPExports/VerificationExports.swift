import CIOSiAP
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import IOSiAPCore
#if IOSIAP_LOCAL_STORE
import IOSiAPVerification

// Apple's verification algorithm needs OpenSSL: only where the local store is built (LocalStoreSupport.swift);
// elsewhere UnavailableExports.swift exports the same function.
@c(iosiap_verify_transaction)
public func iosiap_verify_transaction(_ outPayloadJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                                      _ jws: UnsafePointer<CChar>?, _ trustedRootDER: UnsafePointer<UInt8>?,
                                      _ trustedRootDERLength: UInt, _ bundleID: UnsafePointer<CChar>?,
                                      _ environment: UnsafePointer<CChar>?) -> CInt {
    withStatus { () throws(StoreError) in
        guard let outPayloadJSON else { throw StoreError(.invalidArgument, "out_payload_json is NULL") }
        outPayloadJSON.pointee = nil
        let text = try CStringInput.required(jws, "jws", maximumLength: CompactJWS.maximumLength)
        let bundle = try CStringInput.required(bundleID, "bundle_id")
        let environmentName = try CStringInput.optional(environment, "environment") ?? StoreEnvironment.production.rawValue
        guard let environment = StoreEnvironment(rawValue: environmentName) else {
            throw StoreError(.invalidArgument, "environment '\(environmentName)' is not Production, Sandbox, Xcode or LocalTesting")
        }
        var roots = [AppleRootCertificate.g3DER]
        if let trustedRootDER {
            guard trustedRootDERLength > 0, trustedRootDERLength <= 64 * 1024 else {
                throw StoreError(.invalidArgument, "trusted_root_der_length must be 1 to 65536")
            }
            roots = [Array(UnsafeBufferPointer(start: trustedRootDER, count: Int(trustedRootDERLength)))]
        }
        let payload = try SignedDataVerifier(trustedRoots: roots, bundleID: bundle, environment: environment)
            .verifyTransaction(text)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let json = try? encoder.encode(payload) else { throw StoreError(.systemError, "cannot encode the payload") }
        outPayloadJSON.pointee = strdup(String(decoding: json, as: UTF8.self))
        return IOSIAP_OK.rawValue
    }
}
#endif

@c(iosiap_string_free)
public func iosiap_string_free(_ string: UnsafeMutablePointer<CChar>?) {
    free(string)
}
