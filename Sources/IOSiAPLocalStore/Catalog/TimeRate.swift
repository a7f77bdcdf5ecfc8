#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// How fast subscription time runs in the local store, with the raw values of StoreKitTest's
/// `SKTestSession.TimeRate` (the `.storekit` file's `_timeRate`). C: `iosiap_time_rate`.
public enum TimeRate: Int, Sendable, CaseIterable, Codable {
    case realTime = 0
    case oneHourIsOneDay = 1
    case thirtyMinutesIsOneDay = 2
    case fiveMinutesIsOneDay = 3
    case oneMinuteIsOneDay = 4
    case thirtySecondsIsOneDay = 5
    case oneSecondIsOneDay = 6
    case monthlyRenewalEveryHour = 10
    case monthlyRenewalEveryThirtyMinutes = 11
    case monthlyRenewalEveryFifteenMinutes = 12
    case monthlyRenewalEveryFiveMinutes = 13
    case monthlyRenewalEveryThirtySeconds = 15
    case oneRenewalEveryFifteenMinutes = 1000
    case oneRenewalEveryFiveMinutes = 1001
    case oneRenewalEveryMinute = 1002
    case oneRenewalEveryThirtySeconds = 1003
    case oneRenewalEveryTenSeconds = 1004
    case oneRenewalEveryTwoSeconds = 1005

    /// When `count` periods that start at `start` end, in real time at this rate.
    public func end(of period: StoreSubscriptionPeriod, count: Int = 1, from start: Date) -> Date {
        switch self {
        case .realTime:
            var end = start
            for _ in 0..<max(count, 1) { end = period.end(from: end) }
            return end
        case .oneHourIsOneDay, .thirtyMinutesIsOneDay, .fiveMinutesIsOneDay, .oneMinuteIsOneDay,
             .thirtySecondsIsOneDay, .oneSecondIsOneDay:
            let naturalDays = period.end(from: start).timeIntervalSince(start) / 86_400
            return start.addingTimeInterval(naturalDays * realSeconds * Double(max(count, 1)))
        case .monthlyRenewalEveryHour, .monthlyRenewalEveryThirtyMinutes, .monthlyRenewalEveryFifteenMinutes,
             .monthlyRenewalEveryFiveMinutes, .monthlyRenewalEveryThirtySeconds:
            let months: Double = switch period.unit {
            case .day: Double(period.value) / 30
            case .week: Double(period.value) * 7 / 30
            case .month: Double(period.value)
            case .year: Double(period.value) * 12
            }
            return start.addingTimeInterval(months * realSeconds * Double(max(count, 1)))
        default:
            return start.addingTimeInterval(realSeconds * Double(max(count, 1)))
        }
    }

    /// The real seconds of the rate's unit: a simulated day, month, or renewal period.
    private var realSeconds: Double {
        switch self {
        case .realTime: 0
        case .oneHourIsOneDay, .monthlyRenewalEveryHour: 3600
        case .thirtyMinutesIsOneDay, .monthlyRenewalEveryThirtyMinutes: 1800
        case .fiveMinutesIsOneDay, .monthlyRenewalEveryFiveMinutes, .oneRenewalEveryFiveMinutes: 300
        case .oneMinuteIsOneDay, .oneRenewalEveryMinute: 60
        case .thirtySecondsIsOneDay, .monthlyRenewalEveryThirtySeconds, .oneRenewalEveryThirtySeconds: 30
        case .oneSecondIsOneDay: 1
        case .monthlyRenewalEveryFifteenMinutes, .oneRenewalEveryFifteenMinutes: 900
        case .oneRenewalEveryTenSeconds: 10
        case .oneRenewalEveryTwoSeconds: 2
        }
    }
}
