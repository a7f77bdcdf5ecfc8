import Foundation
import IOSiAPCore
import Testing

@Suite struct StoreSubscriptionInfoTests {
    let monthly = StoreSubscriptionPeriod(value: 1, unit: .month)

    @Test func aCallerThatNamesNoWinBackOffersGetsNone() {
        let info = StoreSubscriptionInfo(groupID: "G1", groupName: "Club", level: 1, period: monthly, introductoryOffer: nil,
                                    promotionalOffers: [])
        #expect(info.winBackOffers.isEmpty)
    }

    @Test func winBackOffersSurviveEncodingAndAnEncodingWithoutThemDecodesToNone() throws {
        let offer = SubscriptionOffer(id: "come_back", paymentMode: .payUpFront, period: monthly, periodCount: 1, price: 4.99,
                                      displayPrice: "$4.99")
        let info = StoreSubscriptionInfo(groupID: "G1", groupName: "Club", level: 1, period: monthly, introductoryOffer: nil,
                                    promotionalOffers: [], winBackOffers: [offer])
        let encoded = try JSONEncoder().encode(info)
        #expect(try JSONDecoder().decode(StoreSubscriptionInfo.self, from: encoded) == info)

        // What a version before win-back offers encoded.
        var object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        object["winBackOffers"] = nil
        let earlier = try JSONDecoder().decode(StoreSubscriptionInfo.self, from: try JSONSerialization.data(withJSONObject: object))
        #expect(earlier.winBackOffers.isEmpty)
        #expect(earlier.groupID == "G1" && earlier.period == monthly)
    }
}
