import Foundation
import IOSiAPCore
@testable import IOSiAPLocalStore
import IOSiAPTestSupport
import Testing

/// Subscription ends made by a store no game listens to (the transaction manager, `iosiap-store`): the game hears
/// of each once, as `expired`, at its next launch or while it runs, and is no longer entitled.
@Suite struct ChangesWhileClosedTests {
    let folder = TemporaryDirectory()
    static let gold = "com.iosiap.example.club_gold_monthly"
    static let silver = "com.iosiap.example.club_silver_monthly"

    func openGame() throws -> (LocalStore, PurchaseStore) {
        let local = try openManager()
        return (local, try PurchaseStore(backend: local, stateDirectory: folder.state))
    }

    /// The store as the transaction manager opens it: no game listens to it.
    func openManager() throws -> LocalStore {
        try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state, bundleID: "com.iosiap.example")
    }

    /// Buys `productID` in a game and finishes it, then closes the game.
    func buyInGame(_ productID: String) async throws {
        let (_, store) = try openGame()
        defer { store.close() }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts([productID]))
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: productID))
        guard case .purchased(_, let bought) = events.last else { Issue.record("\(events)"); return }
        try store.finish(transactionID: bought.id)
        #expect(try store.isEntitled(to: productID))
        _ = await store.pollSettled()  // the finish reached the store before the game closes
    }

    static func expired(_ events: [StoreEvent]) -> [String] {
        events.compactMap { if case .expired(let transaction) = $0 { transaction.productID } else { nil } }
    }

    /// `iosiap-store expire` (SKTestSession expireSubscription) with the game closed: at the next launch the game
    /// hears `expired` and is no longer entitled; the launch after that tells it nothing again.
    @Test func aSubscriptionExpiredWhileTheGameWasClosedEndsAtTheNextLaunchAndIsToldOnce() async throws {
        try await buyInGame(Self.gold)
        do {
            let manager = try openManager()
            try manager.setAutoRenew(productID: Self.gold, enabled: false)
            try manager.expireSubscription(productID: Self.gold)
            manager.close()
        }
        do {
            let (_, store) = try openGame()
            let events = try await store.pollUntil { if case .expired = $0 { true } else { false } }
            #expect(Self.expired(events) == [Self.gold])
            #expect(try !store.isEntitled(to: Self.gold))
            #expect(try store.currentEntitlements().isEmpty)
            store.close()
        }
        let (local, store) = try openGame()
        let events = await store.pollSettled(after: local)  // the launch, and a look of the store's watcher after it
        #expect(Self.expired(events).isEmpty, "\(events)")
        #expect(try !store.isEntitled(to: Self.gold))
    }

    /// An upgrade bought outside the game (`iosiap-store buy`) while it is closed ends the lower level at once: at
    /// the next launch the game hears `expired` for it and holds only the new level.
    @Test func anUpgradeBoughtWhileTheGameWasClosedEndsTheOldLevelAtTheNextLaunch() async throws {
        try await buyInGame(Self.silver)
        do {
            let manager = try openManager()
            _ = try manager.buyProduct(Self.gold)
            manager.close()
        }
        let (_, store) = try openGame()
        let events = try await store.pollUntil { _ in
            (try? store.isEntitled(to: Self.gold)) == true && (try? store.isEntitled(to: Self.silver)) == false
        }
        #expect(Self.expired(events) == [Self.silver], "\(events)")
        #expect(try store.currentEntitlements().map(\.productID) == [Self.gold])
    }

    /// The same upgrade bought outside while the game runs: the game hears `expired` for the old level once, not
    /// again at its next launch.
    @Test func anUpgradeBoughtOutsideWhileTheGameRunsEndsTheOldLevelOnce() async throws {
        try await buyInGame(Self.silver)
        do {
            let (_, store) = try openGame()
            let manager = try openManager()
            _ = try manager.buyProduct(Self.gold)
            manager.close()
            let events = try await store.pollUntil { if case .expired = $0 { true } else { false } }
            #expect(Self.expired(events) == [Self.silver])
            #expect(try !store.isEntitled(to: Self.silver))
            store.close()
        }
        let (local, store) = try openGame()
        let events = await store.pollSettled(after: local)
        #expect(Self.expired(events).isEmpty, "\(events)")
        #expect(try store.currentEntitlements().map(\.productID) == [Self.gold])
    }

    /// `iosiap-store expire` while the game runs: the game hears `expired` once, from its store's look at other
    /// processes' changes, and not again from the end marked untold, then or at its next launch.
    @Test func aSubscriptionExpiredOutsideWhileTheGameRunsIsToldOnce() async throws {
        try await buyInGame(Self.gold)
        do {
            let (local, store) = try openGame()
            let manager = try openManager()
            try manager.setAutoRenew(productID: Self.gold, enabled: false)
            try manager.expireSubscription(productID: Self.gold)
            manager.close()
            var events = try await store.pollUntil { if case .expired = $0 { true } else { false } }
            events += await store.pollSettled(after: local)
            #expect(Self.expired(events) == [Self.gold], "\(events)")
            #expect(try !store.isEntitled(to: Self.gold))
            store.close()
        }
        let (local, store) = try openGame()
        let events = await store.pollSettled(after: local)
        #expect(Self.expired(events).isEmpty, "\(events)")
    }

    /// A Swift game that uses its `LocalStore` (a control, here `expire`) before its `PurchaseStore` listens hears
    /// the end once: from the stream kept for it, not again from the end marked untold.
    @Test func anEndMadeInProcessBeforeThePurchaseStoreListensIsToldOnce() async throws {
        try await buyInGame(Self.gold)
        let local = try openManager()
        try local.setAutoRenew(productID: Self.gold, enabled: false)
        try local.expireSubscription(productID: Self.gold)
        let store = try PurchaseStore(backend: local, stateDirectory: folder.state)
        defer { store.close() }
        var events = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        events += await store.pollSettled(after: local)
        #expect(Self.expired(events) == [Self.gold], "\(events)")
        #expect(try !store.isEntitled(to: Self.gold))
    }

    /// An end the game was handed but whose check could not complete before the game closed (server verification
    /// down, then the game quits or dies) is handed again at the next launch: the end is the store's until the
    /// game's journal has recorded it, not once it was handed over (issue 23, item 8; found by the simulation).
    @Test(arguments: [false, true])
    func anEndTheGameCouldNotRecordIsToldAgainAtTheNextLaunch(whileRunning: Bool) async throws {
        try await buyInGame(Self.gold)
        let down = VerificationOutcome.retryLater(StoreError(.verificationRetryable, "server down"))
        let slowRetries = VerificationRetryPolicy(initial: .seconds(3600))
        func expireOutside() throws {
            let manager = try openManager()
            try manager.setAutoRenew(productID: Self.gold, enabled: false)
            try manager.expireSubscription(productID: Self.gold)
            manager.close()
        }
        if !whileRunning { try expireOutside() }
        do {
            let local = try openManager()
            let store = try PurchaseStore(backend: local, stateDirectory: folder.state,
                                          verifier: ScriptedVerifier(Array(repeating: down, count: 20)), retryPolicy: slowRetries)
            if whileRunning {
                _ = await store.pollSettled(after: local)
                try expireOutside()
            }
            let events = try await store.pollUntil { if case .verificationFailed = $0 { true } else { false } }
            #expect(Self.expired(events).isEmpty, "\(events)")
            store.close()
        }
        let (_, store) = try openGame()
        let events = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        #expect(Self.expired(events) == [Self.gold], "\(events)")
        #expect(try !store.isEntitled(to: Self.gold))
        store.close()
        let (local, again) = try openGame()
        let later = await again.pollSettled(after: local)
        #expect(Self.expired(later).isEmpty, "\(later)")
    }

    /// `iosiap-store renew` (the store ends the first period at the renewal) then `iosiap-store expire`, or a refund of
    /// the renewal, with the game closed: at the next launch the game is told so for the renewal and holds no
    /// entitlement, although its record of the first period (finished before its end changed) still says it runs.
    /// The renewal is the subscription's newest transaction, and that decides (issue 23, item 9).
    @Test(arguments: [false, true])
    func aSubscriptionRenewedThenEndedWhileTheGameWasClosedEntitlesToNothing(refunded: Bool) async throws {
        try await buyInGame(Self.gold)
        do {
            let manager = try openManager()
            try manager.forceRenewal(productID: Self.gold)
            if refunded {
                let renewal = try #require(try manager.allTransactions().last)
                #expect(renewal.reason == .renewal)
                _ = try manager.refund(transactionID: renewal.id)
            } else {
                try manager.setAutoRenew(productID: Self.gold, enabled: false)
                try manager.expireSubscription(productID: Self.gold)
            }
            manager.close()
        }
        let (_, store) = try openGame()
        defer { store.close() }
        let events = try await store.pollUntil {
            switch $0 {
            case .expired(let transaction), .revoked(let transaction): transaction.reason == .renewal
            default: false
            }
        }
        #expect(try !store.isEntitled(to: Self.gold), "\(events)")
        #expect(try store.currentEntitlements().isEmpty)
    }

    /// A downgrade that takes effect at a renewal made with the game closed (`iosiap-store buy` of the lower level,
    /// then `iosiap-store renew`): at the next launch the game holds the new level only, not both.
    @Test func aDowngradeThatTookEffectWhileTheGameWasClosedKeepsOnlyTheNewLevel() async throws {
        try await buyInGame(Self.gold)
        do {
            let manager = try openManager()
            _ = try manager.buyProduct(Self.silver)  // a downgrade: from the next renewal
            try manager.forceRenewal(productID: Self.gold)
            manager.close()
        }
        let (_, store) = try openGame()
        defer { store.close() }
        let events = try await store.pollUntil {
            if case .purchased(nil, let transaction) = $0 { transaction.productID == Self.silver } else { false }
        }
        #expect(try store.currentEntitlements().map(\.productID) == [Self.silver], "\(events)")
        #expect(try !store.isEntitled(to: Self.gold))
    }
}

