import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import Testing

@Suite struct TimeRateTests {
    let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
    let month = StoreSubscriptionPeriod(value: 1, unit: .month)

    @Test func realTimeFollowsTheCalendar() {
        #expect(TimeRate.realTime.end(of: month, from: start).timeIntervalSince(start) == 31 * 86_400)
        #expect(TimeRate.realTime.end(of: StoreSubscriptionPeriod(value: 1, unit: .week), count: 2, from: start)
            .timeIntervalSince(start) == 14 * 86_400)
    }

    @Test func monthlyRatesCompressAMonth() {
        #expect(TimeRate.monthlyRenewalEveryFiveMinutes.end(of: month, from: start).timeIntervalSince(start) == 300)
        #expect(TimeRate.monthlyRenewalEveryFiveMinutes.end(of: StoreSubscriptionPeriod(value: 1, unit: .year), from: start)
            .timeIntervalSince(start) == 3600)
        #expect(TimeRate.monthlyRenewalEveryThirtySeconds.end(of: month, from: start).timeIntervalSince(start) == 30)
    }

    @Test func dayRatesCompressADay() {
        #expect(TimeRate.oneSecondIsOneDay.end(of: StoreSubscriptionPeriod(value: 1, unit: .week), from: start)
            .timeIntervalSince(start) == 7)
        #expect(TimeRate.oneSecondIsOneDay.end(of: month, from: start).timeIntervalSince(start) == 31)
    }

    @Test func renewalRatesIgnoreThePeriodLength() {
        #expect(TimeRate.oneRenewalEveryTwoSeconds.end(of: StoreSubscriptionPeriod(value: 1, unit: .year), from: start)
            .timeIntervalSince(start) == 2)
        #expect(TimeRate.oneRenewalEveryMinute.end(of: month, count: 3, from: start).timeIntervalSince(start) == 180)
    }

    @Test func rawValuesAreStoreKitTests() {
        #expect(TimeRate.monthlyRenewalEveryFiveMinutes.rawValue == 13)
        #expect(TimeRate.oneSecondIsOneDay.rawValue == 6)
        #expect(TimeRate.oneRenewalEveryTwoSeconds.rawValue == 1005)
    }
}
