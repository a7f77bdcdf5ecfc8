import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// Promotional offers redeemed at purchase: the signature checked against the catalog's key, the offer's
/// price and periods charged and signed, and every way a bad offer is refused without charging anything.
@Suite struct PromotionalOfferTests {
    let folder = TemporaryDirectory()
    let clock = TestClock()
    static let gold = "com.iosiap.example.club_gold_monthly"
    static let silver = "com.iosiap.example.club_silver_monthly"
    static let coins = "com.iosiap.example.coins_100"
    static let winBack = "club_gold_winback"
    static let silverTwoMonths = "club_silver_two_months"

    func open(catalog: Catalog? = nil) async throws -> (LocalStore, PurchaseStore) {
        let clock = self.clock
        let local = try LocalStore(catalog: catalog ?? Catalog.load(contentsOf: Fixtures.exampleCatalog),
                                   stateDirectory: folder.state, now: { clock.now })
        try local.setTimeRate(.monthlyRenewalEveryFiveMinutes)  // a month is 300 s, a week 70 s
        let store = try PurchaseStore(backend: local, stateDirectory: folder.state, now: { clock.now })
        _ = try await store.pollUntilTerminal(of: try store.requestProducts([Self.gold, Self.silver, Self.coins]))
        return (local, store)
    }

