import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPStoreKit
import IOSiAPTestSupport
import StoreKit
import Testing

/// What `StoreKitBackendTests` assumes of StoreKit through its scripted fake, checked through LiveStoreKit on the
/// stand-in: products, a cancelled purchase, StoreKit's errors, a purchase left unfinished, a failing sync. In the
/// stand-in's suite (StoreKit is one per process), so one at a time.
extension StandInTests {
    /// `Product.products(for:)` gives the products the App Store has, with their prices; an id it lacks is invalid,
    /// and an App Store that cannot be reached fails the request (`StoreKitError.networkError`).
    @Test func productsComeWithPricesUnknownIDsAreInvalidAndAnUnreachableStoreFails() async throws {
        let store = try openGame()
        defer { store.close() }
        let events = try await store.pollUntilTerminal(of: try store.requestProducts([Self.pro, "com.iosiap.example.nope", Self.coins]))
        guard case .productsReceived(_, let products, let invalid) = events.last else { Issue.record("\(events)"); return }
        #expect(Set(products.map(\.id)) == [Self.pro, Self.coins])
        #expect(products.first { $0.id == Self.pro }?.displayPrice == "$2.99")
        #expect(invalid == ["com.iosiap.example.nope"])

        try outside().setSimulatedError(.storeUnreachable, for: .loadProducts)
        let failed = try await store.pollUntilTerminal(of: try store.requestProducts([Self.pro])).last
        guard case .productsFailed(_, let error) = failed else { Issue.record("not failed: \(String(describing: failed))"); return }
        #expect(error.code == .storeUnreachable)
    }

    /// Closing the stand-in (a test's teardown, or the next test's `StoreKitStandIn.open`) ends the stream of a
    /// `Transaction.updates` listener still waiting, and returns: it once deadlocked when the listener had not
    /// stopped first, and hung CI.
    @Test func closingTheStandInEndsAListenerStillWaitingAndReturns() async throws {
        let store = try openGame()
        _ = try #require(try await buy(store, Self.pro))  // left unfinished
        store.close()
        // A new launch of StoreKit: its first listener gets the unfinished purchase, once it listens.
        let clock = self.clock
        try StoreKitStandIn.open(configuration: Fixtures.exampleCatalog, stateDirectory: appStore.url, now: { clock.now })
        let heard = Locked((transactions: 0, ended: false))
        let listener = Task {
            for await _ in Transaction.updates { heard.withLock { $0.transactions += 1 } }
            heard.withLock { $0.ended = true }
        }
        defer { listener.cancel() }
        await Self.waitUntil { heard.withLock { $0.transactions } > 0 }
        try #require(heard.withLock { $0.transactions } > 0, "the listener never started")

        let closing = JoinableThread(name: "close") { StoreKitStandIn.close() }
        #expect(await closing.join(timeout: .seconds(10)), "closing the stand-in did not return")
        await Self.waitUntil { heard.withLock { $0.ended } }
        #expect(heard.withLock { $0.ended }, "the listener's stream did not end")
    }

