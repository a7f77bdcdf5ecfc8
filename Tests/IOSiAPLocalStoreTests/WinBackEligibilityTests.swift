import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// Win-back offers as Xcode writes them (issue 25, item 3): `isEligible` decides, as in Xcode's StoreKit testing
/// (the user may redeem the offer exactly when it is true); an offer without the key keeps Apple's rules
/// (`SubscriptionOfferRulesTests`).
@Suite struct WinBackEligibilityTests {
    let folder = TemporaryDirectory()
    let clock = TestClock()
    static let gold = "com.iosiap.example.club_gold_monthly"
    static let eligible = "gold_back_for_everyone"
    static let ineligible = "gold_back_for_nobody"
    static let byTheRules = "gold_back_by_the_rules"

    /// The example catalog with three win-back offers on club gold, in the shape of RevenueCat's and Flutter's files.
    static func catalog() throws -> Catalog {
        try ExampleCatalog.with([
            "winbackOffers": [
                ["internalID": "D11E21B6", "isEligible": true, "offerID": eligible, "paymentMode": "free",
                 "referenceName": "Winback 1m0", "subscriptionPeriod": "P1M"],
                ["displayPrice": "0.99", "internalID": "91AB5625", "isEligible": false, "numberOfPeriods": 1, "offerID": ineligible,
                 "paymentMode": "payAsYouGo", "referenceName": "Win Back Offer", "subscriptionPeriod": "P1W"],
                ["internalID": "D11E21B7", "offerID": byTheRules, "paymentMode": "free", "referenceName": "By the rules",
                 "subscriptionPeriod": "P1M"],
            ],
        ], onSubscription: gold, fileName: "winback.storekit")
    }

    func open() async throws -> (LocalStore, PurchaseStore) {
        try await ExampleCatalog.open(Self.catalog(), in: folder, clock: clock, loading: Self.gold)
    }

    func outcome(_ store: PurchaseStore, _ offerID: String) async throws -> StoreEvent? {
        try await store.pollUntilTerminal(of: try store.requestPayment(PaymentRequest(productID: Self.gold, winBackOfferID: offerID))).last
    }

    @Test func theCatalogKeepsIsEligible() throws {
        let gold = try #require(try Self.catalog().product(id: Self.gold)?.subscription)
        #expect(gold.winBackOffers.map(\.isEligible) == [true, false, nil])
        #expect(gold.winBackOffers[1].terms.price == Decimal(string: "0.99"))
    }

    @Test func anOfferMarkedEligibleIsRedeemedByAUserWhoNeverSubscribed() async throws {
        let (local, store) = try await open()
        // Without the key, Apple's rules want a lapsed subscriber: this user is refused ...
        guard case .failed(_, _, let error) = try await outcome(store, Self.byTheRules) else { Issue.record("not refused"); return }
        #expect(error.code == .ineligibleForOffer && error.message.contains("never subscribed"))
        // ... and gets the offer the file marks eligible.
        guard case .purchased(_, let transaction) = try await outcome(store, Self.eligible) else { Issue.record("not purchased"); return }
        #expect(transaction.offer == TransactionOffer(type: .winBack, id: Self.eligible))
        let payload = try local.makeVerifier().verifyTransaction(try #require(transaction.signedJWS))
        #expect(payload.offerType == 4 && payload.offerIdentifier == Self.eligible && payload.price == 0)
        #expect(payload.offerDiscountType == "FREE_TRIAL" && payload.offerPeriod == "P1M")
    }

    @Test func anOfferMarkedIneligibleIsRefusedToALapsedSubscriberAndChargesNothing() async throws {
        let (local, store) = try await open()
        guard case .purchased(_, let first) = try await store.pollUntilTerminal(of: try store.requestPayment(PaymentRequest(productID: Self.gold))).last
        else { Issue.record("not purchased"); return }
        try store.finish(transactionID: first.id)
        try local.setAutoRenew(productID: Self.gold, enabled: false)
        clock.advance(by: 71)  // the free week ends
        _ = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        let count = try local.allTransactions().count

        guard case .failed(_, _, let error) = try await outcome(store, Self.ineligible) else { Issue.record("not refused"); return }
        #expect(error.code == .ineligibleForOffer && error.message.contains("isEligible false"))
        #expect(try local.allTransactions().count == count)
        // A lapsed subscriber: the offer without the key is theirs by Apple's rules.
        guard case .purchased(_, let back) = try await outcome(store, Self.byTheRules) else { Issue.record("not purchased"); return }
        #expect(back.offer == TransactionOffer(type: .winBack, id: Self.byTheRules))
    }

    @Test func anEndedSubscriptionsRenewalInfoListsTheOffersMarkedEligible() async throws {
        let (local, store) = try await open()
        _ = try await store.pollUntilTerminal(of: try store.requestPayment(PaymentRequest(productID: Self.gold)))
        try local.setAutoRenew(productID: Self.gold, enabled: false)
        clock.advance(by: 71)  // the free week ends
        let events = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        guard case .expired(let ended) = events.last else { Issue.record("\(events)"); return }
        let renewalInfo = try local.makeVerifier().verifyRenewalInfo(try #require(ended.signedRenewalInfo))
        #expect(renewalInfo.eligibleWinBackOfferIds == [Self.eligible, Self.byTheRules])
    }
}

extension WinBackEligibilityTests {
    /// A user whose only subscription was refunded is a past subscriber here as for offer codes and promotional
    /// offers (issue 38): the win-back offer without the key (no paid months asked) is theirs.
    @Test func aUserWhoseOnlySubscriptionWasRefundedIsALapsedSubscriber() async throws {
        let (local, store) = try await open()
        guard case .purchased(_, let first) = try await store.pollUntilTerminal(of: try store.requestPayment(PaymentRequest(productID: Self.gold))).last
        else { Issue.record("not purchased"); return }
        try store.finish(transactionID: first.id)
        _ = try local.refund(transactionID: first.id)
        _ = try await store.pollUntil { if case .revoked = $0 { true } else { false } }
        guard case .purchased(_, let back) = try await outcome(store, Self.byTheRules) else { Issue.record("not purchased"); return }
        #expect(back.offer == TransactionOffer(type: .winBack, id: Self.byTheRules))
    }
}
