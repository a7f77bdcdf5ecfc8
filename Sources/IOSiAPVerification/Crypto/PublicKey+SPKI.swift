import CCrypto
import IOSiAPCore

extension PublicKey {
    /// Reads a public key from SubjectPublicKeyInfo DER (the body of a PEM `PUBLIC KEY`), or takes the public
    /// half of a PKCS#8 private key (the body of a PEM `PRIVATE KEY`, as App Store Connect's `.p8` key files
    /// are): what a server checks the bearer tokens of the App Store Server API with.
    package convenience init(spkiOrPKCS8 der: [UInt8]) throws(StoreError) {
        var cursor: UnsafePointer<UInt8>? = nil
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            cursor = buffer.baseAddress
            if let key = d2i_PUBKEY(nil, &cursor, buffer.count) { return key }
            OpenSSLError.clear()
            cursor = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
        }
        guard let parsed else {
            OpenSSLError.clear()
            throw StoreError(.invalidArgument, "not a public key (SubjectPublicKeyInfo) nor a PKCS#8 private key")
        }
        self.init(taking: parsed)
    }

    /// The key as SubjectPublicKeyInfo DER, to be kept in a state directory.
    package var spki: [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        let length = i2d_PUBKEY(pointer, &output)
        guard length > 0, let output else { return [] }
        defer { iosiap_crypto_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }
}