    /// Subscribes to gold (its free week), lets it lapse with auto-renew off, and returns the first transaction.
    func lapsedSubscriber(_ local: LocalStore, _ store: PurchaseStore) async throws -> StoreTransaction {
        let first = try await buy(store, PaymentRequest(productID: Self.gold))
        try local.setAutoRenew(productID: Self.gold, enabled: false)
        clock.advance(by: 71)
        _ = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        #expect(try !store.isEntitled(to: Self.gold))
        return first
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

    @Test func aLapsedSubscriberPaysTheOfferPriceForItsPeriodsThenTheFullPrice() async throws {
        let (local, store) = try await open()
        _ = try await lapsedSubscriber(local, store)
        let token = UUID()
        let offer = try local.signPromotionalOffer(productID: Self.gold, offerID: Self.winBack, appAccountToken: token)
        let redeemed = try await buy(store, PaymentRequest(productID: Self.gold, appAccountToken: token, promotionalOffer: offer))
        #expect(redeemed.offer == TransactionOffer(type: .promotional, id: Self.winBack))
        #expect(redeemed.expirationDate == clock.now.addingTimeInterval(300))  // one pay-as-you-go period
        let verifier = try local.makeVerifier()
        let payload = try verifier.verifyTransaction(try #require(redeemed.signedJWS))
        #expect(payload.offerType == 2 && payload.offerIdentifier == Self.winBack)
        #expect(payload.offerDiscountType == "PAY_AS_YOU_GO" && payload.offerPeriod == "P1M" && payload.price == 990)
        #expect(payload.appAccountToken == token.uuidString.lowercased())
        let renewalInfo = try verifier.verifyRenewalInfo(try #require(redeemed.signedRenewalInfo))
        #expect(renewalInfo.offerIdentifier == Self.winBack && renewalInfo.renewalPrice == 990)

        // Three offer periods in all (the purchase and two renewals), then the regular price.
        clock.advance(by: 3 * 300 + 1)
        var renewals: [StoreTransaction] = []
        for _ in 0..<20 where renewals.count < 3 {
            for case .purchased(nil, let renewal) in await store.pollSettled(after: local) { renewals.append(renewal) }
        }
        #expect(renewals.map(\.offer) == [redeemed.offer, redeemed.offer, nil])
        let prices = try renewals.map { try verifier.verifyTransaction(try #require($0.signedJWS)).price }
        #expect(prices == [990, 990, 9990])
        #expect(renewals.allSatisfy { $0.originalID == redeemed.originalID && $0.reason == .renewal })
    }

    @Test func anActiveSubscribersOfferAppliesFromTheNextRenewal() async throws {
        let (local, store) = try await open()
        let first = try await buy(store, PaymentRequest(productID: Self.gold))  // the free week
        let offer = try local.signPromotionalOffer(productID: Self.gold, offerID: Self.winBack)
        let answered = try await buy(store, PaymentRequest(productID: Self.gold, promotionalOffer: offer))
        #expect(answered.id == first.id)  // nothing charged now
        #expect(try local.allTransactions().count == 1)
        let renewalInfo = try local.makeVerifier().verifyRenewalInfo(try #require(answered.signedRenewalInfo))
        #expect(renewalInfo.offerType == 2 && renewalInfo.offerIdentifier == Self.winBack && renewalInfo.renewalPrice == 990)

        clock.advance(by: 71)
        let events = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        guard case .purchased(nil, let renewal) = events.last else { Issue.record("\(events)"); return }
        #expect(renewal.offer == TransactionOffer(type: .promotional, id: Self.winBack) && renewal.reason == .renewal)
        #expect(renewal.expirationDate == first.expirationDate?.addingTimeInterval(300))
    }

    @Test func aDowngradeTakesItsOfferToTheRenewal() async throws {
        let (local, store) = try await open()
        let gold = try await buy(store, PaymentRequest(productID: Self.gold))
        let offer = try local.signPromotionalOffer(productID: Self.silver, offerID: Self.silverTwoMonths)
        let answered = try await buy(store, PaymentRequest(productID: Self.silver, promotionalOffer: offer))
        #expect(answered.id == gold.id)  // gold stays until its period ends
        let renewalInfo = try local.makeVerifier().verifyRenewalInfo(try #require(answered.signedRenewalInfo))
        #expect(renewalInfo.autoRenewProductId == Self.silver && renewalInfo.offerIdentifier == Self.silverTwoMonths)
        #expect(renewalInfo.offerDiscountType == "PAY_UP_FRONT" && renewalInfo.renewalPrice == 6990)

        clock.advance(by: 71)
        let events = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        guard case .purchased(nil, let silver) = events.last else { Issue.record("\(events)"); return }
        #expect(silver.productID == Self.silver && silver.offer == TransactionOffer(type: .promotional, id: Self.silverTwoMonths))
        #expect(silver.expirationDate == gold.expirationDate?.addingTimeInterval(600))  // two months, paid up front
        // Gold's offer cannot be redeemed for silver.
        let goldOffer = try local.signPromotionalOffer(productID: Self.gold, offerID: Self.winBack)
        #expect(thrownCode { try store.requestPayment(PaymentRequest(productID: Self.silver, promotionalOffer: goldOffer)) }
                == .invalidOfferIdentifier)
    }

    @Test func aUserWhoNeverSubscribedIsNotEligible() async throws {
        let (local, store) = try await open()
        let offer = try local.signPromotionalOffer(productID: Self.gold, offerID: Self.winBack)
        let error = try await failure(store, PaymentRequest(productID: Self.gold, promotionalOffer: offer))
        #expect(error?.code == .ineligibleForOffer)
        #expect(try local.allTransactions().isEmpty)
        // The refused attempt did not use the nonce up: once eligible, the same signature works.
        _ = try await lapsedSubscriber(local, store)
        let redeemed = try await buy(store, PaymentRequest(productID: Self.gold, promotionalOffer: offer))
        #expect(redeemed.offer?.id == Self.winBack)
    }

    @Test func aForgedOrMisusedSignatureIsRefusedAndChargesNothing() async throws {
        let (local, store) = try await open()
        _ = try await lapsedSubscriber(local, store)
        let token = UUID()
        let genuine = try local.signPromotionalOffer(productID: Self.gold, offerID: Self.winBack, appAccountToken: token)
        var flipped = genuine.signature
        flipped[flipped.count - 1] ^= 1
        let otherKey = try PromotionalOfferSigner(privateKey: Self.otherKey, keyID: genuine.keyID, bundleID: local.bundleID)
        let attempts: [(String, PaymentRequest)] = [
            ("a changed signature byte", PaymentRequest(productID: Self.gold, appAccountToken: token, promotionalOffer: SignedPromotionalOffer(
                offerID: genuine.offerID, keyID: genuine.keyID, nonce: genuine.nonce, timestamp: genuine.timestamp, signature: flipped))),
            ("another account token", PaymentRequest(productID: Self.gold, appAccountToken: UUID(), promotionalOffer: genuine)),
            ("no account token", PaymentRequest(productID: Self.gold, promotionalOffer: genuine)),
            ("another nonce", PaymentRequest(productID: Self.gold, appAccountToken: token, promotionalOffer: SignedPromotionalOffer(
                offerID: genuine.offerID, keyID: genuine.keyID, nonce: UUID(), timestamp: genuine.timestamp, signature: genuine.signature))),
            ("another key id", PaymentRequest(productID: Self.gold, appAccountToken: token, promotionalOffer: SignedPromotionalOffer(
                offerID: genuine.offerID, keyID: "00000000", nonce: genuine.nonce, timestamp: genuine.timestamp, signature: genuine.signature))),
            ("another key", PaymentRequest(productID: Self.gold, appAccountToken: token, promotionalOffer: try otherKey.sign(
                productID: Self.gold, offerID: Self.winBack, appAccountToken: token, timestamp: clock.now))),
        ]
        for (what, request) in attempts {
            let error = try await failure(store, request)
            #expect(error?.code == .invalidSignature, "\(what): \(String(describing: error))")
        }
        #expect(try local.allTransactions().count == 1)  // only the first subscription
        // The genuine one still works, once.
        _ = try await buy(store, PaymentRequest(productID: Self.gold, appAccountToken: token, promotionalOffer: genuine))
        try local.expireSubscription(productID: Self.gold)
        let replay = try await failure(store, PaymentRequest(productID: Self.gold, appAccountToken: token, promotionalOffer: genuine))
        #expect(replay?.code == .invalidSignature && replay?.message.contains("already redeemed") == true)
    }

    @Test func aSignatureIsGoodFor24Hours() async throws {
        let (local, store) = try await open()
        _ = try await lapsedSubscriber(local, store)
        let offer = try local.signPromotionalOffer(productID: Self.gold, offerID: Self.winBack)
        clock.advance(by: 24 * 3600 + 1)
        let error = try await failure(store, PaymentRequest(productID: Self.gold, promotionalOffer: offer))
        #expect(error?.code == .invalidSignature && error?.message.contains("24 hours") == true)
        #expect(try local.allTransactions().count == 1)
    }

    @Test func badOfferParametersAreRefusedBeforeTheStore() async throws {
        let (local, store) = try await open()
        let offer = try local.signPromotionalOffer(productID: Self.gold, offerID: Self.winBack)
        func with(offerID: String = Self.winBack, keyID: String? = nil, timestamp: Int64? = nil, signature: Data? = nil) -> SignedPromotionalOffer {
            SignedPromotionalOffer(offerID: offerID, keyID: keyID ?? offer.keyID, nonce: offer.nonce,
                                   timestamp: timestamp ?? offer.timestamp, signature: signature ?? offer.signature)
        }
        let cases: [(PaymentRequest, StoreErrorCode)] = [
            (PaymentRequest(productID: Self.gold, promotionalOffer: with(offerID: "")), .missingOfferParams),
            (PaymentRequest(productID: Self.gold, promotionalOffer: with(keyID: "")), .missingOfferParams),
            (PaymentRequest(productID: Self.gold, promotionalOffer: with(timestamp: 0)), .missingOfferParams),
            (PaymentRequest(productID: Self.gold, promotionalOffer: with(signature: Data())), .missingOfferParams),
            (PaymentRequest(productID: Self.gold, promotionalOffer: with(offerID: "no_such_offer")), .invalidOfferIdentifier),
            (PaymentRequest(productID: Self.gold, promotionalOffer: with(offerID: String(repeating: "o", count: 256))), .stringTooLong),
            (PaymentRequest(productID: Self.coins, promotionalOffer: offer), .invalidOfferIdentifier),
        ]
        for (request, code) in cases {
            #expect(thrownCode { try store.requestPayment(request) } == code)
        }
        #expect(await store.pollSettled(after: local).isEmpty)
        #expect(try local.allTransactions().isEmpty)
    }

    @Test func askToBuyKeepsTheOfferUntilTheParentApproves() async throws {
        let (local, store) = try await open()
        _ = try await lapsedSubscriber(local, store)
        try local.setAskToBuyEnabled(true)
        let offer = try local.signPromotionalOffer(productID: Self.gold, offerID: Self.winBack)
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(PaymentRequest(productID: Self.gold, promotionalOffer: offer)))
        guard case .deferred = events.last else { Issue.record("\(events)"); return }
        let pending = try #require(try local.pendingPurchases().first)
        #expect(pending.offerID == Self.winBack)
        try local.approveAskToBuy(pending.id)
        let approved = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        guard case .purchased(nil, let transaction) = approved.last else { Issue.record("\(approved)"); return }
        #expect(transaction.offer == TransactionOffer(type: .promotional, id: Self.winBack))
        #expect(try local.makeVerifier().verifyTransaction(try #require(transaction.signedJWS)).price == 990)
    }

    @Test func aCatalogWithoutAnOfferKeyRefusesOffersWithAReason() async throws {
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.exampleCatalog)) as! [String: Any]
        json["subscriptionOffersKeyPair"] = nil
        let keyless = try Catalog(data: try JSONSerialization.data(withJSONObject: json), fileName: "keyless.storekit")
        let (local, store) = try await open(catalog: keyless)
        _ = try await lapsedSubscriber(local, store)
        #expect(thrownCode { _ = try local.signPromotionalOffer(productID: Self.gold, offerID: Self.winBack) } == .wrongState)
        let forged = try PromotionalOfferSigner(privateKey: Self.otherKey, keyID: "6C3F0A92", bundleID: local.bundleID)
            .sign(productID: Self.gold, offerID: Self.winBack, timestamp: clock.now)
        let error = try await failure(store, PaymentRequest(productID: Self.gold, promotionalOffer: forged))
        #expect(error?.code == .invalidSignature && error?.message.contains("subscriptionOffersKeyPair") == true)
    }

    @Test func aMalformedOfferKeyIsACatalogErrorNamingTheKey() throws {
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.exampleCatalog)) as! [String: Any]
        for bad in ["not base64!", "AAAA", Self.rsaKey] {
            json["subscriptionOffersKeyPair"] = ["id": "6C3F0A92", "privateKey": bad]
            let data = try JSONSerialization.data(withJSONObject: json)
            #expect {
                _ = try Catalog(data: data, fileName: "bad.storekit")
            } throws: { error in
                let error = error as? StoreError
                return error?.code == .invalidCatalog && error?.message.contains(".subscriptionOffersKeyPair.privateKey") == true
            }
        }
    }

