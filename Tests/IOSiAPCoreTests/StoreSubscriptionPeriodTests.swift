import Foundation
import IOSiAPCore
import Testing

@Suite struct StoreSubscriptionPeriodTests {
    @Test(arguments: [("P3D", 3, StoreSubscriptionPeriod.Unit.day), ("P1W", 1, .week), ("P1M", 1, .month),
                      ("P2M", 2, .month), ("P6M", 6, .month), ("P1Y", 1, .year)])
    func parsesStoreKitDurations(text: String, value: Int, unit: StoreSubscriptionPeriod.Unit) {
        let period = StoreSubscriptionPeriod(iso8601: text)
        #expect(period == StoreSubscriptionPeriod(value: value, unit: unit))
        #expect(period?.iso8601 == text)
    }

    @Test(arguments: ["", "P", "PM", "P0M", "P-1M", "1M", "P1H", "P1.5M", "PT1H", "p1m"])
    func rejectsOtherText(text: String) {
        #expect(StoreSubscriptionPeriod(iso8601: text) == nil)
    }

    @Test func monthsFollowTheCalendar() throws {
        let formatter = ISO8601DateFormatter()
        let january31 = try #require(formatter.date(from: "2025-01-31T10:00:00Z"))
        let month = StoreSubscriptionPeriod(value: 1, unit: .month)
        #expect(formatter.string(from: month.end(from: january31)) == "2025-02-28T10:00:00Z")
        let week = StoreSubscriptionPeriod(value: 2, unit: .week)
        #expect(week.end(from: january31).timeIntervalSince(january31) == 14 * 86_400)
        let year = StoreSubscriptionPeriod(value: 1, unit: .year)
        #expect(formatter.string(from: year.end(from: january31)) == "2026-01-31T10:00:00Z")
    }
}
