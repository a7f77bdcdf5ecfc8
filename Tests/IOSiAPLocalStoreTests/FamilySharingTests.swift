import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// Family Sharing in the local store: a family member's purchase of a family-shareable product reaches the game
/// as a purchase it did not ask for, owned FAMILY_SHARED, and ending the sharing revokes it.
@Suite struct FamilySharingTests {
    let folder = TemporaryDirectory()
    let clock = TestClock()
    static let pro = "com.iosiap.example.pro_upgrade"
    static let coins = "com.iosiap.example.coins_100"
    static let gold = "com.iosiap.example.club_gold_monthly"
    static let silver = "com.iosiap.example.club_silver_monthly"
    static let group = "5E1A7C01"

    /// The example catalog, with the gold subscription family-shareable too.
    static func catalog(goldShareable: Bool = false) throws -> Catalog {
        var text = try String(contentsOf: Fixtures.exampleCatalog, encoding: .utf8)
        if goldShareable {
            let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            var groups = try #require(json["subscriptionGroups"] as? [[String: Any]])
            var subscriptions = try #require(groups[0]["subscriptions"] as? [[String: Any]])
            for index in subscriptions.indices where subscriptions[index]["productID"] as? String == gold {
                subscriptions[index]["familyShareable"] = true
            }
            groups[0]["subscriptions"] = subscriptions
            var changed = json
            changed["subscriptionGroups"] = groups
            text = String(decoding: try JSONSerialization.data(withJSONObject: changed), as: UTF8.self)
        }
        return try Catalog(data: Data(text.utf8), fileName: "Products.storekit")
    }

    func open(_ catalog: Catalog) throws -> (LocalStore, PurchaseStore) {
        let clock = self.clock
        let local = try LocalStore(catalog: catalog, stateDirectory: folder.state, bundleID: "com.iosiap.example", now: { clock.now })
        return (local, try PurchaseStore(backend: local, stateDirectory: folder.state, now: { clock.now }))
    }

