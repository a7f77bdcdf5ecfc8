import Foundation
import IOSiAPCore
@testable import IOSiAPLocalStore
import IOSiAPTestSupport
import Testing

/// Renewal date extensions under Apple's rules, and what a running game sees of one made by another process.
@Suite struct RenewalExtensionTests {
    let folder = TemporaryDirectory()
    let clock = TestClock()
    static let gold = "com.iosiap.example.club_gold_monthly"
    static let day: TimeInterval = 86_400

    func openStore() throws -> LocalStore {
        let clock = self.clock
        return try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state, now: { clock.now })
    }

    /// A paid month of gold: bought (a free trial week first, which cannot be extended), then renewed.
    func paidGold(_ store: LocalStore) throws -> StoreTransaction {
        let trial = try store.buyProduct(Self.gold)
        #expect(try store.extendRenewalDate(originalTransactionID: trial.originalID, days: 3, requestIdentifier: "trial")
                == .ineligible("subscription \(trial.originalID) is in a free trial"))
        try store.forceRenewal(productID: Self.gold)
        return try #require(try store.allTransactions().last)
    }

    /// The end of the game's gold entitlement once it is `end`, polling like a game after each look of its local store
    /// (up to 40); else the last seen.
    func goldEnd(of game: PurchaseStore, looking local: LocalStore, becomes end: Date) async throws -> Date? {
        var seen: Date?
        for _ in 0..<40 where seen != end {
            _ = await game.pollSettled(after: local)
            seen = try game.currentEntitlements().first { $0.productID == Self.gold }?.expirationDate
        }
        return seen
    }

    @Test func twoAYearAndOneResultPerRequest() throws {
        let store = try openStore()
        let paid = try paidGold(store)
        let end = try #require(paid.expirationDate)
        let first = try store.extendRenewalDate(originalTransactionID: paid.originalID, days: 5, requestIdentifier: "r1")
        let made = RenewalExtension(originalTransactionID: paid.originalID, transactionID: paid.id, effectiveDate: end + 5 * Self.day)
        #expect(first == .extended(made))
        // The same request again answers the same, without moving the end again; also after a restart.
        #expect(try store.extendRenewalDate(originalTransactionID: paid.originalID, days: 5, requestIdentifier: "r1") == first)
        let reopened = try openStore()
        #expect(try reopened.extendRenewalDate(originalTransactionID: paid.originalID, days: 9, requestIdentifier: "r1") == first)
        #expect(try reopened.allTransactions().last?.expirationDate == end + 5 * Self.day)
        guard case .extended(let second) = try reopened.extendRenewalDate(originalTransactionID: paid.originalID, days: 2,
                                                                         requestIdentifier: "r2") else { Issue.record("refused"); return }
        #expect(second.effectiveDate == end + 7 * Self.day)
        #expect(try reopened.extendRenewalDate(originalTransactionID: paid.originalID, days: 2, requestIdentifier: "r3") == .maximumReached)
        #expect(try reopened.allTransactions().last?.expirationDate == end + 7 * Self.day)
        #expect(throws: StoreError.self) { try store.extendRenewalDate(originalTransactionID: 999, days: 2, requestIdentifier: "r4") }
        #expect(throws: StoreError.self) { try store.extendRenewalDate(originalTransactionID: paid.originalID, days: 91, requestIdentifier: "r5") }
    }

    @Test func everySubscriberOfAProductInTheStorefrontsAsked() throws {
        let store = try openStore()
        _ = try store.buyProduct(Self.gold)
        // In its free trial: a subscriber, not extended.
        let trial = try store.extendRenewalDates(productID: Self.gold, days: 4, requestIdentifier: "m0")
        #expect(trial.succeededCount == 0 && trial.failedCount == 1 && trial.completeDate == clock.now)
        try store.forceRenewal(productID: Self.gold)
        let paid = try #require(try store.allTransactions().last)
        let elsewhere = try store.extendRenewalDates(productID: Self.gold, days: 4, requestIdentifier: "m1", storefronts: ["CAN"])
        #expect(elsewhere.succeededCount == 0 && elsewhere.failedCount == 0)
        let done = try store.extendRenewalDates(productID: Self.gold, days: 4, requestIdentifier: "m2", storefronts: ["USA", "CAN"])
        #expect(done.succeededCount == 1 && done.failedCount == 0)
        #expect(try store.extendRenewalDates(productID: Self.gold, days: 4, requestIdentifier: "m2", storefronts: nil) == done)
        #expect(try store.massRenewalExtension(productID: Self.gold, requestIdentifier: "m2") == done)
        #expect(try store.massRenewalExtension(productID: "com.iosiap.example.club_silver_monthly", requestIdentifier: "m2") == nil)
        #expect(try store.allTransactions().last?.expirationDate == paid.expirationDate.map { $0 + 4 * Self.day })
        #expect(thrownCode { _ = try store.extendRenewalDates(productID: "com.iosiap.example.coins_100", days: 4, requestIdentifier: "m3") }
                == .unknownProduct)
        #expect(thrownCode { _ = try store.extendRenewalDates(productID: "com.iosiap.example.club_silver_monthly", days: 4,
                                                              requestIdentifier: "m2") } == .invalidArgument)
    }

    /// `iosiap-store serve` (another LocalStore on the directory, as another process) extends the subscription
    /// of a game that runs: the game's entitlement learns the new end promptly, and the old end passes without
    /// `expired` and without losing the entitlement.
    @Test func anExtensionByAnotherProcessReachesARunningGame() async throws {
        let clock = self.clock
        let local = try openStore()
        let game = try PurchaseStore(backend: local, stateDirectory: folder.state, now: { clock.now })
        _ = try await game.pollUntilTerminal(of: try game.requestProducts([Self.gold]))
        let bought = try await game.pollUntilTerminal(of: try game.requestPayment(productID: Self.gold))
        guard case .purchased(_, let trial) = bought.last else { Issue.record("\(bought)"); return }
        try game.finish(transactionID: trial.id)
        let server = try openStore()
        clock.advance(by: 3600)
        try server.forceRenewal(productID: Self.gold)
        let renewed = try await game.pollUntil { if case .purchased(nil, _) = $0 { true } else { false } }
        guard case .purchased(nil, let paid) = renewed.last, paid.reason == .renewal else { Issue.record("\(renewed)"); return }
        try game.finish(transactionID: paid.id)
        let oldEnd = try #require(paid.expirationDate)

        guard case .extended(let made) = try server.extendRenewalDate(originalTransactionID: paid.originalID, days: 10,
                                                                      requestIdentifier: "outage") else { Issue.record("refused"); return }
        #expect(made.effectiveDate == oldEnd + 10 * Self.day)
        #expect(try await goldEnd(of: game, looking: local, becomes: made.effectiveDate) == made.effectiveDate)

        clock.advance(by: oldEnd.timeIntervalSince(clock.now) + Self.day)
        let after = await game.pollSettled(after: local)
        #expect(!after.contains { if case .expired = $0 { true } else { false } }, "\(after)")
        #expect(try game.isEntitled(to: Self.gold))
        let status = try #require(try await game.subscriptionStatus(groupID: "5E1A7C01"))
        #expect(status.state == .subscribed && status.transaction.expirationDate == made.effectiveDate)
        game.close()
        server.close()
    }

    /// The renewal the game's own store made (its clockwork), then extended by another process: the game learns
    /// the new end too (its own writes were not compared with what others change).
    @Test func anExtensionOfARenewalTheGameMadeReachesTheRunningGame() async throws {
        let clock = self.clock
        let local = try openStore()
        let game = try PurchaseStore(backend: local, stateDirectory: folder.state, now: { clock.now })
        _ = try await game.pollUntilTerminal(of: try game.requestProducts([Self.gold]))
        let bought = try await game.pollUntilTerminal(of: try game.requestPayment(productID: Self.gold))
        guard case .purchased(_, let trial) = bought.last else { Issue.record("\(bought)"); return }
        try game.finish(transactionID: trial.id)
        try local.forceRenewal(productID: Self.gold)
        let renewed = try await game.pollUntil { if case .purchased(nil, _) = $0 { true } else { false } }
        guard case .purchased(nil, let paid) = renewed.last, paid.reason == .renewal else { Issue.record("\(renewed)"); return }
        try game.finish(transactionID: paid.id)
        let oldEnd = try #require(paid.expirationDate)

        let server = try openStore()
        guard case .extended(let made) = try server.extendRenewalDate(originalTransactionID: paid.originalID, days: 10,
                                                                      requestIdentifier: "outage") else { Issue.record("refused"); return }
        #expect(try await goldEnd(of: game, looking: local, becomes: made.effectiveDate) == made.effectiveDate)
        clock.advance(by: oldEnd.timeIntervalSince(clock.now) + Self.day)
        _ = await game.pollSettled(after: local)
        #expect(try game.isEntitled(to: Self.gold))
        game.close()
        server.close()
    }

    /// Extended while the game was closed: the relaunched game's entitlement has the new end, and keeps the
    /// subscription past the old one.
    @Test func aGameRelaunchedAfterAnExtensionHasTheNewEnd() async throws {
        let clock = self.clock
        var oldEnd = Date()
        var paidID: UInt64 = 0
        do {
            let local = try openStore()
            let game = try PurchaseStore(backend: local, stateDirectory: folder.state, now: { clock.now })
            let paid = try paidGold(local)
            _ = try await game.pollUntil { if case .purchased(nil, let t) = $0 { t.id == paid.id } else { false } }
            try game.finish(transactionID: paid.id)
            oldEnd = try #require(paid.expirationDate)
            paidID = paid.originalID
            game.close()
        }
        let server = try openStore()
        guard case .extended(let made) = try server.extendRenewalDate(originalTransactionID: paidID, days: 10,
                                                                      requestIdentifier: "while-closed") else { Issue.record("refused"); return }
        server.close()
        let local = try openStore()
        let game = try PurchaseStore(backend: local, stateDirectory: folder.state, now: { clock.now })
        defer { game.close() }
        #expect(try await goldEnd(of: game, looking: local, becomes: made.effectiveDate) == made.effectiveDate)
        clock.advance(by: oldEnd.timeIntervalSince(clock.now) + Self.day)
        let after = await game.pollSettled(after: local)
        #expect(!after.contains { if case .expired = $0 { true } else { false } }, "\(after)")
        #expect(try game.isEntitled(to: Self.gold))
    }
}
