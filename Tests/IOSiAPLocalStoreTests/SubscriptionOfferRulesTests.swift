import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// Offer codes and win-back offers in the local store: read from the catalog, redeemed (a code from
/// outside the game, a win-back offer by a payment), charged at the offer's price and signed with offer
/// type 3 or 4 and the offer's id; a user the offer is not for is refused and nothing is charged.
@Suite struct SubscriptionOfferRulesTests {
    let folder = TemporaryDirectory()
    let clock = TestClock()
    static let gold = "com.iosiap.example.club_gold_monthly"
    static let newCode = "gold_three_months_new"
    static let expiredCode = "gold_free_month_back"
    static let existingCode = "gold_free_month_existing"
    static let winBack = "gold_half_price_back"
    static let loyalWinBack = "gold_for_the_loyal"

    /// The example catalog with offer codes and win-back offers on club gold (9.99 a month, a free week first).
    static func catalog() throws -> Catalog {
        try ExampleCatalog.with([
            "codeOffers": [
                ["referenceName": newCode, "eligibility": ["new"], "internalID": "C0DE0001", "isStackable": false,
                 "paymentMode": "payUpFront", "displayPrice": "4.99", "subscriptionPeriod": "P3M", "numberOfPeriods": 1],
                ["referenceName": expiredCode, "eligibility": ["expired"], "internalID": "C0DE0002", "isStackable": true,
                 "paymentMode": "free", "subscriptionPeriod": "P1M", "numberOfPeriods": 1],
                ["referenceName": existingCode, "eligibility": ["existing"], "internalID": "C0DE0003", "isStackable": false,
                 "paymentMode": "free", "subscriptionPeriod": "P1M", "numberOfPeriods": 1],
            ],
            "winbackOffers": [
                ["offerID": winBack, "referenceName": "Half price back", "internalID": "B4CC0001", "paymentMode": "payAsYouGo",
                 "displayPrice": "4.99", "subscriptionPeriod": "P1M", "numberOfPeriods": 2],
                ["offerID": loyalWinBack, "referenceName": "For the loyal", "internalID": "B4CC0002", "paymentMode": "free",
                 "subscriptionPeriod": "P1M", "numberOfPeriods": 1,
                 "customerEligibilityPaidSubscriptionDurationInMonths": 6,
                 "customerEligibilityTimeSinceLastSubscribedInMonths": ["minimum": 0, "maximum": 12]],
            ],
        ], onSubscription: gold, fileName: "offers.storekit")
    }

    func open() async throws -> (LocalStore, PurchaseStore) {
        try await ExampleCatalog.open(Self.catalog(), in: folder, clock: clock, loading: Self.gold)
    }

    /// The transaction manager's connection to the game's state directory (another process in real use).
    func manager() throws -> LocalStore {
        let clock = self.clock
        return try LocalStore(catalog: Self.catalog(), stateDirectory: folder.state, now: { clock.now })
    }

