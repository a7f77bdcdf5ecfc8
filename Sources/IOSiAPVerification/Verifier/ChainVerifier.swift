import CCrypto
import CCryptoAtExit
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// Checks the certificate chain of a JWS the way Apple's libraries do: the leaf and intermediate from
/// `x5c`, which must hold exactly three certificates, the root only from the caller's trusted certificates
/// (never `x5c[2]`), valid at the given date, with Apple's marker extensions. Chains it verified are
/// cached (bounded), so that many transactions from one chain cost one signature check each.
final class ChainVerifier: Sendable {
    private struct VerifiedChain {
        let leafKey: PublicKey
        let validFrom: Date
        let validUntil: Date
    }

    /// Keyed by the base64 text of the leaf and intermediate, so that a hit decodes nothing.
    private struct Cache {
        var chains: [String: VerifiedChain] = [:]
        var order: [String] = []
    }

    /// 9999-12-31T23:59:59Z, the last second a validation date may name.
    static let latestSeconds: Int64 = 253_402_300_799

    private let trustedRoots: [X509Certificate]
    private let capacity: Int
    private let cache = Locked(Cache())

    init(trustedRoots: [[UInt8]], capacity: Int) throws(StoreError) {
        iosiap_internal_keep_libcrypto_at_exit()  // done as the library loaded; the call links it into a static archive's user
        guard !trustedRoots.isEmpty else { throw StoreError(.invalidArgument, "no trusted root certificate") }
        var parsed: [X509Certificate] = []
        for der in trustedRoots { parsed.append(try X509Certificate(der: der)) }
        self.trustedRoots = parsed
        self.capacity = max(capacity, 1)
    }

    /// The leaf's public key, once the chain in `x5c` is proven valid at `date`.
    func leafKey(x5c: [String]?, at date: Date) throws(StoreError) -> PublicKey {
        guard let x5c else { throw StoreError(.verificationInvalidFormat, "the JWS header has no x5c") }
        guard x5c.count == 3 else {
            throw StoreError(.verificationInvalidChainLength, "x5c holds \(x5c.count) certificates; an App Store chain holds 3")
        }
        // OpenSSL takes the time as time_t: a date it cannot hold is refused here, never converted.
        guard date.timeIntervalSince1970.isFinite, let seconds = Int64(exactly: date.timeIntervalSince1970.rounded(.down)),
              (0...Self.latestSeconds).contains(seconds) else {
            throw StoreError(.verificationInvalidFormat, "the validation date \(date.timeIntervalSince1970) s is outside 1970...9999")
        }
        let key = x5c[0] + "." + x5c[1]
        if let cached = cache.withLock({ $0.chains[key] }), cached.validFrom <= date, date <= cached.validUntil {
            return cached.leafKey
        }
        let leafDER = try bytes(x5c[0], "x5c[0]")
        let intermediateDER = try bytes(x5c[1], "x5c[1]")
        let leaf = try X509Certificate(der: leafDER)
        let intermediate = try X509Certificate(der: intermediateDER)
        let chain = try verifyChain(leaf: leaf, intermediate: intermediate, at: date, seconds: seconds)
        guard leaf.hasExtension(oid: CertificateBuilder.leafMarkerOID) else {
            throw StoreError(.verificationMissingAppleMarker, "the leaf certificate lacks \(CertificateBuilder.leafMarkerOID)")
        }
        guard intermediate.hasExtension(oid: CertificateBuilder.intermediateMarkerOID) else {
            throw StoreError(.verificationMissingAppleMarker, "the intermediate certificate lacks \(CertificateBuilder.intermediateMarkerOID)")
        }
        let leafKey = try p256Key(of: leaf)
        let verified = VerifiedChain(leafKey: leafKey,
                                     validFrom: chain.compactMap(\.notBefore).max() ?? .distantPast,
                                     validUntil: chain.compactMap(\.notAfter).min() ?? .distantFuture)
        cache.withLock { cache in
            if cache.chains.updateValue(verified, forKey: key) == nil { cache.order.append(key) }
            while cache.order.count > capacity { cache.chains[cache.order.removeFirst()] = nil }
        }
        return leafKey
    }

    /// Builds and checks leaf → intermediate → trusted root with OpenSSL in strict mode at `date`, and
    /// returns the three certificates.
    private func verifyChain(leaf: X509Certificate, intermediate: X509Certificate, at date: Date, seconds: Int64) throws(StoreError) -> [X509Certificate] {
        guard let store = X509_STORE_new(), let context = X509_STORE_CTX_new(), let untrusted = iosiap_x509_stack_new() else {
            throw OpenSSLError.make(.systemError, "out of memory")
        }
        defer {
            X509_STORE_CTX_free(context)
            X509_STORE_free(store)
            iosiap_x509_stack_free(untrusted)
            OpenSSLError.clear()
        }
        for root in trustedRoots { X509_STORE_add_cert(store, root.pointer) }
        iosiap_x509_stack_push(untrusted, intermediate.pointer)
        guard X509_STORE_CTX_init(context, store, leaf.pointer, untrusted) == 1 else {
            throw OpenSSLError.make(.systemError, "cannot prepare the chain check")
        }
        let parameters = X509_STORE_CTX_get0_param(context)
        X509_VERIFY_PARAM_set_time(parameters, time_t(seconds))
        X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_X509_STRICT))
        guard X509_verify_cert(context) == 1 else {
            let error = X509_STORE_CTX_get_error(context)
            let reason = String(cString: X509_verify_cert_error_string(Int(error)))
            if error == X509_V_ERR_CERT_HAS_EXPIRED || error == X509_V_ERR_CERT_NOT_YET_VALID {
                throw StoreError(.verificationCertificateNotValidAtDate,
                                 "a certificate is not valid at \(date.formatted(.iso8601)): \(reason)")
            }
            throw StoreError(.verificationUntrustedChain, "the certificate chain does not verify: \(reason)")
        }
        guard let chain = X509_STORE_CTX_get0_chain(context), iosiap_x509_stack_count(chain) == 3 else {
            throw StoreError(.verificationInvalidChainLength, "the verified chain is not leaf, intermediate and root")
        }
        return [leaf, intermediate] + trustedRoots.filter { root in
            X509_cmp(root.pointer, iosiap_x509_stack_at(chain, 2)) == 0
        }
    }

    private func p256Key(of certificate: X509Certificate) throws(StoreError) -> PublicKey {
        let key = try certificate.publicKey()
        guard key.isP256 else { throw StoreError(.verificationInvalidCertificate, "the signing key is not a P-256 key") }
        return key
    }

    private func bytes(_ base64: String, _ name: String) throws(StoreError) -> [UInt8] {
        guard let data = Data(base64Encoded: base64) else {
            throw StoreError(.verificationInvalidCertificate, "\(name) is not base64")
        }
        return Array(data)
    }
}
