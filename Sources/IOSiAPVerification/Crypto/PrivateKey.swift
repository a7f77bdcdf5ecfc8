import CCrypto
import IOSiAPCore

/// A P-256 private key held by OpenSSL: the local store's signing key.
///
/// `@unchecked Sendable`: immutable; OpenSSL's signing operations do not change the key.
package final class PrivateKey: @unchecked Sendable {
    let pointer: OpaquePointer

    /// A new random P-256 key.
    package init() throws(StoreError) {
        guard let key = iosiap_generate_p256_key() else {
            throw OpenSSLError.make(.systemError, "cannot generate a P-256 key")
        }
        pointer = key
    }

    /// Reads a key from PKCS#8 DER.
    package init(pkcs8 der: [UInt8]) throws(StoreError) {
        var cursor: UnsafePointer<UInt8>? = nil
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            cursor = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
        }
        guard let parsed else { throw OpenSSLError.make(.storageFailure, "the signing key is not valid PKCS#8 DER") }
        pointer = parsed
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// The key as PKCS#8 DER, to be kept in the state directory.
    package var pkcs8: [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        let length = i2d_PrivateKey(pointer, &output)
        guard length > 0, let output else { return [] }
        defer { iosiap_crypto_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }

    /// An ES256 signature of `message` in JWS form (raw R‖S, 64 bytes).
    package func signES256(_ message: [UInt8]) throws(StoreError) -> [UInt8] {
        guard let raw = ES256.rawSignature(fromDER: try signECDSA(message)) else {
            throw OpenSSLError.make(.systemError, "cannot sign")
        }
        return raw
    }

    /// An ECDSA / SHA-256 signature of `message`, DER-encoded.
    package func signECDSA(_ message: [UInt8]) throws(StoreError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLError.make(.systemError, "out of memory") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, pointer) == 1,
              EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw OpenSSLError.make(.systemError, "cannot sign")
        }
        var der = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &der, &length, message, message.count) == 1 else {
            throw OpenSSLError.make(.systemError, "cannot sign")
        }
        return Array(der.prefix(length))
    }

    /// The public half, to check this key's signatures with.
    package var publicKey: PublicKey {
        EVP_PKEY_up_ref(pointer)  // both wrappers own one reference to the same OpenSSL key
        return PublicKey(taking: pointer)
    }
}
