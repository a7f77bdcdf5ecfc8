import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport
import Testing

/// A year of a subscription at a fast time rate (one month every five minutes of store time).
@Suite struct SubscriptionTimelineTests {
    let folder = TemporaryDirectory()
    let clock = TestClock()
    static let gold = "com.iosiap.example.club_gold_monthly"
    static let silver = "com.iosiap.example.club_silver_monthly"

    func open() async throws -> (LocalStore, PurchaseStore) {
        let clock = self.clock
        let local = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state,
                                   now: { clock.now })
        try local.setTimeRate(.monthlyRenewalEveryFiveMinutes)
        let store = try PurchaseStore(backend: local, stateDirectory: folder.state, now: { clock.now })
        _ = try await store.pollUntilTerminal(of: try store.requestProducts([Self.gold, Self.silver]))
        return (local, store)
    }

    func buy(_ store: PurchaseStore, _ product: String) async throws -> StoreTransaction {
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: product))
        guard case .purchased(_, let transaction) = events.last else { throw EventTimeout(description: "\(events)") }
        return transaction
    }

    /// Polls until `count` renewals arrived, finishing each as a game would.
    func renewals(_ store: PurchaseStore, _ count: Int) async throws -> [StoreTransaction] {
        var renewed: [StoreTransaction] = []
        while renewed.count < count {
            let events = try await store.pollUntil(timeout: .seconds(5)) { if case .purchased = $0 { true } else { false } }
            for case .purchased(nil, let transaction) in events where transaction.reason == .renewal {
                renewed.append(transaction)
                try store.finish(transactionID: transaction.id)
            }
        }
        return renewed
    }

    @Test func aYearOfRenewalsThenAutoRenewOffAndTheEnd() async throws {
        let (local, store) = try await open()
        let first = try await buy(store, Self.gold)
        #expect(first.expirationDate == clock.now.addingTimeInterval(70))  // the one-week trial: 7/30 of 5 minutes
        try store.finish(transactionID: first.id)

        clock.advance(by: 70 + 11 * 300)  // the trial, then eleven months
        let renewed = try await renewals(store, 12)
        #expect(renewed.allSatisfy { $0.originalID == first.id && $0.productID == Self.gold })
        #expect(zip(renewed.dropFirst(), renewed).allSatisfy { $0.purchaseDate == $1.expirationDate })
        #expect(renewed.last?.expirationDate == clock.now.addingTimeInterval(300))
        let verifier = try local.makeVerifier()
        let payload = try verifier.verifyTransaction(try #require(renewed.last?.signedJWS))
        #expect(payload.transactionReason == "RENEWAL" && payload.originalTransactionId == String(first.id))
        #expect(try store.isEntitled(to: Self.gold))

        try local.setAutoRenew(productID: Self.gold, enabled: false)
        clock.advance(by: 301)
        let ended = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        guard case .expired(let last) = ended.last else { Issue.record("\(ended)"); return }
        #expect(last.id == renewed.last?.id && last.expirationDate == renewed.last?.expirationDate)
        let endedInfo = try verifier.verifyRenewalInfo(try #require(last.signedRenewalInfo))
        #expect(endedInfo.autoRenewStatus == 0 && endedInfo.expirationIntent == 1)  // the user cancelled
        #expect(try !store.isEntitled(to: Self.gold))
        #expect(await store.pollSettled(after: local).isEmpty)  // announced once, never renewed again
    }

    @Test func renewalsThatHappenedWhileNoGameRanArriveAtTheNextLaunch() async throws {
        var first: StoreTransaction?
        do {
            let (_, store) = try await open()
            first = try await buy(store, Self.silver)
            try store.finish(transactionID: try #require(first).id)
            store.close()
        }
        clock.advance(by: 70 + 2 * 300)
        let (_, relaunched) = try await open()
        let renewed = try await renewals(relaunched, 3)
        #expect(renewed.map(\.originalID) == Array(repeating: try #require(first).id, count: 3))
    }

    @Test func anUpgradeStartsNowAndADowngradeAtTheNextRenewal() async throws {
        let (local, store) = try await open()
        let silver = try await buy(store, Self.silver)
        try store.finish(transactionID: silver.id)
        clock.advance(by: 10)
        let gold = try await buy(store, Self.gold)  // level 1 over level 2: an upgrade, now
        #expect(gold.purchaseDate == clock.now)
        #expect(gold.expirationDate == clock.now.addingTimeInterval(300))  // the group's trial is used
        let replaced = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        guard case .expired(let ended) = replaced.last else { Issue.record("\(replaced)"); return }
        #expect(ended.id == silver.id && ended.expirationDate == clock.now)
        // Replaced, not cancelled: its renewal info gives no reason to have ended; its transaction says it was
        // upgraded ("isUpgraded"), the upgrade's does not.
        #expect(try local.makeVerifier().verifyRenewalInfo(try #require(ended.signedRenewalInfo)).expirationIntent == nil)
        #expect(try local.makeVerifier().verifyTransaction(try #require(ended.signedJWS)).isUpgraded == true)
        #expect(try local.makeVerifier().verifyTransaction(try #require(gold.signedJWS)).isUpgraded == false)
        #expect(try store.currentEntitlements().map(\.productID) == [Self.gold])
        try store.finish(transactionID: gold.id)

        let downgrade = try await store.pollUntilTerminal(of: try store.requestPayment(productID: Self.silver))
        // Still gold until the renewal, which its renewal info now names.
        guard case .purchased(4, let current) = downgrade.last else { Issue.record("\(downgrade)"); return }
        #expect(current.id == gold.id && current.productID == Self.gold && current.expirationDate == gold.expirationDate)
        let plan = try local.makeVerifier().verifyRenewalInfo(try #require(current.signedRenewalInfo))
        #expect(plan.autoRenewProductId == Self.silver && plan.productId == Self.gold && plan.autoRenewStatus == 1)
        clock.advance(by: 300)
        let renewed = try await renewals(store, 1)
        #expect(renewed.first?.productID == Self.silver)
        #expect(renewed.first?.originalID == gold.originalID)
        #expect(try local.allTransactions().count == 3)
    }

    /// The current level bought again while a downgrade waits cancels the downgrade: the next renewal stays at it.
    @Test func buyingTheCurrentLevelAgainCancelsAWaitingDowngrade() async throws {
        let (local, store) = try await open()
        let gold = try await buy(store, Self.gold)
        try store.finish(transactionID: gold.id)
        #expect(try await buy(store, Self.silver).id == gold.id)  // the downgrade waits for the renewal
        let again = try await buy(store, Self.gold)
        #expect(again.id == gold.id)
        let plan = try local.makeVerifier().verifyRenewalInfo(try #require(again.signedRenewalInfo))
        #expect(plan.autoRenewProductId == Self.gold)
        clock.advance(by: 71)
        #expect(try await renewals(store, 1).first?.productID == Self.gold)
    }

    /// A purchase decides what the user has at its own time, even when the store's clock has not ticked since a
    /// period ended (no game listens here, so nothing ticks): the ended period renews first, and silver is a
    /// downgrade of the renewed gold, not a second subscription beside it.
    @Test func aPurchaseSeesRenewalsDueSinceTheLastTick() async throws {
        let clock = self.clock
        let local = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state,
                                   now: { clock.now })
        try local.setTimeRate(.monthlyRenewalEveryFiveMinutes)
        let gold = try local.buyProduct(Self.gold)
        clock.advance(by: 70 + 301)  // the trial, then a month: two renewals due
        let answer = try local.buyProduct(Self.silver)
        let all = try local.allTransactions()
        #expect(all.map(\.productID) == [Self.gold, Self.gold, Self.gold])
        #expect(answer.id == all.last?.id && answer.originalID == gold.id)
        let plan = try local.makeVerifier().verifyRenewalInfo(try #require(answer.signedRenewalInfo))
        #expect(plan.autoRenewProductId == Self.silver)
    }

    @Test func expireAndForceRenewalAreControls() async throws {
        let (local, store) = try await open()
        let first = try await buy(store, Self.gold)
        try store.finish(transactionID: first.id)
        try local.forceRenewal(productID: Self.gold)
        let renewed = try await renewals(store, 1)
        #expect(renewed.first?.purchaseDate == clock.now)
        try local.expireSubscription(productID: Self.gold)
        let ended = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        guard case .expired(let transaction) = ended.last else { Issue.record("\(ended)"); return }
        #expect(transaction.expirationDate == clock.now)
        #expect(try !store.isEntitled(to: Self.gold))
        #expect(throws: StoreError.self) { try local.forceRenewal(productID: Self.gold) }
        #expect(throws: StoreError.self) { try local.setAutoRenew(productID: "com.iosiap.example.pro_upgrade", enabled: false) }
    }

    @Test func deleteClearAndReset() async throws {
        let (local, store) = try await open()
        let first = try await buy(store, Self.silver)
        try local.setAskToBuyEnabled(true)
        try local.deleteTransaction(first.id)
        #expect(try local.allTransactions().isEmpty)
        #expect(throws: StoreError.self) { try local.deleteTransaction(first.id) }
        try local.resetToDefaultState()
        #expect(try !local.currentSettings().askToBuyEnabled)
        #expect(try local.currentSettings().timeRate == .realTime)
        _ = try await buy(store, "com.iosiap.example.club_gold_monthly")
        try local.clearTransactions()
        #expect(try local.allTransactions().isEmpty)
    }
}

@Suite struct PurchaseIntentAndStatusTests {
    let folder = TemporaryDirectory()

    @Test func anAppStorePurchaseStartedElsewhereReachesTheGameWhichDecides() async throws {
        let local = try LocalStore(catalogURL: Fixtures.exampleCatalog, stateDirectory: folder.state)
        let store = try PurchaseStore(backend: local, stateDirectory: folder.state)
        // The transaction manager (another LocalStore on the directory, as another process) starts it.
        let manager = try LocalStore(catalogURL: Fixtures.exampleCatalog, stateDirectory: folder.state)
        try manager.requestPurchaseIntent(productID: "com.iosiap.example.pro_upgrade")
        #expect(throws: StoreError.self) { try manager.requestPurchaseIntent(productID: "com.iosiap.example.nope") }
        let events = try await store.pollUntil { _ in true }
        guard case .purchaseIntent(let product, let offer) = events.first else { Issue.record("\(events)"); return }
        #expect(product.id == "com.iosiap.example.pro_upgrade" && product.displayPrice == "$2.99" && offer == nil)
        #expect(try local.allTransactions().isEmpty)  // nothing charged until the game continues
        let request = try store.requestPayment(productID: product.id)  // continue now: no products request needed
        guard case .purchased = try await store.pollUntilTerminal(of: request).last else { Issue.record("not purchased"); return }
        #expect(await store.pollSettled(after: local).isEmpty)  // handed out once
        manager.close()
    }

    @Test func storefrontAndSubscriptionStatus() async throws {
        let local = try LocalStore(catalogURL: Fixtures.exampleCatalog, stateDirectory: folder.state)
        let store = try PurchaseStore(backend: local, stateDirectory: folder.state)
        #expect(try await store.storefront() == "USA")
        try local.setStorefront("JPN")
        #expect(try await store.storefront() == "JPN")
        #expect(try await store.subscriptionStatus(groupID: "5E1A7C01") == nil)
        let gold = try local.buyProduct("com.iosiap.example.club_gold_monthly")
        var status = try #require(try await store.subscriptionStatus(groupID: "5E1A7C01"))
        #expect(status.state == .subscribed && status.willAutoRenew && status.transaction.id == gold.id)
        try local.setAutoRenew(productID: gold.productID, enabled: false)
        status = try #require(try await store.subscriptionStatus(groupID: "5E1A7C01"))
        #expect(!status.willAutoRenew)
        try local.refund(transactionID: gold.id)
        status = try #require(try await store.subscriptionStatus(groupID: "5E1A7C01"))
        #expect(status.state == .revoked)
    }
}
