#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import IOSiAPCore

/// A compact JWS (`header.payload.signature`) split and decoded, not yet verified. Nothing here needs
/// cryptography: signing and checking signatures are IOSiAPVerification's (OpenSSL, Linux and macOS only).
package struct CompactJWS: Sendable {
    /// The protected header of an App Store JWS.
    package struct Header: Codable, Sendable {
        package var alg: String?
        package var x5c: [String]?
        package var kid: String?
        package var typ: String?

        package init(alg: String?, x5c: [String]?, kid: String?, typ: String?) {
            self.alg = alg
            self.x5c = x5c
            self.kid = kid
            self.typ = typ
        }
    }

    /// Signed data larger than this is refused before any parsing (an App Store JWS is a few KiB).
    package static let maximumLength = 64 * 1024

    package let header: Header
    package let payload: [UInt8]
    package let signature: [UInt8]
    /// `base64url(header) + "." + base64url(payload)`, what the signature covers.
    package let signingInput: [UInt8]

    /// Splits and decodes `text`; `verificationInvalidFormat` (or `…InputTooLarge`) when it is not one.
    /// `headers` may answer for a header segment seen before (every JWS of one chain has the same one).
    package init(_ text: String, headers: HeaderCache? = nil) throws(StoreError) {
        guard text.utf8.count <= Self.maximumLength else {
            throw StoreError(.verificationInputTooLarge, "signed data is \(text.utf8.count) bytes; at most \(Self.maximumLength) are read")
        }
        // Split as bytes: String's Character-wise split cost more than the signature check.
        let bytes = Array(text.utf8)
        var dots: [Int] = []
        for index in bytes.indices where bytes[index] == UInt8(ascii: ".") {
            dots.append(index)
            if dots.count > 2 { break }  // already too many
        }
        guard dots.count == 2 else {
            throw StoreError(.verificationInvalidFormat, "a JWS has three parts separated by '.', this has \(dots.count > 2 ? "more" : String(dots.count + 1))")
        }
        let headerSegment = bytes[..<dots[0]]
        guard let payload = Base64URL.decode(bytes: bytes[(dots[0] + 1)..<dots[1]]),
              let signature = Base64URL.decode(bytes: bytes[(dots[1] + 1)...]) else {
            throw StoreError(.verificationInvalidFormat, "a part of the JWS is not base64url")
        }
        if let known = headers?.header(for: headerSegment) {
            header = known
        } else {
            guard let headerBytes = Base64URL.decode(bytes: headerSegment) else {
                throw StoreError(.verificationInvalidFormat, "a part of the JWS is not base64url")
            }
            do {
                header = try JSONDecoder().decode(Header.self, from: Data(headerBytes))
            } catch {
                throw StoreError(.verificationInvalidFormat, "the JWS header is not the expected JSON")
            }
            headers?.remember(header, for: headerSegment)
        }
        self.payload = payload
        self.signature = signature
        signingInput = Array(bytes[..<dots[1]])
    }
}

/// The headers of the few chains seen last, by their base64url text: every JWS of one chain has the same
/// header, and comparing it with the text seen before (a length check, then a memory comparison) costs far
/// less than decoding it again.
package final class HeaderCache: Sendable {
    private let entries = Locked<[(segment: [UInt8], header: CompactJWS.Header)]>([])
    private let capacity: Int

    package init(capacity: Int = 4) {
        self.capacity = capacity
    }

    func header(for segment: ArraySlice<UInt8>) -> CompactJWS.Header? {
        entries.withLock { entries in
            entries.first { entry in
                entry.segment.count == segment.count && entry.segment.withUnsafeBytes { known in
                    segment.withUnsafeBytes { memcmp(known.baseAddress!, $0.baseAddress!, known.count) == 0 }
                }
            }?.header
        }
    }

    func remember(_ header: CompactJWS.Header, for segment: ArraySlice<UInt8>) {
        entries.withLock { entries in
            entries.insert((Array(segment), header), at: 0)
            if entries.count > capacity { entries.removeLast() }
        }
    }
}
