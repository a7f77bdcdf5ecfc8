import CCrypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// An X.509 certificate held by OpenSSL.
///
/// `@unchecked Sendable`: immutable after creation; OpenSSL's X509 objects are safe to read from several
/// threads.
package final class X509Certificate: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Parses DER bytes; `invalidCertificate` when they are not exactly one certificate, nothing after it.
    package init(der: [UInt8]) throws(StoreError) {
        var consumed = 0
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return nil }
            var cursor: UnsafePointer<UInt8>? = start
            let certificate = d2i_X509(nil, &cursor, buffer.count)
            consumed = cursor.map { $0 - start } ?? 0
            return certificate
        }
        guard let parsed else { throw OpenSSLError.make(.verificationInvalidCertificate, "certificate is not valid DER") }
        // d2i_X509 reads one certificate and ignores what follows it: bytes after it are not that certificate.
        guard consumed == der.count else {
            X509_free(parsed)
            throw StoreError(.verificationInvalidCertificate, "certificate DER has \(der.count - consumed) bytes after its end")
        }
        self.pointer = parsed
    }

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        X509_free(pointer)
    }

    /// The DER encoding.
    package var der: [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(pointer, &output)
        guard length > 0, let output else { return [] }
        defer { iosiap_crypto_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }

    /// Whether the certificate carries an extension with this dotted OID (only presence is checked, as
    /// Apple's verifiers do for their marker OIDs).
    package func hasExtension(oid: String) -> Bool {
        guard let object = OBJ_txt2obj(oid, 1) else { return false }
        defer { ASN1_OBJECT_free(object) }
        return X509_get_ext_by_OBJ(pointer, object, -1) >= 0
    }

    /// The subject's public key.
    package func publicKey() throws(StoreError) -> PublicKey {
        guard let key = X509_get_pubkey(pointer) else {
            throw OpenSSLError.make(.verificationInvalidCertificate, "certificate has no usable public key")
        }
        return PublicKey(taking: key)
    }

    /// The time the certificate stops being valid.
    package var notAfter: Date? { Self.date(X509_get0_notAfter(pointer)) }

    /// The time the certificate starts being valid.
    package var notBefore: Date? { Self.date(X509_get0_notBefore(pointer)) }

    private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var tm = tm()
        guard ASN1_TIME_to_tm(time, &tm) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&tm)))
    }
}
