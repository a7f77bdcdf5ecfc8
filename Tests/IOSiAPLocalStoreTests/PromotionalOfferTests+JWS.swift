import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// StoreKit 26's JWS forms in the local store: a promotional offer signed as a JWS and an introductory offer
/// eligibility JWS, checked as the App Store checks them, and every refusal ending in its status with nothing
/// charged and no nonce spent.
extension PromotionalOfferTests {
    /// The catalog's key (its id 6C3F0A92) under another key id, or for another bundle: what a server that
    /// got its configuration wrong signs with.
    func catalogKey(keyID: String = "6C3F0A92", bundleID: String = "com.example.game") throws -> PromotionalOfferSigner {
        let catalog = try Catalog.load(contentsOf: Fixtures.exampleCatalog)
        let key = try #require(catalog.promotionalOfferKey)
        return try PromotionalOfferSigner(privateKey: key.privateKey, keyID: keyID, bundleID: bundleID)
    }

    func transactionCount(_ local: LocalStore) throws -> Int { try local.allTransactions().count }

    @Test func aJWSOfferRedeemedCarriesTheOfferAndItsPrice() async throws {
        let (local, store) = try await open()
        let first = try await lapsedSubscriber(local, store)
        let jws = try local.signPromotionalOfferJWS(productID: Self.gold, offerID: Self.winBack, transactionID: String(first.id))
        let redeemed = try await buy(store, PaymentRequest(productID: Self.gold,
                                                           promotionalOfferJWS: PromotionalOfferJWS(offerID: Self.winBack, compactJWS: jws)))
        #expect(redeemed.offer == TransactionOffer(type: .promotional, id: Self.winBack))
        #expect(redeemed.expirationDate == clock.now.addingTimeInterval(300))  // one pay-as-you-go period
        let payload = try local.makeVerifier().verifyTransaction(try #require(redeemed.signedJWS))
        #expect(payload.offerType == 2 && payload.offerIdentifier == Self.winBack && payload.price == 990)
        #expect(payload.offerDiscountType == "PAY_AS_YOU_GO")

        // Without a transactionId, or naming the app transaction, it is as good.
        try local.expireSubscription(productID: Self.gold)
        let bare = try local.signPromotionalOfferJWS(productID: Self.gold, offerID: Self.winBack)
        _ = try await buy(store, PaymentRequest(productID: Self.gold, promotionalOfferJWS: PromotionalOfferJWS(offerID: Self.winBack, compactJWS: bare)))
        try local.expireSubscription(productID: Self.gold)
        let appTransactionID = try #require(try local.signAppTransaction().appTransactionID)
        let named = try local.signPromotionalOfferJWS(productID: Self.gold, offerID: Self.winBack, transactionID: appTransactionID)
        let last = try await buy(store, PaymentRequest(productID: Self.gold, promotionalOfferJWS: PromotionalOfferJWS(offerID: Self.winBack, compactJWS: named)))
        #expect(last.offer?.id == Self.winBack)
    }

    @Test func aJWSSignedAsAppleSpecifiesIt() throws {
        let local = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state)
        let jws = try local.signPromotionalOfferJWS(productID: Self.gold, offerID: Self.winBack, transactionID: "42")
        #expect(try Self.segment(jws, 0) as? [String: String] == ["alg": "ES256", "kid": "6C3F0A92", "typ": "JWT"])
        let claims = try Self.segment(jws, 1)
        #expect(Set(claims.keys) == ["bid", "iss", "aud", "iat", "nonce", "productId", "offerIdentifier", "transactionId"])
        #expect(claims["aud"] as? String == "promotional-offer" && claims["bid"] as? String == "com.example.game")
        #expect(claims["iss"] as? String == "00000000-0000-0000-0000-000000000000" && claims["transactionId"] as? String == "42")
        let nonce = try #require(claims["nonce"] as? String)
        #expect(UUID(uuidString: nonce) != nil && nonce == nonce.lowercased())
        let intro = try Self.segment(try local.signIntroductoryOfferEligibility(productID: Self.gold, allow: false, transactionID: "42"), 1)
        #expect(intro["aud"] as? String == "introductory-offer-eligibility" && intro["allowIntroductoryOffer"] as? Bool == false)
        #expect(intro["offerIdentifier"] == nil && intro["transactionId"] as? String == "42")
    }

