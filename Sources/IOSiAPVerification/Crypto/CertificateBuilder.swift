import CCrypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// Issues the X.509 certificates of a signing chain shaped like the App Store's: a root, an intermediate
/// with Apple's WWDR marker extension, and a leaf with Apple's receipt-signer marker.
package enum CertificateBuilder {
    /// Apple's intermediate (WWDR) marker OID.
    package static let intermediateMarkerOID = "1.2.840.113635.100.6.2.1"
    /// Apple's leaf (receipt signer) marker OID.
    package static let leafMarkerOID = "1.2.840.113635.100.6.11.1"

    /// The role of a certificate in the chain.
    package enum Role {
        case root, intermediate, leaf
        /// A leaf without Apple's marker: for tests that a verifier refuses it.
        case plainLeaf
    }

    /// A certificate for `key`'s public half with the common name `name`, signed by `issuer` (or
    /// self-signed with `key` for a root). Strict verifiers (OpenSSL's X509_STRICT, used by Apple's Python
    /// library) need the key identifiers, so both are always set.
    package static func issue(_ role: Role, name: String, key: PrivateKey, issuer: (certificate: X509Certificate, key: PrivateKey)?,
                              serial: Int, validFor days: Int, from start: Date) throws(StoreError) -> X509Certificate {
        guard let certificate = X509_new() else { throw OpenSSLError.make(.systemError, "out of memory") }
        var handed = false
        defer { if !handed { X509_free(certificate) } }
        X509_set_version(certificate, 2)
        ASN1_INTEGER_set(X509_get_serialNumber(certificate), serial)
        guard iosiap_x509_set_validity(certificate, time_t(start.timeIntervalSince1970), Int32(days)) == 1,
              X509_set_pubkey(certificate, key.pointer) == 1, let subject = X509_NAME_new() else {
            throw OpenSSLError.make(.systemError, "cannot set the public key")
        }
        defer { X509_NAME_free(subject) }
        for (field, value) in [("C", "US"), ("O", "IOSiAP Local App Store"), ("CN", name)] {
            X509_NAME_add_entry_by_txt(subject, field, MBSTRING_UTF8, value, -1, -1, 0)
        }
        X509_set_subject_name(certificate, subject)
        X509_set_issuer_name(certificate, issuer.map { X509_get_subject_name($0.certificate.pointer) } ?? subject)

        let extensions: [(Int32, String)] = switch role {
        case .root: [(NID_basic_constraints, "critical,CA:TRUE"), (NID_key_usage, "critical,keyCertSign,cRLSign")]
        case .intermediate: [(NID_basic_constraints, "critical,CA:TRUE,pathlen:0"), (NID_key_usage, "critical,keyCertSign,cRLSign")]
        case .leaf, .plainLeaf: [(NID_basic_constraints, "critical,CA:FALSE"), (NID_key_usage, "critical,digitalSignature")]
        }
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.certificate.pointer ?? certificate, certificate, nil, nil, 0)
        for (nid, value) in extensions + [(NID_subject_key_identifier, "hash"), (NID_authority_key_identifier, "keyid:always")] {
            guard let made = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                throw OpenSSLError.make(.systemError, "cannot make extension \(value)")
            }
            X509_add_ext(certificate, made, -1)
            X509_EXTENSION_free(made)
        }
        switch role {
        case .intermediate: try addMarker(intermediateMarkerOID, to: certificate)
        case .leaf: try addMarker(leafMarkerOID, to: certificate)
        case .root, .plainLeaf: break
        }
        guard X509_sign(certificate, (issuer?.key ?? key).pointer, EVP_sha256()) > 0 else {
            throw OpenSSLError.make(.systemError, "cannot sign the certificate")
        }
        handed = true
        return X509Certificate(taking: certificate)
    }

    /// Adds a non-critical extension whose value is ASN.1 NULL, as Apple's markers are.
    private static func addMarker(_ oid: String, to certificate: OpaquePointer) throws(StoreError) {
        guard let object = OBJ_txt2obj(oid, 1), let value = ASN1_OCTET_STRING_new() else {
            throw OpenSSLError.make(.systemError, "cannot make marker \(oid)")
        }
        defer {
            ASN1_OBJECT_free(object)
            ASN1_OCTET_STRING_free(value)
        }
        let null: [UInt8] = [0x05, 0x00]
        ASN1_OCTET_STRING_set(value, null, Int32(null.count))
        guard let made = X509_EXTENSION_create_by_OBJ(nil, object, 0, value) else {
            throw OpenSSLError.make(.systemError, "cannot make marker \(oid)")
        }
        X509_add_ext(certificate, made, -1)
        X509_EXTENSION_free(made)
    }
}