extension ChangesWhileClosedTests {
    /// `iosiap-store renew` with billing issues and a grace period on, the game closed: the renewal fails to charge,
    /// so the period ends now and the subscription stays active through its grace period. At the next launch the
    /// game's record takes the new end and the grace period's (it held the old end, a period later), and it hears of
    /// no expiry. Found by the lifecycle simulation (seed 300292).
    @Test func aRenewalThatFailedToChargeWhileTheGameWasClosedReachesItsRecordAtTheNextLaunch() async throws {
        try await buyInGame(Self.gold)
        do {
            let manager = try openManager()
            try manager.setBillingIssuesEnabled(true)
            try manager.setBillingGracePeriodEnabled(true)
            try manager.forceRenewal(productID: Self.gold)
            manager.close()
        }
        let (local, store) = try openGame()
        defer { store.close() }
        let events = await store.pollSettled(after: local)
        let held = try #require(try store.currentEntitlements().first { $0.productID == Self.gold }, "\(events)")
        #expect(held.expirationDate.map { $0 <= Date() } == true, "the old end stayed: \(String(describing: held.expirationDate))")
        #expect(held.gracePeriodExpirationDate.map { $0 > Date() } == true)
        #expect(Self.expired(events).isEmpty, "\(events)")
        #expect(try store.isEntitled(to: Self.gold))
    }
}