    @Test func aFamilyMembersPurchaseReachesTheGameFamilySharedAndSignedSo() async throws {
        let (local, store) = try open(try Self.catalog())
        let shared = try local.buyFamilySharedProduct(Self.pro)
        #expect(shared.ownershipType == .familyShared && shared.productID == Self.pro)
        let events = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        guard case .purchased(let requestID, let delivered) = events.last else { Issue.record("\(events)"); return }
        #expect(requestID == nil && delivered.id == shared.id && delivered.ownershipType == .familyShared)
        let payload = try local.makeVerifier().verifyTransaction(try #require(delivered.signedJWS))
        #expect(payload.inAppOwnershipType == "FAMILY_SHARED")
        #expect(try store.isEntitled(to: Self.pro))
        #expect(try local.allTransactions().map(\.ownershipType) == [.familyShared])
    }

    @Test func aProductThatIsNotFamilyShareableIsRefusedAndNothingChanges() async throws {
        let (local, store) = try open(try Self.catalog())
        #expect(throws: StoreError.self) { try local.buyFamilySharedProduct(Self.coins) }
        do {
            _ = try local.buyFamilySharedProduct(Self.gold)
            Issue.record("a subscription that is not family-shareable was shared")
        } catch {
            #expect(error.code == .invalidArgument && error.message.contains("familyShareable"))
        }
        #expect(throws: StoreError.self) { try local.buyFamilySharedProduct("com.iosiap.example.nothing") }
        #expect(try local.allTransactions().isEmpty)
        #expect(await store.pollSettled(after: local).isEmpty)
    }

    @Test func endingTheSharingRevokesItAndOnlyASharedTransactionCanEnd() async throws {
        let (local, store) = try open(try Self.catalog())
        let shared = try local.buyFamilySharedProduct(Self.pro)
        _ = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        try store.finish(transactionID: shared.id)
        let revoked = try local.stopFamilySharing(transactionID: shared.id)
        #expect(revoked.isRevoked && revoked.revocationReason == .refundedForOtherReason)  // Apple: 0 when sharing stops
        let events = try await store.pollUntil { if case .revoked = $0 { true } else { false } }
        guard case .revoked(let told) = events.last else { Issue.record("\(events)"); return }
        #expect(told.id == shared.id && told.ownershipType == .familyShared)
        #expect(try !store.isEntitled(to: Self.pro))
        #expect(try local.makeVerifier().verifyTransaction(try #require(told.signedJWS)).revocationDate != nil)
        // Once only, and never for the user's own purchase.
        #expect(throws: StoreError.self) { try local.stopFamilySharing(transactionID: shared.id) }
        let own = try local.buyProduct(Self.coins)
        do {
            _ = try local.stopFamilySharing(transactionID: own.id)
            Issue.record("the user's own purchase was taken back as shared")
        } catch {
            #expect(error.code == .wrongState)
        }
        #expect(throws: StoreError.self) { try local.stopFamilySharing(transactionID: 999) }
        #expect(try local.allTransactions().first { $0.id == own.id }?.isRevoked == false)
    }

    @Test func aRefundToThePurchaserRevokesTheSharedTransactionWithItsReason() async throws {
        let (local, store) = try open(try Self.catalog())
        let shared = try local.buyFamilySharedProduct(Self.pro)
        _ = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        _ = try local.refund(transactionID: shared.id, reason: .refundedDueToIssue)  // Apple: the purchaser's reason
        let events = try await store.pollUntil { if case .revoked = $0 { true } else { false } }
        guard case .revoked(let told) = events.last else { Issue.record("\(events)"); return }
        #expect(told.id == shared.id && told.revocationReason == .refundedDueToIssue && told.ownershipType == .familyShared)
        #expect(try !store.isEntitled(to: Self.pro))
    }

    @Test func sharingThatEndsWhileTheGameIsClosedIsToldAtTheNextLaunch() async throws {
        var shared: StoreTransaction
        do {
            let (local, store) = try open(try Self.catalog())
            shared = try local.buyFamilySharedProduct(Self.pro)
            _ = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
            try store.finish(transactionID: shared.id)
            store.close()
        }
        do {
            let manager = try LocalStore(catalog: try Self.catalog(), stateDirectory: folder.state, bundleID: "com.iosiap.example")
            _ = try manager.stopFamilySharing(transactionID: shared.id)
            manager.close()
        }
        let (_, store) = try open(try Self.catalog())
        let events = try await store.pollUntil { if case .revoked = $0 { true } else { false } }
        guard case .revoked(let told) = events.last else { Issue.record("\(events)"); return }
        #expect(told.id == shared.id)
        #expect(try !store.isEntitled(to: Self.pro))
    }

    @Test func aSharedSubscriptionRenewsSharedUntilTheSharingEnds() async throws {
        let (local, store) = try open(try Self.catalog(goldShareable: true))
        try local.setTimeRate(.monthlyRenewalEveryFiveMinutes)
        let shared = try local.buyFamilySharedProduct(Self.gold)
        #expect(shared.offer == nil)  // the family member's purchase: no introductory offer of this user's
        _ = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        try store.finish(transactionID: shared.id)
        clock.advance(by: 301)
        let events = try await store.pollUntil { event in
            if case .purchased(_, let transaction) = event { transaction.reason == .renewal } else { false }
        }
        guard case .purchased(_, let renewal) = events.last else { Issue.record("\(events)"); return }
        #expect(renewal.ownershipType == .familyShared && renewal.originalID == shared.id)
        #expect(try local.makeVerifier().verifyTransaction(try #require(renewal.signedJWS)).inAppOwnershipType == "FAMILY_SHARED")
        try store.finish(transactionID: renewal.id)
        _ = try local.stopFamilySharing(transactionID: shared.id)  // any transaction of it: its newest is revoked
        let revoked = try await store.pollUntil { if case .revoked = $0 { true } else { false } }
        guard case .revoked(let told) = revoked.last else { Issue.record("\(revoked)"); return }
        #expect(told.id == renewal.id)
        #expect(try !store.isEntitled(to: Self.gold))
        clock.advance(by: 601)
        #expect(await store.pollSettled(after: local).allSatisfy { if case .purchased = $0 { false } else { true } })
        #expect(try await store.subscriptionStatus(groupID: "5E1A7C01")?.state == .revoked)
    }

    @Test func buyingWhatAFamilyMemberSharesChargesTheUsersOwnPurchaseWhichOutlivesTheSharing() async throws {
        let (local, store) = try open(try Self.catalog())
        let shared = try local.buyFamilySharedProduct(Self.pro)
        _ = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        try store.finish(transactionID: shared.id)
        _ = try await store.pollUntilTerminal(of: try store.requestProducts([Self.pro]))
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: Self.pro))
        guard case .purchased(_, let own) = events.last else { Issue.record("\(events)"); return }
        #expect(own.id != shared.id && own.ownershipType == .purchased)  // charged, not the family member's
        try store.finish(transactionID: own.id)
        #expect(try local.buyProduct(Self.pro).id == own.id)  // owned now: the App Store answers with it
        _ = try local.stopFamilySharing(transactionID: shared.id)
        let revoked = try await store.pollUntil { if case .revoked = $0 { true } else { false } }
        guard case .revoked(let told) = revoked.last else { Issue.record("\(revoked)"); return }
        #expect(told.id == shared.id)
        #expect(try store.isEntitled(to: Self.pro))  // the user's own purchase still entitles
        #expect(try local.allTransactions().filter { !$0.isRevoked }.map(\.id) == [own.id])
    }

    @Test func theUsersOwnSubscriptionIsAChainOfItsOwnBesideTheSharedOne() async throws {
        let (local, store) = try open(try Self.catalog(goldShareable: true))
        try local.setTimeRate(.monthlyRenewalEveryFiveMinutes)
        let shared = try local.buyFamilySharedProduct(Self.gold)
        _ = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        try store.finish(transactionID: shared.id)
        clock.advance(by: 60)
        let own = try local.buyProduct(Self.silver)  // the user's own, a lower level: no downgrade of the family's
        #expect(own.id != shared.id && own.productID == Self.silver && own.ownershipType == .purchased)
        _ = try await store.pollUntil { event in
            if case .purchased(_, let transaction) = event { transaction.id == own.id } else { false }
        }
        try store.finish(transactionID: own.id)
        #expect(try store.isEntitled(to: Self.gold) && store.isEntitled(to: Self.silver))
        clock.advance(by: 241)  // the shared period ends first
        let renewed = try await store.pollUntil { event in
            if case .purchased(_, let transaction) = event { transaction.reason == .renewal } else { false }
        }
        guard case .purchased(_, let renewal) = renewed.last else { Issue.record("\(renewed)"); return }
        #expect(renewal.productID == Self.gold && renewal.originalID == shared.id && renewal.ownershipType == .familyShared)
        try store.finish(transactionID: renewal.id)
        _ = try local.stopFamilySharing(transactionID: shared.id)
        _ = try await store.pollUntil { if case .revoked = $0 { true } else { false } }
        #expect(try !store.isEntitled(to: Self.gold) && store.isEntitled(to: Self.silver))
        // The group's status is the best of the user's subscriptions in it: their own, still active.
        let status = try #require(try await store.subscriptionStatus(groupID: Self.group))
        #expect(status.state == .subscribed && status.transaction.id == own.id)
    }

    @Test func buyingTheSharedLevelItselfStartsTheUsersOwnChain() async throws {
        let (local, store) = try open(try Self.catalog(goldShareable: true))
        let shared = try local.buyFamilySharedProduct(Self.gold)
        let own = try local.buyProduct(Self.gold)
        #expect(own.id != shared.id && own.ownershipType == .purchased && own.originalID == own.id)
        #expect(try local.buyProduct(Self.gold).id == own.id)  // then owned: not charged again
        _ = try local.stopFamilySharing(transactionID: shared.id)
        #expect(try await store.subscriptionStatus(groupID: Self.group)?.state == .subscribed)
    }

    /// Apple does not extend a family member's subscription directly (FamilySharedSubscriptionExtensionIneligibleError,
    /// 4030007): the local store refuses it and moves nothing; the user's own subscription is extended.
    @Test func aFamilySharedSubscriptionIsNotExtendedDirectly() throws {
        let (local, store) = try open(try Self.catalog(goldShareable: true))
        defer { store.close() }
        let shared = try local.buyFamilySharedProduct(Self.gold)
        try local.forceRenewal(productID: Self.gold)
        let renewed = try #require(try local.allTransactions().last)
        #expect(renewed.ownershipType == .familyShared)
        #expect(try local.extendRenewalDate(originalTransactionID: shared.originalID, days: 5, requestIdentifier: "r1") == .familyShared)
        #expect(try local.allTransactions().last?.expirationDate == renewed.expirationDate)
    }
}
