#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A subscription or offer period such as one month (`P1M`) or three days (`P3D`).
public struct StoreSubscriptionPeriod: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// The calendar unit of a period (C: `iosiap_period_unit`).
    public enum Unit: Int32, Sendable, Codable {
        case day = 0, week = 1, month = 2, year = 3
    }

    /// How many units the period lasts.
    public let value: Int
    /// The unit.
    public let unit: Unit

    /// Creates a period; `value` must be positive.
    public init(value: Int, unit: Unit) {
        precondition(value > 0, "a period lasts at least one unit")
        self.value = value
        self.unit = unit
    }

    /// Parses the ISO 8601 duration form used by `.storekit` files: `P<n>D`, `P<n>W`, `P<n>M` or `P<n>Y`.
    public init?(iso8601 text: String) {
        guard text.count >= 3, text.first == "P", let unitLetter = text.last,
              let value = Int(text.dropFirst().dropLast()), value > 0 else { return nil }
        switch unitLetter {
        case "D": unit = .day
        case "W": unit = .week
        case "M": unit = .month
        case "Y": unit = .year
        default: return nil
        }
        self.value = value
    }

    /// The ISO 8601 duration, e.g. `P1M`.
    public var iso8601: String {
        let letter = switch unit {
        case .day: "D"
        case .week: "W"
        case .month: "M"
        case .year: "Y"
        }
        return "P\(value)\(letter)"
    }

    public var description: String { iso8601 }

    /// The date one period after `start`, by the Gregorian calendar in UTC.
    public func end(from start: Date) -> Date {
        var components = DateComponents()
        switch unit {
        case .day: components.day = value
        case .week: components.day = 7 * value
        case .month: components.month = value
        case .year: components.year = value
        }
        return Self.calendar.date(byAdding: components, to: start) ?? start
    }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!  // not TimeZone(identifier:), which needs ICU's zone data
        return calendar
    }()
}