extension ChangesWhileClosedTests {
    /// A reinstall on the local store (the journal deleted, the store's state kept) is entitled at launch, as
    /// StoreKit's current entitlements make it on a device, and is told nothing.
    @Test func aReinstallIsEntitledAtLaunchAndToldNothing() async throws {
        try await buyInGame(Self.gold)
        for name in ["journal.sqlite", "journal.sqlite-wal", "journal.sqlite-shm"] {
            try? FileManager.default.removeItem(atPath: folder.state.file(name))
        }
        let (local, store) = try openGame()
        defer { store.close() }
        let events = await store.pollSettled(after: local)
        #expect(events.isEmpty, "\(events)")
        #expect(try store.isEntitled(to: Self.gold))
    }
}

extension ChangesWhileClosedTests {
    /// A reinstall is not told the refunds of what it never granted: an old refund (told to the install before) is
    /// not told again once the journal is gone.
    @Test func aReinstallIsNotToldOldRefunds() async throws {
        try await buyInGame(Self.silver)
        do {
            let manager = try openManager()
            let silver = try #require(try manager.allTransactions().first)
            _ = try manager.refund(transactionID: silver.id)
            manager.close()
        }
        do {
            let (_, store) = try openGame()
            let events = try await store.pollUntil { if case .revoked = $0 { true } else { false } }
            #expect(events.count == 1, "\(events)")
            store.close()
        }
        for name in ["journal.sqlite", "journal.sqlite-wal", "journal.sqlite-shm"] {
            try? FileManager.default.removeItem(atPath: folder.state.file(name))
        }
        let (local, store) = try openGame()
        defer { store.close() }
        let events = await store.pollSettled(after: local)
        #expect(events.isEmpty, "\(events)")
        #expect(try !store.isEntitled(to: Self.silver))
    }
}
