import CIOSiAP
import Foundation
import IOSiAPCore
@testable import IOSiAPExports
import Testing

/// A product's offers as C reads them through the iosiap_product_* accessors.
@Suite struct ProductExportsTests {
    static let winBack = SubscriptionOffer(id: "come_back", paymentMode: .payUpFront, period: StoreSubscriptionPeriod(value: 3, unit: .month),
                                           periodCount: 1, price: Decimal(string: "4.99")!, displayPrice: "$4.99")
    static let promotional = SubscriptionOffer(id: "loyal", paymentMode: .freeTrial, period: StoreSubscriptionPeriod(value: 1, unit: .week),
                                               periodCount: 2, price: 0, displayPrice: "$0.00")

    static func subscription(winBackOffers: [SubscriptionOffer]) -> ProductHandle {
        let info = StoreSubscriptionInfo(groupID: "G1", groupName: "Club", level: 1, period: StoreSubscriptionPeriod(value: 1, unit: .month),
                                    introductoryOffer: nil, promotionalOffers: [promotional], winBackOffers: winBackOffers)
        return ProductHandle(StoreProduct(id: "monthly", type: .autoRenewable, displayName: "Monthly", description: "Club",
                                          price: 9.99, currencyCode: "USD", displayPrice: "$9.99", subscription: info))
    }

    @Test func winBackOffersAreCountedAndReadByIndex() throws {
        let handle = Self.subscription(winBackOffers: [Self.winBack])
        #expect(iosiap_product_win_back_offer_count(handle.opaque) == 1)
        var offer = iosiap_offer()
        offer.size = MemoryLayout<iosiap_offer>.size
        #expect(iosiap_product_win_back_offer(&offer, handle.opaque, 0) == IOSIAP_OK.rawValue)
        #expect(offer.id.map { String(cString: $0) } == "come_back")
        #expect(offer.payment_mode == IOSIAP_OFFER_PAY_UP_FRONT.rawValue)
        #expect(offer.period_value == 3 && offer.period_unit == IOSIAP_PERIOD_MONTH.rawValue && offer.period_count == 1)
        #expect(offer.price.map { String(cString: $0) } == "4.99")
        #expect(offer.display_price.map { String(cString: $0) } == "$4.99")
        // The promotional offers stay apart from the win-back offers.
        #expect(iosiap_product_promotional_offer_count(handle.opaque) == 1)
        #expect(iosiap_product_promotional_offer(&offer, handle.opaque, 0) == IOSIAP_OK.rawValue)
        #expect(offer.id.map { String(cString: $0) } == "loyal")
    }

    @Test func anIndexOutOfRangeOrANullProductIsAnInvalidArgument() {
        let handle = Self.subscription(winBackOffers: [])
        #expect(iosiap_product_win_back_offer_count(handle.opaque) == 0)
        #expect(iosiap_product_win_back_offer_count(nil) == 0)
        var offer = iosiap_offer()
        offer.size = MemoryLayout<iosiap_offer>.size
        #expect(iosiap_product_win_back_offer(&offer, handle.opaque, 0) == IOSIAP_E_INVALID_ARGUMENT.rawValue)
        #expect(String(cString: iosiap_last_error_message()).contains("0 win-back offers"))
        #expect(iosiap_product_win_back_offer(&offer, nil, 0) == IOSIAP_E_INVALID_ARGUMENT.rawValue)
        #expect(iosiap_product_win_back_offer(nil, handle.opaque, 0) == IOSIAP_E_INVALID_ARGUMENT.rawValue)
    }
}
