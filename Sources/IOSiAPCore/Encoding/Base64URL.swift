/// Base64url (RFC 4648 §5, no padding), the encoding of JWS segments, byte by byte: Foundation's base64
/// plus three string replacements made signing and verification spend most of their time here. Inlinable: the
/// verifier and the journal call it from other modules, where a generic function that is not inlinable runs
/// unspecialized.
package enum Base64URL {
    @usableFromInline
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// Each byte's 6-bit value, or 0xFF outside the alphabet.
    @usableFromInline
    static let values: [UInt8] = {
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in alphabet.enumerated() { values[Int(character)] = UInt8(value) }
        return values
    }()

    @inlinable
    package static func encode(_ bytes: [UInt8]) -> String {
        let length = bytes.count / 3 * 4 + [0, 2, 3][bytes.count % 3]
        let output = [UInt8](unsafeUninitializedCapacity: length) { buffer, written in
            var index = 0
            func put(_ group: UInt32, _ characters: Int) {
                for shift in stride(from: 18, to: 18 - 6 * characters, by: -6) {
                    buffer[written] = alphabet[Int((group >> UInt32(shift)) & 0x3F)]
                    written += 1
                }
            }
            while index + 3 <= bytes.count {
                put(UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]), 4)
                index += 3
            }
            switch bytes.count - index {
            case 1: put(UInt32(bytes[index]) << 16, 2)
            case 2: put(UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8, 3)
            default: break
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes, or `nil` for text outside the base64url alphabet (padding included) or of an impossible length.
    @inlinable
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        decode(bytes: text.utf8)
    }

    /// `decode` of UTF-8 text given as bytes.
    @inlinable
    package static func decode<Text: Collection<UInt8>>(bytes text: Text) -> [UInt8]? {
        guard text.count % 4 != 1 else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in text {
            let value = values[Int(character)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return output
    }
}
