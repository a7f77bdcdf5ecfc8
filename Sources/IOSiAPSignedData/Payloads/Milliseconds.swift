#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A date in a signed payload: Unix milliseconds. Read as a number with or without a fraction (Xcode
/// writes fractions), written as a whole number, as Apple's libraries do.
public struct Milliseconds: Codable, Sendable, Equatable, Hashable {
    /// The largest value read: 9999-12-31T23:59:59.999Z. Signed data is untrusted, and a date past it (or
    /// before 1970, or not finite) is refused where it is decoded, so no later conversion can trap.
    public static let maximum: Double = 253_402_300_799_999

    /// The milliseconds since 1970-01-01, within `0...maximum`.
    public let value: Double

    public init(_ date: Date) {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        value = milliseconds.isNaN ? 0 : min(max(milliseconds, 0), Self.maximum)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(Double.self)
        guard (0...Self.maximum).contains(value) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\(value) is not a date in Unix milliseconds between 0 and \(Int64(Self.maximum))")
        }
        self.value = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Int64(value.rounded(.down)))
    }

    /// The date.
    public var date: Date { Date(timeIntervalSince1970: value / 1000) }
}
