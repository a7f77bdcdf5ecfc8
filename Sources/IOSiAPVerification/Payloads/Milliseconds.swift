import Foundation

/// A date in a signed payload: Unix milliseconds. Read as a number with or without a fraction (Xcode
/// writes fractions), written as a whole number, as Apple's libraries do.
public struct Milliseconds: Codable, Sendable, Equatable, Hashable {
    /// The milliseconds since 1970-01-01.
    public let value: Double

    public init(_ date: Date) {
        value = (date.timeIntervalSince1970 * 1000).rounded(.down)
    }

    public init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(Double.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Int64(value.rounded(.down)))
    }

    /// The date.
    public var date: Date { Date(timeIntervalSince1970: value / 1000) }
}
