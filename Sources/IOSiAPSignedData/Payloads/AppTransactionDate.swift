#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A date in an App Transaction: Unix milliseconds like `Milliseconds`, but also before 1970, because Xcode
/// signs an app's `originalPurchaseDate` as year 1 (-62135769600000 in Apple's own Xcode sample). Read as a
/// number with or without a fraction, written as a whole number.
public struct AppTransactionDate: Codable, Sendable, Equatable, Hashable {
    /// The smallest value read: 0000-01-01T00:00:00Z, a little before year 1 in any calendar.
    public static let minimum: Double = -62_167_219_200_000
    /// The largest value read: `Milliseconds.maximum`. Signed data is untrusted, and a date outside
    /// `minimum...maximum` (or not finite) is refused where it is decoded, so no later conversion can trap.
    public static let maximum: Double = Milliseconds.maximum

    /// The milliseconds since 1970-01-01, within `minimum...maximum`.
    public let value: Double

    public init(_ date: Date) {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        value = milliseconds.isNaN ? 0 : min(max(milliseconds, Self.minimum), Self.maximum)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(Double.self)
        guard (Self.minimum...Self.maximum).contains(value) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\(value) is not a date in Unix milliseconds between \(Int64(Self.minimum)) and \(Int64(Self.maximum))")
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
