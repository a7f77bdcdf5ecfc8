import CCrypto
import Foundation
import IOSiAPCore

/// Checks the certificate chain of a JWS the way Apple's libraries do: the leaf and intermediate from
/// `x5c`, the root only from the caller's trusted certificates (never `x5c[2]`), valid at the given date,
/// exactly three long, with Apple's marker extensions. Chains it verified are cached (bounded), so that
/// many transactions from one chain cost one signature check each.
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

    private let trustedRoots: [X509Certificate]
    private let trustedRootsDER: Set<[UInt8]>
    private let capacity: Int
    private let cache = Locked(Cache())

    init(trustedRoots: [[UInt8]], capacity: Int) throws(StoreError) {
        guard !trustedRoots.isEmpty else { throw StoreError(.invalidArgument, "no trusted root certificate") }
        var parsed: [X509Certificate] = []
        for der in trustedRoots { parsed.append(try X509Certificate(der: der)) }
        self.trustedRoots = parsed
        trustedRootsDER = Set(trustedRoots)
        self.capacity = max(capacity, 1)
    }

    /// The leaf's public key, once the chain in `x5c` is proven valid at `date`.
    func leafKey(x5c: [String]?, at date: Date) throws(StoreError) -> PublicKey {
        guard let x5c else { throw StoreError(.verificationInvalidFormat, "the JWS header has no x5c") }
        if x5c.count == 1 {
            // Xcode signs with one self-signed certificate: accepted only when the caller trusts exactly it.
            let certificate = try decode(x5c[0], "x5c[0]")
            guard trustedRootsDER.contains(certificate.der) else {
                throw StoreError(.verificationInvalidChainLength, "x5c holds 1 certificate that is not a trusted root; an App Store chain holds 3")
            }
            try checkValidity([certificate], at: date)
            return try p256Key(of: certificate)
        }
        guard x5c.count == 3 else {
            throw StoreError(.verificationInvalidChainLength, "x5c holds \(x5c.count) certificates; an App Store chain holds 3")
        }
        let key = x5c[0] + "." + x5c[1]
        if let cached = cache.withLock({ $0.chains[key] }), cached.validFrom <= date, date <= cached.validUntil {
            return cached.leafKey
        }
        let leafDER = try bytes(x5c[0], "x5c[0]")
        let intermediateDER = try bytes(x5c[1], "x5c[1]")
        let leaf = try X509Certificate(der: leafDER)
        let intermediate = try X509Certificate(der: intermediateDER)
        let chain = try verifyChain(leaf: leaf, intermediate: intermediate, at: date)
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
    private func verifyChain(leaf: X509Certificate, intermediate: X509Certificate, at date: Date) throws(StoreError) -> [X509Certificate] {
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
        X509_VERIFY_PARAM_set_time(parameters, time_t(date.timeIntervalSince1970))
        X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_X509_STRICT))
        guard X509_verify_cert(context) == 1 else {
            let error = X509_STORE_CTX_get_error(context)
            let reason = String(cString: X509_verify_cert_error_string(Int(error)))
            if error == X509_V_ERR_CERT_HAS_EXPIRED || error == X509_V_ERR_CERT_NOT_YET_VALID {
                throw StoreError(.verificationCertificateNotValidAtDate,
                                 "a certificate is not valid at \(ISO8601DateFormatter().string(from: date)): \(reason)")
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

    private func checkValidity(_ certificates: [X509Certificate], at date: Date) throws(StoreError) {
        guard certificates.allSatisfy({ ($0.notBefore ?? .distantPast) <= date && date <= ($0.notAfter ?? .distantFuture) }) else {
            throw StoreError(.verificationCertificateNotValidAtDate,
                             "the certificate is not valid at \(ISO8601DateFormatter().string(from: date))")
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

    private func decode(_ base64: String, _ name: String) throws(StoreError) -> X509Certificate {
        try X509Certificate(der: bytes(base64, name))
    }
}