    @Test func aRefundKeepsTheOfferInTheReSignedTransaction() async throws {
        let (local, store) = try await open()
        let trial = try await buy(store, PaymentRequest(productID: Self.gold))
        #expect(trial.offer == TransactionOffer(type: .introductory, id: nil))
        let refunded = try local.refund(transactionID: trial.id)
        let payload = try local.makeVerifier().verifyTransaction(try #require(refunded.signedJWS))
        #expect(payload.offerType == 1 && payload.offerDiscountType == "FREE_TRIAL" && payload.price == 0)
        #expect(payload.revocationDate != nil)
    }

    /// A P-256 key that is not the catalog's (PKCS#8, base64).
    static let otherKey = "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgIDxKuNzXIlcCKaJGfV6wU1T1AN93I0z4qaKh4vHW2bahRANCAASR/tnmcPud6undFEIlN+MJ1cIAPUmG9UwamtJgfpqIJjzyKZvxAfXHRqM2i/jgNwCY+kNLSTbvp1BcVJLdpUgt"
    /// An RSA key: PKCS#8, but not the P-256 key offers are signed with.
    static let rsaKey = "MIICeAIBADANBgkqhkiG9w0BAQEFAASCAmIwggJeAgEAAoGBAL79m6Ta9bwqtDANh6WBK85G87o743yfh8Thh4Uh3U4NdttBRoDe6ZAcrXRHcjJZEJCr6JIo/NlXWIgNiOOW92DYGlMxdgH0BVyoqFJGniX5H1lOyjt3ErYYsUuS64wCcaHl28T+fnfKf96xX681IbZyN9cjTwscoNGMOQCGfcbtAgMBAAECgYEAmRXKFZ9z7DkGaKXPnjclF5gDb7jlJFTyjDqBV5LHQfLE3AU8L7t81ohF97f0rqp4/pzsM4sq8EJ0sci3ekTdTp310nRWoIXJPl6fIY+CxNkkqq1RTrWOSaRydRfP24oYBHxlaf++gyGXfejJGAIwTvhX1oidISkRACYoQVLQqQECQQDlJTHwIq1CzRLm2U4K+/2SzTgzOUSUbf6lZO7moFvRKSpMHfVeJqDIeRqzuxgLN3u0egHtTdvY4oL/53SWy6NhAkEA1V+zE5GW2gLsbpfCzyjY5TeH+cExBVZTsC0nqyYQ2NU6UgFiPfJSk9Xvvi0yqviPtfCtfZE+XInacr2uJvNbDQJAUp/BzPPEA7VMXn72nBFW0qs624WHy/mJe3vUhMZHtTihrsaSpftJuF+qmCobNlgwO9hOf5G2dxLd54Y+zOzqoQJBAJvUy500C97mmbPfRBg1dcpZtwXxURLbzDzzjXASWeVyPKideBlTu3lamj/jFIkHBTXUM3BsPgYpa4+29dRekJUCQQDCV4LSepWZe05K9W0Tion4FWRdhRbFztnDzd5hxqx7RKV3QsDZYRe76wFjhjhN8q/wR0X2E3QjG7kyZ5ZWiiux"
}