    func buy(_ store: PurchaseStore, _ request: PaymentRequest) async throws -> StoreTransaction {
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(request))
        guard case .purchased(_, let transaction) = events.last else { throw EventTimeout(description: "\(events)") }
        try store.finish(transactionID: transaction.id)
        return transaction
    }

    func failure(_ store: PurchaseStore, _ request: PaymentRequest) async throws -> StoreError? {
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(request))
        guard case .failed(_, _, let error) = events.last else { return nil }
        return error
    }

    /// Subscribes to gold (its free week, then a paid month), lets it lapse, and returns the last transaction.
    func lapsedSubscriber(_ local: LocalStore, _ store: PurchaseStore) async throws {
        _ = try await buy(store, PaymentRequest(productID: Self.gold))
        clock.advance(by: 71)  // renews into a paid month
        _ = try await store.pollUntil { if case .purchased(nil, _) = $0 { true } else { false } }
        try local.setAutoRenew(productID: Self.gold, enabled: false)
        clock.advance(by: 301)
        _ = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        #expect(try !store.isEntitled(to: Self.gold))
    }

    // MARK: - Catalog

    @Test(.needsSharedFixtures) func codeOffersAreReadFromARealFile() throws {
        let catalog = try Catalog.load(contentsOf: Fixtures.storeKitFile(
            "revenuecat-purchases-ios_PurchaseTesterStoreKitConfiguration_v3.0_codeOffers.storekit"))
        let p1 = try #require(catalog.product(id: "P1")?.subscription)
        #expect(p1.codeOffers.map(\.terms.id) == ["deema-offer-code", "deema-offer-code-existing-subs",
                                                   "deema-offer-code-expired-subs-no-intro"])
        #expect(p1.codeOffers[0].eligibility == [.new, .existing, .expired] && p1.codeOffers[0].isStackable)
        #expect(p1.codeOffers[1].eligibility == [.existing])
        let expired = p1.codeOffers[2]
        #expect(expired.eligibility == [.expired] && expired.terms.paymentMode == .payAsYouGo)
        #expect(expired.terms.price == Decimal(string: "0.99") && expired.terms.periodCount == 5
                && expired.terms.period == StoreSubscriptionPeriod(value: 1, unit: .week))
        #expect(p1.winBackOffers.isEmpty)
    }

    @Test func winBackOffersAreReadWithTheirEligibility() throws {
        let gold = try #require(try Self.catalog().product(id: Self.gold)?.subscription)
        #expect(gold.winBackOffers.map(\.terms.id) == [Self.winBack, Self.loyalWinBack])
        #expect(gold.winBackOffers[0].terms.price == Decimal(string: "4.99") && gold.winBackOffers[0].terms.periodCount == 2)
        #expect(gold.winBackOffers[1].minimumPaidMonths == 6 && gold.winBackOffers[1].monthsSinceLastSubscribed == 0...12)
    }

    @Test func theFuzzSeedWithEveryWinBackRuleIsRead() throws {
        let seed = Fixtures.repositoryRoot.appendingPathComponent("Tests/Fuzz/corpus/catalog/subscription-offers.storekit")
        let monthly = try #require(try Catalog.load(contentsOf: seed).product(id: "monthly")?.subscription)
        #expect(monthly.codeOffers.first?.eligibility == [.new, .expired])
        let winBack = try #require(monthly.winBackOffers.first)
        #expect(winBack.minimumPaidMonths == 6 && winBack.monthsSinceLastSubscribed == 2...24 && winBack.monthsBetweenOffers == 2)
    }

    @Test func aBadOfferIsACatalogErrorNamingItsKey() throws {
        func reading(_ change: (inout [String: Any]) -> Void) throws -> String? {
            var json = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.exampleCatalog)) as! [String: Any]
            var groups = json["subscriptionGroups"] as! [[String: Any]]
            var subscriptions = groups[0]["subscriptions"] as! [[String: Any]]
            change(&subscriptions[0])
            groups[0]["subscriptions"] = subscriptions
            json["subscriptionGroups"] = groups
            do {
                _ = try Catalog(data: try JSONSerialization.data(withJSONObject: json), fileName: "bad.storekit")
                return nil
            } catch let error as StoreError {
                return error.code == .invalidCatalog ? error.message : nil
            }
        }
        let code: [String: Any] = ["referenceName": "c", "eligibility": ["lapsed"], "paymentMode": "free", "subscriptionPeriod": "P1M"]
        #expect(try reading { $0["codeOffers"] = [code] }?.contains(".codeOffers[0].eligibility[0]") == true)
        var nameless = code
        nameless["referenceName"] = nil
        nameless["eligibility"] = ["new"]
        #expect(try reading { $0["codeOffers"] = [nameless] }?.contains(".codeOffers[0].referenceName") == true)
        let winBack: [String: Any] = ["offerID": "w", "paymentMode": "free", "subscriptionPeriod": "P1M",
                                      "customerEligibilityPaidSubscriptionDurationInMonths": 100_000]
        #expect(try reading { $0["winbackOffers"] = [winBack] }?
            .contains(".winbackOffers[0].customerEligibilityPaidSubscriptionDurationInMonths") == true)
        var endless = code
        endless["eligibility"] = ["new"]
        endless["numberOfPeriods"] = 1_000_000_000  // would make a charge compute a billion periods
        #expect(try reading { $0["codeOffers"] = [endless] }?.contains(".codeOffers[0].numberOfPeriods") == true)
    }

    // MARK: - Offer codes

    @Test func aCodeRedeemedOutsideTheGameArrivesAsAPurchaseWithOfferType3() async throws {
        let (local, store) = try await open()
        let manager = try manager()
        defer { manager.close() }
        let redeemed = try manager.redeemOfferCode(productID: Self.gold, referenceName: Self.newCode)
        #expect(redeemed.offer == TransactionOffer(type: .offerCode, id: Self.newCode))
        #expect(redeemed.expirationDate == clock.now.addingTimeInterval(900))  // three months, paid up front

        let events = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        guard case .purchased(nil, let received) = events.last else { Issue.record("\(events)"); return }
        #expect(received.id == redeemed.id && received.offer == TransactionOffer(type: .offerCode, id: Self.newCode))
        let payload = try local.makeVerifier().verifyTransaction(try #require(received.signedJWS))
        #expect(payload.offerType == 3 && payload.offerIdentifier == Self.newCode)
        #expect(payload.price == 4990 && payload.offerDiscountType == "PAY_UP_FRONT" && payload.offerPeriod == "P3M")
        #expect(try store.isEntitled(to: Self.gold))
    }

    @Test func aCodeRedeemedThroughTheSwiftControlReachesTheGame() async throws {
        let (local, store) = try await open()
        try await lapsedSubscriber(local, store)
        let redeemed = try local.redeemOfferCode(productID: Self.gold, referenceName: Self.expiredCode)
        let events = try await store.pollUntil { if case .purchased(nil, let t) = $0 { t.id == redeemed.id } else { false } }
        guard case .purchased(nil, let received) = events.last else { Issue.record("\(events)"); return }
        #expect(received.offer == TransactionOffer(type: .offerCode, id: Self.expiredCode))
        #expect(try local.makeVerifier().verifyTransaction(try #require(received.signedJWS)).price == 0)
    }

    @Test func theOfferCodeSheetIsRecordedOrFailsWithTheSimulatedError() async throws {
        let (local, store) = try await open()
        try store.presentOfferCodeRedeemSheet()
        #expect(local.offerCodeRedeemSheetRequests == 1)
        try local.setSimulatedError(.storeUnreachable, for: .offerCodeRedeem)
        #expect(thrownCode { try store.presentOfferCodeRedeemSheet() } == .storeUnreachable)
        #expect(local.offerCodeRedeemSheetRequests == 1)
    }

    @Test func aCodeForOtherSubscribersIsRefusedAndChargesNothing() async throws {
        let (local, store) = try await open()
        #expect(thrownCode { try local.redeemOfferCode(productID: Self.gold, referenceName: Self.expiredCode) } == .ineligibleForOffer)
        #expect(thrownCode { try local.redeemOfferCode(productID: Self.gold, referenceName: Self.existingCode) } == .ineligibleForOffer)
        #expect(thrownCode { try local.redeemOfferCode(productID: Self.gold, referenceName: "no_such_code") } == .invalidOfferIdentifier)
        #expect(thrownCode { try local.redeemOfferCode(productID: "com.iosiap.example.coins_100", referenceName: Self.newCode) }
                == .invalidOfferIdentifier)
        #expect(try local.allTransactions().isEmpty)
        _ = try await buy(store, PaymentRequest(productID: Self.gold))
        #expect(thrownCode { try local.redeemOfferCode(productID: Self.gold, referenceName: Self.newCode) } == .ineligibleForOffer)
        #expect(try local.allTransactions().count == 1)
    }

    /// Whether a code is for this user is decided after the renewals due: a subscriber whose period ended a moment
    /// ago, with nothing ticking since (no game listens to this connection), has renewed and is an existing one.
    @Test func aCodeIsJudgedAfterTheRenewalsDue() async throws {
        let (local, store) = try await open()
        let first = try await buy(store, PaymentRequest(productID: Self.gold))
        store.close()
        local.close()
        clock.advance(by: 71)  // past the free week: a renewal is due, and nothing has looked
        let manager = try manager()
        defer { manager.close() }
        let answered = try manager.redeemOfferCode(productID: Self.gold, referenceName: Self.existingCode)
        #expect(answered.originalID == first.id && answered.id != first.id)  // the renewal, the code for the next one
        #expect(thrownCode { try manager.redeemOfferCode(productID: Self.gold, referenceName: Self.expiredCode) } == .ineligibleForOffer)
    }

    @Test func anExistingSubscribersCodeAppliesFromTheNextRenewal() async throws {
        let (local, store) = try await open()
        let first = try await buy(store, PaymentRequest(productID: Self.gold))
        let answered = try local.redeemOfferCode(productID: Self.gold, referenceName: Self.existingCode)
        #expect(answered.id == first.id)
        #expect(try local.allTransactions().count == 1)
        let renewalInfo = try local.makeVerifier().verifyRenewalInfo(try #require(answered.signedRenewalInfo))
        #expect(renewalInfo.offerType == 3 && renewalInfo.offerIdentifier == Self.existingCode && renewalInfo.renewalPrice == 0)
        clock.advance(by: 71)
        let events = try await store.pollUntil { if case .purchased(nil, let t) = $0 { t.id != first.id } else { false } }
        guard case .purchased(nil, let renewal) = events.last else { Issue.record("\(events)"); return }
        #expect(renewal.offer == TransactionOffer(type: .offerCode, id: Self.existingCode) && renewal.reason == .renewal)
    }

    // MARK: - Win-back offers

    @Test func productsExposeTheirWinBackOffers() async throws {
        let (_, store) = try await open()
        let gold = try #require(store.product(id: Self.gold)?.subscription)
        #expect(gold.winBackOffers.map(\.id) == [Self.winBack, Self.loyalWinBack])
        #expect(gold.winBackOffers[0].price == Decimal(string: "4.99") && gold.winBackOffers[0].periodCount == 2)
    }

    @Test func anEndedSubscriptionsRenewalInfoListsTheWinBackOffersItsUserMayRedeem() async throws {
        let (local, store) = try await open()
        _ = try await buy(store, PaymentRequest(productID: Self.gold))
        try local.setAutoRenew(productID: Self.gold, enabled: false)
        clock.advance(by: 71)
        let events = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        guard case .expired(let ended) = events.last else { Issue.record("\(events)"); return }
        let renewalInfo = try local.makeVerifier().verifyRenewalInfo(try #require(ended.signedRenewalInfo))
        #expect(renewalInfo.eligibleWinBackOfferIds == [Self.winBack])  // not the loyal one: no six paid months
    }

    @Test func aLapsedSubscriberRedeemsAWinBackOfferAtItsPrice() async throws {
        let (local, store) = try await open()
        try await lapsedSubscriber(local, store)
        let redeemed = try await buy(store, PaymentRequest(productID: Self.gold, winBackOfferID: Self.winBack))
        #expect(redeemed.offer == TransactionOffer(type: .winBack, id: Self.winBack))
        #expect(redeemed.expirationDate == clock.now.addingTimeInterval(300))  // one pay-as-you-go period
        let verifier = try local.makeVerifier()
        let payload = try verifier.verifyTransaction(try #require(redeemed.signedJWS))
        #expect(payload.offerType == 4 && payload.offerIdentifier == Self.winBack && payload.price == 4990)
        #expect(payload.offerDiscountType == "PAY_AS_YOU_GO")

        // Two offer periods in all (the purchase and one renewal), then the regular price.
        clock.advance(by: 2 * 300 + 1)
        var renewals: [StoreTransaction] = []
        for _ in 0..<20 where renewals.count < 2 {
            for case .purchased(nil, let renewal) in await store.pollSettled(after: local) { renewals.append(renewal) }
        }
        #expect(renewals.map(\.offer) == [redeemed.offer, nil])
        #expect(try renewals.map { try verifier.verifyTransaction(try #require($0.signedJWS)).price } == [4990, 9990])
    }

    @Test func anActiveOrNeverSubscribedUserIsRefusedAWinBackOffer() async throws {
        let (local, store) = try await open()
        let never = try await failure(store, PaymentRequest(productID: Self.gold, winBackOfferID: Self.winBack))
        #expect(never?.code == .ineligibleForOffer && never?.message.contains("never subscribed") == true)
        #expect(try local.allTransactions().isEmpty)

        _ = try await buy(store, PaymentRequest(productID: Self.gold))
        let active = try await failure(store, PaymentRequest(productID: Self.gold, winBackOfferID: Self.winBack))
        #expect(active?.code == .ineligibleForOffer && active?.message.contains("active") == true)
        #expect(try local.allTransactions().count == 1)
    }

    @Test func askToBuyKeepsTheWinBackOfferUntilTheParentApproves() async throws {
        let (local, store) = try await open()
        try await lapsedSubscriber(local, store)
        try local.setAskToBuyEnabled(true)
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(PaymentRequest(productID: Self.gold, winBackOfferID: Self.winBack)))
        guard case .deferred = events.last else { Issue.record("\(events)"); return }
        let approved = try local.approveAskToBuy(try #require(local.pendingPurchases().first).id)
        #expect(approved.offer == TransactionOffer(type: .winBack, id: Self.winBack))
        #expect(try local.makeVerifier().verifyTransaction(try #require(approved.signedJWS)).price == 4990)
    }

    @Test func theOffersRulesOfPaidMonthsApply() async throws {
        let (local, store) = try await open()
        try await lapsedSubscriber(local, store)  // one paid month; the offer needs six
        let error = try await failure(store, PaymentRequest(productID: Self.gold, winBackOfferID: Self.loyalWinBack))
        #expect(error?.code == .ineligibleForOffer && error?.message.contains("6 paid months") == true)
    }

    // MARK: - Win-back offers redeemed in the App Store (purchase intents)

    @Test func aWinBackOfferRedeemedInTheAppStoreReachesTheGameWhichPaysWithIt() async throws {
        let (local, store) = try await open()
        try await lapsedSubscriber(local, store)
        let manager = try manager()
        defer { manager.close() }
        try manager.requestPurchaseIntent(productID: Self.gold, offerID: Self.winBack)
        let events = try await store.pollUntil { if case .purchaseIntent = $0 { true } else { false } }
        guard case .purchaseIntent(let product, let offer) = events.last else { Issue.record("\(events)"); return }
        #expect(product.id == Self.gold && offer == TransactionOffer(type: .winBack, id: Self.winBack))
        let count = try local.allTransactions().count  // nothing charged until the game pays
        let paid = try await buy(store, PaymentRequest(productID: product.id, winBackOfferID: offer?.id))
        #expect(paid.offer == TransactionOffer(type: .winBack, id: Self.winBack))
        #expect(try local.allTransactions().count == count + 1)
    }

    @Test func anIntentWithoutAnOfferCarriesNone() async throws {
        let (local, store) = try await open()
        try local.requestPurchaseIntent(productID: Self.gold)
        let events = try await store.pollUntil { if case .purchaseIntent = $0 { true } else { false } }
        guard case .purchaseIntent(let product, let offer) = events.last else { Issue.record("\(events)"); return }
        #expect(product.id == Self.gold && offer == nil)
    }

    @Test func anIntentWithAnOfferTheUserCannotRedeemIsRefusedAndNothingIsStored() async throws {
        let (local, store) = try await open()
        func refusal(_ productID: String, _ offerID: String) -> StoreError? {
            do { try local.requestPurchaseIntent(productID: productID, offerID: offerID) } catch { return error }
            return nil
        }
        let unknown = refusal(Self.gold, "no_such_offer")
        #expect(unknown?.code == .invalidOfferIdentifier && unknown?.message.contains("no win-back offer 'no_such_offer'") == true)
        // A promotional offer: the App Store starts purchases with win-back offers only (Apple: PurchaseIntent.offer).
        #expect(refusal(Self.gold, "club_gold_winback")?.code == .invalidOfferIdentifier)
        #expect(refusal("com.iosiap.example.coins_100", Self.winBack)?.code == .invalidOfferIdentifier)
        #expect(refusal("com.iosiap.example.nope", Self.winBack)?.code == .unknownProduct)
        let never = refusal(Self.gold, Self.winBack)  // the App Store offers it to lapsed subscribers only
        #expect(never?.code == .ineligibleForOffer && never?.message.contains("never subscribed") == true)
        #expect(await store.pollSettled(after: local).isEmpty)
    }

    @Test func anUnknownWinBackOfferIsRefusedBeforeTheStore() async throws {
        let (_, store) = try await open()
        #expect(thrownCode { try store.requestPayment(PaymentRequest(productID: Self.gold, winBackOfferID: "nope")) }
                == .invalidOfferIdentifier)
    }
}