    /// Part `index` of a compact JWS, decoded as a JSON object.
    static func segment(_ jws: String, _ index: Int) throws -> [String: Any] {
        let text = String(jws.split(separator: ".")[index]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let data = try #require(Data(base64Encoded: text + String(repeating: "=", count: (4 - text.count % 4) % 4)))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func everyBadJWSOfferIsRefusedWithItsReasonAndChargesNothing() async throws {
        let (local, store) = try await open()
        let first = try await lapsedSubscriber(local, store)
        let catalogKey = try catalogKey()
        let now = clock.now
        func offer(_ jws: String, offerID: String = Self.winBack) -> PaymentRequest {
            PaymentRequest(productID: Self.gold, promotionalOfferJWS: PromotionalOfferJWS(offerID: offerID, compactJWS: jws))
        }
        func signed(by signer: PromotionalOfferSigner? = nil, product: String = Self.gold, offerID: String = Self.winBack,
                    transactionID: String? = nil, issuer: String = "issuer", at date: Date? = nil) throws -> String {
            try (signer ?? catalogKey).signPromotionalOfferJWS(productID: product, offerID: offerID, transactionID: transactionID,
                                                               issuerID: issuer, issuedAt: date ?? now)
        }
        let otherKey = try PromotionalOfferSigner(privateKey: Self.otherKey, keyID: "6C3F0A92", bundleID: local.bundleID)
        let genuine = try signed()
        var forged = Array(genuine.utf8)
        forged[forged.count - 2] = forged[forged.count - 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let attempts: [(String, PaymentRequest, StoreErrorCode, String)] = [
            ("wrong kid", offer(try signed(by: try self.catalogKey(keyID: "0000AAAA"))), .invalidSignature, "names key '0000AAAA'"),
            ("bad signature", offer(try signed(by: otherKey)), .invalidSignature, "does not verify"),
            ("a changed signature byte", offer(String(decoding: forged, as: UTF8.self)), .invalidSignature, "does not verify"),
            ("wrong aud", offer(try local.signIntroductoryOfferEligibility(productID: Self.gold, allow: true, transactionID: String(first.id))),
             .invalidSignature, "aud 'introductory-offer-eligibility'"),
            ("wrong bid", offer(try signed(by: try self.catalogKey(bundleID: "com.example.other"))), .invalidSignature, "com.example.other"),
            ("wrong product", offer(try signed(product: Self.silver)), .invalidSignature, "product '\(Self.silver)'"),
            ("unknown offer", offer(try signed(offerID: "no_such_offer")), .invalidSignature, "offer 'no_such_offer'"),
            ("stale iat", offer(try signed(at: now.addingTimeInterval(-24 * 3600 - 1))), .invalidSignature, "24 hours ago"),
            ("future iat", offer(try signed(at: now.addingTimeInterval(24 * 3600 + 1))), .invalidSignature, "24 hours ahead"),
            ("unknown transactionId", offer(try signed(transactionID: "987654321")), .invalidSignature, "transactionId '987654321'"),
            // The user's own transaction id, written as no App Store id is: a sign or a leading zero names nothing.
            ("a signed transactionId", offer(try signed(transactionID: "+\(first.id)")), .invalidSignature, "transactionId '+\(first.id)'"),
            ("a zero-padded transactionId", offer(try signed(transactionID: "0\(first.id)")), .invalidSignature, "transactionId '0\(first.id)'"),
            ("no iss", offer(try signed(issuer: "")), .invalidSignature, "no iss"),
            ("malformed", offer("not a JWS"), .invalidSignature, "malformed"),
            ("malformed base64", offer("a.b!.c"), .invalidSignature, "malformed"),
        ]
        for (what, request, code, reason) in attempts {
            let error = try await failure(store, request)
            #expect(error?.code == code && error?.message.contains(reason) == true, "\(what): \(String(describing: error))")
        }
        #expect(try transactionCount(local) == 1)  // only the first subscription

        // The genuine one works, once; again it is refused, and so is another JWS with its nonce.
        _ = try await buy(store, offer(genuine))
        try local.expireSubscription(productID: Self.gold)
        let replay = try await failure(store, offer(genuine))
        #expect(replay?.code == .invalidSignature && replay?.message.contains("already redeemed") == true)
        #expect(try transactionCount(local) == 2)
    }

    @Test func aRefusedJWSOfferSpendsNoNonce() async throws {
        let (local, store) = try await open()
        let nonce = UUID()
        let catalogKey = try catalogKey()
        func offer(transactionID: String?) throws -> PaymentRequest {
            let jws = try catalogKey.signPromotionalOfferJWS(productID: Self.gold, offerID: Self.winBack, transactionID: transactionID,
                                                             issuerID: "issuer", nonce: nonce, issuedAt: clock.now)
            return PaymentRequest(productID: Self.gold, promotionalOfferJWS: PromotionalOfferJWS(offerID: Self.winBack, compactJWS: jws))
        }
        // Never subscribed: not eligible, as with the older signature.
        #expect(try await failure(store, try offer(transactionID: nil))?.code == .ineligibleForOffer)
        let first = try await lapsedSubscriber(local, store)
        // A transaction that is not the user's: refused inside the purchase, after the nonce was looked at.
        #expect(try await failure(store, try offer(transactionID: "1234"))?.code == .invalidSignature)
        #expect(try transactionCount(local) == 1)
        let redeemed = try await buy(store, try offer(transactionID: String(first.id)))  // the same nonce, unspent
        #expect(redeemed.offer == TransactionOffer(type: .promotional, id: Self.winBack))
    }

    @Test func anIntroductoryOfferEligibilityJWSDecidesThePricePaid() async throws {
        let (local, store) = try await open()
        // A new user, eligible by the App Store's rule, denied by the JWS: the full price, a full month.
        let appTransactionID = try #require(try local.signAppTransaction().appTransactionID)
        let deny = try local.signIntroductoryOfferEligibility(productID: Self.gold, allow: false, transactionID: appTransactionID)
        let full = try await buy(store, PaymentRequest(productID: Self.gold, introductoryOfferEligibilityJWS: deny))
        #expect(full.offer == nil && full.expirationDate == clock.now.addingTimeInterval(300))
        let verifier = try local.makeVerifier()
        #expect(try verifier.verifyTransaction(try #require(full.signedJWS)).price == 9990)

        // A lapsed subscriber, ineligible by the rule, allowed by the JWS: the free week.
        try local.setAutoRenew(productID: Self.gold, enabled: false)
        clock.advance(by: 301)
        _ = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        #expect(try await local.isEligibleForIntroOffer(groupID: try #require(full.subscriptionGroupID)) == false)
        let allow = try local.signIntroductoryOfferEligibility(productID: Self.gold, allow: true, transactionID: String(full.id))
        let trial = try await buy(store, PaymentRequest(productID: Self.gold, introductoryOfferEligibilityJWS: allow))
        #expect(trial.offer == TransactionOffer(type: .introductory, id: nil) && trial.expirationDate == clock.now.addingTimeInterval(70))
        let payload = try verifier.verifyTransaction(try #require(trial.signedJWS))
        #expect(payload.price == 0 && payload.offerType == 1 && payload.offerDiscountType == "FREE_TRIAL")
    }

    @Test func everyBadIntroductoryOfferEligibilityJWSIsRefusedAndChargesNothing() async throws {
        let (local, store) = try await open()
        let appTransactionID = try #require(try local.signAppTransaction().appTransactionID)
        func intro(_ jws: String) -> PaymentRequest { PaymentRequest(productID: Self.gold, introductoryOfferEligibilityJWS: jws) }
        let attempts: [(String, PaymentRequest, String)] = [
            ("wrong aud", intro(try local.signPromotionalOfferJWS(productID: Self.gold, offerID: Self.winBack, transactionID: appTransactionID)),
             "aud 'promotional-offer'"),
            ("wrong product", intro(try local.signIntroductoryOfferEligibility(productID: Self.silver, allow: false, transactionID: appTransactionID)),
             "product '\(Self.silver)'"),
            ("unknown transactionId", intro(try local.signIntroductoryOfferEligibility(productID: Self.gold, allow: false, transactionID: "1")),
             "transactionId '1'"),
            ("another key", intro(try PromotionalOfferSigner(privateKey: Self.otherKey, keyID: "6C3F0A92", bundleID: local.bundleID)
                .signIntroductoryOfferEligibilityJWS(productID: Self.gold, allowIntroductoryOffer: false, transactionID: appTransactionID,
                                                     issuerID: "issuer", issuedAt: clock.now)), "does not verify"),
            ("stale", intro(try catalogKey().signIntroductoryOfferEligibilityJWS(
                productID: Self.gold, allowIntroductoryOffer: false, transactionID: appTransactionID, issuerID: "issuer",
                issuedAt: clock.now.addingTimeInterval(-25 * 3600))), "25 hours ago"),
        ]
        for (what, request, reason) in attempts {
            let error = try await failure(store, request)
            #expect(error?.code == .invalidSignature && error?.message.contains(reason) == true, "\(what): \(String(describing: error))")
        }
        #expect(try transactionCount(local) == 0)
        let deny = try local.signIntroductoryOfferEligibility(productID: Self.gold, allow: false, transactionID: appTransactionID)
        _ = try await buy(store, intro(deny))
        try local.expireSubscription(productID: Self.gold)
        let replay = try await failure(store, intro(deny))
        #expect(replay?.code == .invalidSignature && replay?.message.contains("already redeemed") == true)
        #expect(try transactionCount(local) == 1)
    }

    /// Ask to Buy with a JWS-signed offer: the parent's approval charges the offer's price, and the nonce was
    /// spent when the purchase was asked for, so a parent's decline does not make the JWS good again.
    @Test func askToBuyChargesAJWSOfferOnApprovalAndADeclineSpendsItsNonce() async throws {
        let (local, store) = try await open()
        _ = try await lapsedSubscriber(local, store)
        try local.setAskToBuyEnabled(true)
        func ask(_ jws: String) async throws -> [StoreEvent] {
            try await store.pollUntilTerminal(of: try store.requestPayment(PaymentRequest(
                productID: Self.gold, promotionalOfferJWS: PromotionalOfferJWS(offerID: Self.winBack, compactJWS: jws))))
        }
        let approvedJWS = try local.signPromotionalOfferJWS(productID: Self.gold, offerID: Self.winBack)
        guard case .deferred = try await ask(approvedJWS).last else { Issue.record("not deferred"); return }
        try local.approveAskToBuy(try #require(try local.pendingPurchases().first).id)
        let approved = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        guard case .purchased(nil, let transaction) = approved.last else { Issue.record("\(approved)"); return }
        #expect(transaction.offer == TransactionOffer(type: .promotional, id: Self.winBack))
        #expect(try local.makeVerifier().verifyTransaction(try #require(transaction.signedJWS)).price == 990)

        try local.expireSubscription(productID: Self.gold)
        let declinedJWS = try local.signPromotionalOfferJWS(productID: Self.gold, offerID: Self.winBack)
        guard case .deferred = try await ask(declinedJWS).last else { Issue.record("not deferred"); return }
        try local.declineAskToBuy(try #require(try local.pendingPurchases().first).id)
        let again = try await failure(store, PaymentRequest(productID: Self.gold,
                                                            promotionalOfferJWS: PromotionalOfferJWS(offerID: Self.winBack, compactJWS: declinedJWS)))
        #expect(again?.code == .invalidSignature && again?.message.contains("already redeemed") == true)
    }

    @Test func askToBuyKeepsTheIntroductoryOfferDecisionUntilTheParentApproves() async throws {
        let (local, store) = try await open()
        try local.setAskToBuyEnabled(true)
        let appTransactionID = try #require(try local.signAppTransaction().appTransactionID)
        let deny = try local.signIntroductoryOfferEligibility(productID: Self.gold, allow: false, transactionID: appTransactionID)
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(PaymentRequest(productID: Self.gold,
                                                                                                 introductoryOfferEligibilityJWS: deny)))
        guard case .deferred = events.last else { Issue.record("\(events)"); return }
        let pending = try #require(try local.pendingPurchases().first)
        #expect(pending.introductoryOfferAllowed == false)
        try local.approveAskToBuy(pending.id)
        let approved = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        guard case .purchased(nil, let transaction) = approved.last else { Issue.record("\(approved)"); return }
        #expect(transaction.offer == nil)  // a new user, but the JWS said no introductory offer
        #expect(try local.makeVerifier().verifyTransaction(try #require(transaction.signedJWS)).price == 9990)
    }

    @Test func badJWSParametersAreRefusedBeforeTheStore() async throws {
        let (local, store) = try await open()
        let jws = try local.signPromotionalOfferJWS(productID: Self.gold, offerID: Self.winBack)
        let oversized = String(repeating: "a", count: 8 * 1024 + 1)
        let older = try local.signPromotionalOffer(productID: Self.gold, offerID: Self.winBack)
        let cases: [(PaymentRequest, StoreErrorCode)] = [
            (PaymentRequest(productID: Self.gold, promotionalOfferJWS: PromotionalOfferJWS(offerID: Self.winBack, compactJWS: "")), .missingOfferParams),
            (PaymentRequest(productID: Self.gold, promotionalOfferJWS: PromotionalOfferJWS(offerID: "", compactJWS: jws)), .missingOfferParams),
            (PaymentRequest(productID: Self.gold, promotionalOfferJWS: PromotionalOfferJWS(offerID: Self.winBack, compactJWS: oversized)),
             .stringTooLong),
            (PaymentRequest(productID: Self.gold, promotionalOfferJWS: PromotionalOfferJWS(offerID: "no_such_offer", compactJWS: jws)),
             .invalidOfferIdentifier),
            (PaymentRequest(productID: Self.coins, promotionalOfferJWS: PromotionalOfferJWS(offerID: Self.winBack, compactJWS: jws)),
             .invalidOfferIdentifier),
            (PaymentRequest(productID: Self.gold, introductoryOfferEligibilityJWS: ""), .invalidArgument),
            (PaymentRequest(productID: Self.gold, introductoryOfferEligibilityJWS: oversized), .stringTooLong),
            (PaymentRequest(productID: Self.coins, introductoryOfferEligibilityJWS: jws), .invalidArgument),
            // One promotional offer per payment, in one form, and not with a win-back offer.
            (PaymentRequest(productID: Self.gold, promotionalOffer: older,
                            promotionalOfferJWS: PromotionalOfferJWS(offerID: Self.winBack, compactJWS: jws)), .invalidArgument),
            (PaymentRequest(productID: Self.gold, winBackOfferID: "any",
                            promotionalOfferJWS: PromotionalOfferJWS(offerID: Self.winBack, compactJWS: jws)), .invalidArgument),
        ]
        for (request, code) in cases {
            #expect(thrownCode { try store.requestPayment(request) } == code)
        }
        #expect(await store.pollSettled(after: local).isEmpty)
        #expect(try transactionCount(local) == 0)
    }
}