    /// The user cancels the purchase sheet (`PurchaseResult.userCancelled`): cancelled, not failed, nothing charged.
    @Test func aPurchaseTheUserCancelsIsCancelledAndChargesNothing() async throws {
        let store = try openGame()
        defer { store.close() }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts([Self.coins]))
        try outside().setPurchaseDialogResponse(.cancel)
        let answer = try await store.pollUntilTerminal(of: try store.requestPayment(productID: Self.coins)).last
        guard case .cancelled(_, let productID) = answer else { Issue.record("not cancelled: \(String(describing: answer))"); return }
        #expect(productID == Self.coins)
        #expect(try await outside().transactionHistory().isEmpty)
    }

    /// A purchase StoreKit refuses fails with the code of StoreKit's error (`Product.PurchaseError`,
    /// `StoreKitError`), and charges nothing.
    @Test(arguments: [StoreErrorCode.paymentNotAllowed, .storeProductNotAvailable, .storeUnreachable, .notEntitled,
                      .systemError, .paymentMethodBindingConfigurationRequired])
    func aPurchaseStoreKitRefusesFailsWithItsCode(code: StoreErrorCode) async throws {
        let store = try openGame()
        defer { store.close() }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts([Self.coins]))
        try outside().setSimulatedError(code, for: .purchase)
        let answer = try await store.pollUntilTerminal(of: try store.requestPayment(productID: Self.coins)).last
        guard case .failed(_, _, let error) = answer else { Issue.record("not failed: \(String(describing: answer))"); return }
        #expect(error.code == code)
        #expect(try await outside().transactionHistory().isEmpty)
    }

    /// A purchase the game did not finish before it closed is told once at the next launch (StoreKit lists it in
    /// `Transaction.unfinished` and emits it through `Transaction.updates` at launch), and once finished it is
    /// not told again.
    @Test func anUnfinishedPurchaseIsToldOnceAtTheNextLaunch() async throws {
        let bought: StoreTransaction
        do {
            let store = try openGame()
            bought = try #require(try await buy(store, Self.pro))
            store.close()
        }
        StoreKitStandIn.close()  // the app's next launch: StoreKit starts again
        let clock = self.clock
        try StoreKitStandIn.open(configuration: Fixtures.exampleCatalog, stateDirectory: appStore.url, now: { clock.now })
        func toldAgain(_ events: [StoreEvent]) -> Int {
            events.filter { if case .purchased(nil, let transaction) = $0 { transaction.id == bought.id } else { false } }.count
        }
        do {
            let store = try openGame()
            var events = try await store.pollUntil { toldAgain([$0]) == 1 }
            try await Task.sleep(for: .milliseconds(500))  // a second telling would have come by now (it takes milliseconds)
            events += await store.pollSettled()
            #expect(toldAgain(events) == 1, "\(events)")
            try store.finish(transactionID: bought.id)
            _ = await store.pollSettled()
            store.close()
        }
        StoreKitStandIn.close()
        try StoreKitStandIn.open(configuration: Fixtures.exampleCatalog, stateDirectory: appStore.url, now: { clock.now })
        let store = try openGame()
        defer { store.close() }
        try await Task.sleep(for: .milliseconds(500))
        #expect(toldAgain(await store.pollSettled()) == 0)
        #expect(try store.isEntitled(to: Self.pro))
    }

    /// A restore whose `AppStore.sync()` fails for another reason than the user's dismissal (the App Store cannot be
    /// reached) fails with that reason.
    @Test func aRestoreWhoseSyncFailsFailsWithItsReason() async throws {
        try await buyProFinishAndClose()
        try outside().setSimulatedError(.storeUnreachable, for: .appStoreSync)
        let store = try openGame()
        defer { store.close() }
        let events = try await store.pollUntilTerminal(of: try store.requestRestore())
        guard case .restoreFinished(_, .failure(let error)) = events.last else { Issue.record("\(events)"); return }
        #expect(error.code == .storeUnreachable)
    }

    /// A family member's purchase shared with the user arrives through `Transaction.updates` as FAMILY_SHARED and
    /// entitles; when the sharing ends, StoreKit revokes it (Apple: `revocationDate` set when "the family member
    /// ... stops sharing") and the game is told.
    @Test func aFamilySharedPurchaseArrivesSharedAndItsEndIsTold() async throws {
        let store = try openGame()
        defer { store.close() }
        let shared = try outside().buyFamilySharedProduct(Self.pro)
        let arrived = try await store.pollUntil { if case .purchased(nil, let transaction) = $0 { transaction.id == shared.id } else { false } }
        guard case .purchased(_, let transaction) = arrived.last else { Issue.record("\(arrived)"); return }
        #expect(transaction.ownershipType == .familyShared)
        #expect(try store.isEntitled(to: Self.pro))
        _ = try outside().stopFamilySharing(transactionID: shared.id)
        let ended = try await store.pollUntil { if case .revoked = $0 { true } else { false } }
        guard case .revoked(let revoked) = ended.last else { Issue.record("\(ended)"); return }
        #expect(revoked.id == shared.id)
        #expect(try !store.isEntitled(to: Self.pro))
    }

    /// Each storefront change reaches the game (`Storefront.updates`), and `Storefront.current` is the last.
    @Test func eachStorefrontChangeReachesTheGame() async throws {
        let store = try openGame()
        defer { store.close() }
        try outside().setStorefront("DEU")
        _ = try await store.pollUntil { if case .storefrontChanged("DEU") = $0 { true } else { false } }
        try outside().setStorefront("JPN")
        _ = try await store.pollUntil { if case .storefrontChanged("JPN") = $0 { true } else { false } }
        #expect(try await store.storefront() == "JPN")
    }

    /// A purchase the user starts in the App Store reaches the game (`PurchaseIntent.intents`), which may pay for it
    /// at once, without a products request.
    @Test func aPurchaseStartedInTheAppStoreReachesTheGameWhichMayPayForIt() async throws {
        let store = try openGame()
        defer { store.close() }
        try outside().requestPurchaseIntent(productID: Self.coins)
        let events = try await store.pollUntil { if case .purchaseIntent = $0 { true } else { false } }
        guard case .purchaseIntent(let product, let offer) = events.last else { Issue.record("\(events)"); return }
        #expect(product.id == Self.coins && product.displayPrice == "$0.99" && offer == nil)
        let paid = try await store.pollUntilTerminal(of: try store.requestPayment(productID: Self.coins)).last
        guard case .purchased(_, let transaction) = paid else { Issue.record("not purchased: \(String(describing: paid))"); return }
        #expect(transaction.productID == Self.coins)
    }

    /// The history is `Transaction.all`: every transaction, oldest first, a refunded one with its revocation.
    @Test func theHistoryIsEveryTransactionOldestFirstWithItsRefunds() async throws {
        let store = try openGame()
        defer { store.close() }
        let coins = try #require(try await buy(store, Self.coins))
        let pro = try #require(try await buy(store, Self.pro))
        _ = try outside().refund(transactionID: pro.id, reason: .refundedDueToIssue)
        _ = try await store.pollUntil { if case .revoked = $0 { true } else { false } }
        let history = try await store.transactionHistory()
        #expect(history.map(\.id) == [coins.id, pro.id])
        #expect(history.last?.revocationReason == .refundedDueToIssue)
        #expect(history.allSatisfy { $0.signedJWS != nil })
    }

    /// After a reinstall, the game buys what it owns while its server cannot answer: StoreKit answers with the
    /// transaction that grants it, finished long ago, and its check waits. At the next launch that copy comes
    /// through neither `Transaction.unfinished` nor the updates; its check passes on StoreKit's verdict from
    /// `Transaction.all`, and the game is entitled (found by the lifecycle simulation, seed 6274).
    @Test func aFinishedPurchaseWhoseCheckWaitedAcrossALaunchPassesAtTheNext() async throws {
        try await buyProFinishAndClose()
        device = TemporaryDirectory()  // a reinstall
        do {
            let unreachable = ScriptedVerifier(Array(repeating: .retryLater(StoreError(.verificationRetryable, "the server cannot be reached")), count: 50))
            let store = try StoreKitPurchaseStore.open(api: LiveStoreKit(), stateDirectory: device.state, serverVerifier: unreachable)
            _ = try await store.pollUntilTerminal(of: try store.requestProducts([Self.pro]))
            _ = try await store.pollUntilTerminal(of: try store.requestPayment(productID: Self.pro))
            #expect(try !store.isEntitled(to: Self.pro))
            store.close()
        }
        StoreKitStandIn.close()  // the app's next launch: StoreKit starts again
        let clock = self.clock
        try StoreKitStandIn.open(configuration: Fixtures.exampleCatalog, stateDirectory: appStore.url, now: { clock.now })
        let store = try StoreKitPurchaseStore.open(api: LiveStoreKit(), stateDirectory: device.state, serverVerifier: ScriptedVerifier())
        defer { store.close() }
        await Self.waitUntil { (try? store.isEntitled(to: Self.pro)) == true }
        #expect(try store.isEntitled(to: Self.pro))
    }

    /// A restore on a new device whose check cannot complete records the copy StoreKit gave, finished and not
    /// verified. Before the next launch StoreKit signs the transaction anew (here for a change of its auto-renewal),
    /// so the held copy can get no verdict of StoreKit's: the copy its current entitlements list passes then and
    /// replaces it, and the subscription is entitled.
    @Test func aRestoredCopyWhoseCheckWaitedGivesWayToTheCopyStoreKitSignedAnew() async throws {
        do {
            let store = try openGame(now: clock)
            _ = try await buyAndFinish(store, Self.gold)
            store.close()
        }
        device = TemporaryDirectory()  // a second device
        do {
            let unreachable = ScriptedVerifier(Array(repeating: .retryLater(StoreError(.verificationRetryable, "the server cannot be reached")), count: 50))
            let store = try openGame(now: clock, serverVerifier: unreachable)
            _ = try await store.pollUntilTerminal(of: try store.requestRestore())
            #expect(try !store.isEntitled(to: Self.gold))
            store.close()
        }
        try outside().setAutoRenew(productID: Self.gold, enabled: false)
        StoreKitStandIn.close()  // the app's next launch: StoreKit starts again
        let clock = self.clock
        try StoreKitStandIn.open(configuration: Fixtures.exampleCatalog, stateDirectory: appStore.url, now: { clock.now })
        let store = try openGame(now: clock, serverVerifier: ScriptedVerifier())
        defer { store.close() }
        await Self.waitUntil { (try? store.isEntitled(to: Self.gold)) == true }
        #expect(try store.isEntitled(to: Self.gold))
    }

    /// An upgrade replaces the level below at once: StoreKit marks the replaced transaction ("Transaction.isUpgraded":
    /// "look for another transaction that has a subscription with a higher level of service"), and only the upgrade
    /// is among the current entitlements ("Transaction.currentEntitlements": subscriptions subscribed or in grace).
    @Test func anUpgradeMarksTheTransactionItReplaced() async throws {
        let store = try openGame(now: clock)
        defer { store.close() }
        let silver = try #require(try await buy(store, Self.silver))
        try store.finish(transactionID: silver.id)
        clock.advance(by: 10)
        let gold = try #require(try await buy(store, Self.gold))
        var upgraded: [UInt64: Bool] = [:]
        for await result in StoreKit.Transaction.all {
            if case .verified(let transaction) = result { upgraded[transaction.id] = transaction.isUpgraded }
        }
        #expect(upgraded == [silver.id: true, gold.id: false])
        var current: [UInt64] = []
        for await result in StoreKit.Transaction.currentEntitlements {
            if case .verified(let transaction) = result { current.append(transaction.id) }
        }
        #expect(current == [gold.id])
    }
}
