import CIOSiAP
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import IOSiAPCore

/// Reads the C strings a caller passes in, refusing NULL, invalid UTF-8 and over-long text with the
/// status and message the C ABI promises.
enum CStringInput {
    /// A required string named `name` in messages; at most `maximumLength` UTF-8 bytes are read.
    static func required(_ pointer: UnsafePointer<CChar>?, _ name: String,
                         maximumLength: Int = 4096) throws(StoreError) -> String {
        guard let pointer else { throw StoreError(.invalidArgument, "\(name) is NULL") }
        return try decode(pointer, name, maximumLength: maximumLength)
    }

    /// An optional string: NULL is `nil`.
    static func optional(_ pointer: UnsafePointer<CChar>?, _ name: String,
                         maximumLength: Int = 4096) throws(StoreError) -> String? {
        guard let pointer else { return nil }
        return try decode(pointer, name, maximumLength: maximumLength)
    }

    /// A product id: required, at most `IOSIAP_MAX_PRODUCT_ID_LENGTH` bytes.
    static func productID(_ pointer: UnsafePointer<CChar>?, _ name: String = "product_id") throws(StoreError) -> String {
        try required(pointer, name, maximumLength: Int(IOSIAP_MAX_PRODUCT_ID_LENGTH))
    }

    /// An optional UUID in text form: NULL is `nil`, anything but a UUID an `invalidArgument` error.
    static func uuid(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(StoreError) -> UUID? {
        guard let text = try optional(pointer, name, maximumLength: 64) else { return nil }
        guard let uuid = UUID(uuidString: text) else { throw StoreError(.invalidArgument, "\(name) '\(text)' is not a UUID") }
        return uuid
    }

    private static func decode(_ pointer: UnsafePointer<CChar>, _ name: String, maximumLength: Int) throws(StoreError) -> String {
        // strnlen: never reads past the limit, even when the caller forgot the terminator.
        let length = strnlen(pointer, maximumLength + 1)
        guard length <= maximumLength else {
            throw StoreError(.stringTooLong, "\(name) is longer than \(maximumLength) bytes")
        }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw StoreError(.invalidUTF8, "\(name) is not valid UTF-8")
        }
        return text
    }
}
