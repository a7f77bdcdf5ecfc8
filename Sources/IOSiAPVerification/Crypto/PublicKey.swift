import CCrypto
import IOSiAPCore

/// A public key held by OpenSSL, used to check ES256 signatures.
///
/// `@unchecked Sendable`: immutable; OpenSSL's verify operations do not change the key.
package final class PublicKey: @unchecked Sendable {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// Whether it is a P-256 (prime256v1) key, the only curve ES256 allows.
    package var isP256: Bool {
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(pointer, &name, name.count, &length) == 1 else { return false }
        let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return group == "prime256v1" || group == "P-256"
    }

    /// Checks an ES256 signature in JWS form (raw R‖S, 64 bytes) over `message`.
    package func verifyES256(signature: [UInt8], message: [UInt8]) -> Bool {
        guard signature.count == 64, let der = ES256.derSignature(fromRaw: signature) else { return false }
        return verifyECDSA(derSignature: der, message: message)
    }

    /// Checks a DER-encoded ECDSA / SHA-256 signature over `message`.
    package func verifyECDSA(derSignature der: [UInt8], message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer {
            EVP_MD_CTX_free(context)
            OpenSSLError.clear()
        }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, pointer) == 1 else { return false }
        return EVP_DigestVerify(context, der, der.count, message, message.count) == 1
    }
}
