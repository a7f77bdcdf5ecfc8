import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPStoreKit
import IOSiAPTestSupport
import StoreKit
import Testing

/// What `StoreKitBackendTests` claims of StoreKit's verdicts and of a transaction told twice, checked through
/// LiveStoreKit on the stand-in: StoreKit calls a copy unverified (`VerificationResult.unverified`, here through the
/// store's simulated verification error, StoreKitTest's `failTransactionsEnabled`), and reports a purchase on
/// `Transaction.updates` as well as in its result (the stand-in's echo switch), and hands over copies a tool forged
/// (`StoreKitStandIn.forgeCopies`). One at a time, as the suite.
extension StandInTests {
    static func purchases(of id: UInt64, in events: [StoreEvent]) -> Int {
        events.filter { if case .purchased(_, let transaction) = $0 { transaction.id == id } else { false } }.count
    }

    static func failures(in events: [StoreEvent]) -> [(id: UInt64, code: StoreErrorCode)] {
        events.compactMap { if case .verificationFailed(_, let transaction, let error) = $0 { (transaction.id, error.code) } else { nil } }
    }

    /// The events once `condition` holds (StoreKit read as the test needs, say) and the core has handled what it
    /// gave: a positive sign in place of a sleep, which a busy machine could outlast.
    /// The library's tasks (LiveStoreKit's listeners and launch report) hand what they read to the worker: both
    /// are waited for, in turn, until neither had anything left (a few rounds, since each can give the other work).
    func settled(_ store: PurchaseStore, once condition: () -> Bool) async throws -> [StoreEvent] {
        await Self.waitUntil(condition)
        try #require(condition(), "what the test waits for never happened")
        for _ in 0..<3 {
            await SerialThreadExecutor.libraryTasks.waitUntilIdle()
            await store.waitUntilWorkerIdle()
        }
        return await store.pollSettled()
    }

    static func read(_ done: (StoreKitStandIn.Reads) -> Bool) -> Bool {
        (try? StoreKitStandIn.reads()).map(done) ?? false
    }

    /// StoreKit's next launch on the same App Store, the game's journal kept.
    func relaunchStoreKit() throws {
        StoreKitStandIn.close()
        let clock = self.clock
        try StoreKitStandIn.open(configuration: Fixtures.exampleCatalog, stateDirectory: appStore.url, now: { clock.now })
    }

    /// A purchase StoreKit calls unverified is a verification failure with StoreKit's reason: not granted, not
    /// finished, no entitlement.
    @Test func aPurchaseStoreKitCallsUnverifiedIsAVerificationFailure() async throws {
        try outside().setSimulatedError(.verificationInvalidSignature, for: .verification)
        let store = try openGame()
        defer { store.close() }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts([Self.pro]))
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: Self.pro))
        guard case .verificationFailed(_, let transaction, let error) = events.last else { Issue.record("\(events)"); return }
        #expect(error.code == .verificationInvalidSignature)
        #expect(Self.purchases(of: transaction.id, in: events) == 0)
        #expect(try store.unfinishedTransactions().map(\.id) == [transaction.id])
        #expect(try !store.isEntitled(to: Self.pro))
        #expect(await Transaction.unfinished.reduce(into: 0) { count, _ in count += 1 } == 1, "StoreKit keeps it unfinished")
    }

    /// An unverified purchase stays a failure at each launch StoreKit still calls it unverified (told once each
    /// launch, never entitling), and is purchased at the launch StoreKit verifies it.
    @Test func anUnverifiedPurchaseStaysFailedUntilStoreKitVerifiesIt() async throws {
        try outside().setSimulatedError(.verificationInvalidSignature, for: .verification)
        let id: UInt64
        do {
            let store = try openGame()
            defer { store.close() }
            _ = try await store.pollUntilTerminal(of: try store.requestProducts([Self.pro]))
            let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: Self.pro))
            id = try #require(Self.failures(in: events).first?.id)
        }
        try relaunchStoreKit()
        do {
            let store = try openGame()
            defer { store.close() }
            // Both of StoreKit's launch hand-overs read: the updates' and the unfinished list's.
            let events = try await settled(store) { Self.read { $0.launchUpdates == 1 && $0.unfinished >= 1 } }
            #expect(Self.failures(in: events).map(\.id) == [id], "\(events)")
            #expect(Self.purchases(of: id, in: events) == 0)
            #expect(try !store.isEntitled(to: Self.pro) && store.currentEntitlements().isEmpty)
        }
        try outside().setSimulatedError(nil, for: .verification)
        try relaunchStoreKit()
        let store = try openGame()
        defer { store.close() }
        let events = try await store.pollUntil { Self.purchases(of: id, in: [$0]) == 1 } + store.pollSettled()
        #expect(Self.purchases(of: id, in: events) == 1, "\(events)")
        #expect(try store.isEntitled(to: Self.pro))
    }

    /// An unfinished purchase whose server check cannot complete at the next launch is told as retryable once,
    /// though StoreKit hands it over twice then (its updates and its unfinished list).
    @Test func anUnfinishedPurchaseWhoseCheckCannotCompleteIsToldOnceAtLaunch() async throws {
        let bought: StoreTransaction
        do {
            let store = try openGame()
            bought = try #require(try await buy(store, Self.pro))
            store.close()
        }
        try relaunchStoreKit()
        let unreachable = ScriptedVerifier(Array(repeating: .retryLater(StoreError(.verificationRetryable, "the server cannot be reached")), count: 50))
        let store = try openGame(serverVerifier: unreachable)
        defer { store.close() }
        // Both hand-overs checked: the updates' and the unfinished list's.
        let events = try await settled(store) {
            Self.read { $0.launchUpdates == 1 && $0.unfinished >= 1 } && unreachable.verifiedIDs.filter { $0 == bought.id }.count >= 2
        }
        let told = events.filter {
            if case .verificationFailed(nil, let transaction, let error) = $0 { transaction.id == bought.id && error.code == .verificationRetryable } else { false }
        }
        #expect(told.count == 1, "\(events)")
        #expect(Self.purchases(of: bought.id, in: events) == 0)
    }

    /// After a reinstall, a restore whose copies StoreKit calls unverified restores nothing and entitles nothing,
    /// at the restore and at the next launch; once StoreKit verifies them, a restore gives the purchase.
    @Test func aRestoreStoreKitCallsUnverifiedEntitlesNothingUntilItVerifies() async throws {
        let bought = try await buyProFinishAndClose()
        device = TemporaryDirectory()  // reinstalled
        try outside().setSimulatedError(.verificationInvalidSignature, for: .verification)
        func restored(_ events: [StoreEvent]) -> [UInt64] {
            events.compactMap { if case .restored(_, let transaction) = $0 { transaction.id } else { nil } }
        }
        do {
            let store = try openGame()
            defer { store.close() }
            let events = try await store.pollUntilTerminal(of: try store.requestRestore())
            #expect(restored(events).isEmpty, "\(events)")
            #expect(try !store.isEntitled(to: Self.pro))
        }
        try relaunchStoreKit()
        do {
            let store = try openGame()
            defer { store.close() }
            _ = try await settled(store) { Self.read { $0.currentEntitlements >= 1 } }
            #expect(try !store.isEntitled(to: Self.pro))
        }
        try outside().setSimulatedError(nil, for: .verification)
        let store = try openGame()
        defer { store.close() }
        let events = try await store.pollUntilTerminal(of: try store.requestRestore())
        #expect(restored(events) == [bought.id], "\(events)")
        #expect(try store.isEntitled(to: Self.pro))
    }

    /// A tool on the device forges StoreKit's copies of a subscription the journal holds verified, so that it runs a
    /// year past its end, and StoreKit lists it among the current entitlements under that forged end, calling it
    /// unverified. The verdict on the genuine copy (in the same launch, or kept by the journal) passes none of these:
    /// after the genuine end the game is not entitled, in that launch and the next, restores included.
    /// (StoreKitVerdictTests claims it of copies the fake hands over.)
    @Test func aForgedCopyExtendingASubscriptionEntitlesNothingPastItsGenuineEnd() async throws {
        let forgedEnd = clock.now.addingTimeInterval(365 * 86_400)
        func restoresForgedEnd(_ events: [StoreEvent]) -> Bool {
            events.contains { event in
                guard case .restored(_, let transaction) = event, let end = transaction.expirationDate else { return false }
                return end > forgedEnd.addingTimeInterval(-86_400)
            }
        }
        do {
            let store = try openGame(now: clock)
            defer { store.close() }
            let bought = try await buyAndFinish(store, Self.gold)
            let end = try #require(bought.expirationDate)
            try outside().setAutoRenew(productID: Self.gold, enabled: false)
            StoreKitStandIn.forgeCopies(of: bought.id) { $0.expirationDate = forgedEnd }
            let events = try await store.pollUntilTerminal(of: try store.requestRestore())
            #expect(!restoresForgedEnd(events), "\(events)")
            // The restore got the forged copy and failed it (the genuine one needs no telling).
            #expect(Self.failures(in: events).map(\.id) == [bought.id], "\(events)")
            #expect(events.contains { if case .restoreFinished(_, .success) = $0 { true } else { false } }, "\(events)")
            clock.advance(by: end.timeIntervalSince(clock.now) + 86_400)
            #expect(try !store.isEntitled(to: Self.gold), "entitled past the genuine end in the launch of the forgery")
        }
        try relaunchStoreKit()
        var listed = 0
        for await result in StoreKit.Transaction.currentEntitlements {
            if case .unverified(let transaction, .invalidSignature) = result,
               let end = transaction.expirationDate, end > forgedEnd.addingTimeInterval(-86_400) { listed += 1 }
        }
        try #require(listed == 1, "StoreKit lists the forged copy, unverified")
        let store = try openGame(now: clock)
        defer { store.close() }
        _ = try await settled(store) { Self.read { $0.currentEntitlements >= 2 && $0.all >= 1 } }
        #expect(try !store.isEntitled(to: Self.gold))
        let events = try await store.pollUntilTerminal(of: try store.requestRestore())
        #expect(!restoresForgedEnd(events), "\(events)")
        #expect(try !store.isEntitled(to: Self.gold))
    }

    /// After a reinstall, a forged copy of the pro upgrade (dated a day earlier) entitles nothing, and StoreKit's
    /// failing it does not fail the genuine copy: once the tool is gone, the next launch on the same journal is
    /// entitled at launch, and, after another reinstall, a restore in the launch that failed the forged copy gives
    /// the purchase.
    @Test func aForgedCopyAtAReinstallEntitlesNothingAndDoesNotFailTheGenuineOne() async throws {
        let bought = try await buyProFinishAndClose()
        let forgery: @Sendable (inout StoreTransaction) -> Void = {
            $0.purchaseDate.addTimeInterval(-86_400)
            $0.originalPurchaseDate.addTimeInterval(-86_400)
        }
        /// A launch on the device's journal while the tool forges the pro upgrade's copies: entitled to nothing.
        func forgedLaunch() async throws -> PurchaseStore {
            StoreKitStandIn.forgeCopies(of: bought.id, forgery)
            try relaunchStoreKit()
            let store = try openGame()
            _ = try await settled(store) { Self.read { $0.currentEntitlements >= 1 } }
            #expect(try !store.isEntitled(to: Self.pro))
            return store
        }
        device = TemporaryDirectory()  // reinstalled
        try await forgedLaunch().close()
        StoreKitStandIn.forgeCopies(of: bought.id, nil)
        try relaunchStoreKit()
        do {
            let store = try openGame()
            defer { store.close() }
            _ = try await settled(store) { Self.read { $0.currentEntitlements >= 1 } }
            #expect(try store.isEntitled(to: Self.pro), "the next launch on the same journal")
        }
        device = TemporaryDirectory()  // reinstalled again
        let store = try await forgedLaunch()
        defer { store.close() }
        StoreKitStandIn.forgeCopies(of: bought.id, nil)
        let events = try await store.pollUntilTerminal(of: try store.requestRestore())
        #expect(events.contains { if case .restored(_, let transaction) = $0 { transaction.id == bought.id } else { false } }, "\(events)")
        #expect(try store.isEntitled(to: Self.pro), "a restore in the launch that failed the forged copy")
    }

    /// A purchase StoreKit also reports on `Transaction.updates` (before its result, or after it) is told to the
    /// game once, and a consumable's grant is made once.
    @Test(arguments: [StoreKitStandIn.PurchaseEcho.beforeResult, .afterResult])
    func aPurchaseAlsoReportedOnTheUpdatesIsToldOnce(echo: StoreKitStandIn.PurchaseEcho) async throws {
        try StoreKitStandIn.setPurchaseEcho(echo)
        let store = try openGame()
        defer { store.close() }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts([Self.coins]))
        var events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: Self.coins))
        guard case .purchased(_, let bought) = events.last else { Issue.record("\(events)"); return }
        events += try await settled(store) { (try? StoreKitStandIn.purchaseEchoesReported()) == 1 }
        #expect(Self.purchases(of: bought.id, in: events) == 1, "\(events)")
        try store.finish(transactionID: bought.id)
        _ = await store.pollSettled()
        #expect(try store.unfinishedTransactions().isEmpty)
    }

    /// A coin purchase refunded while the game is closed, finished before: StoreKit leaves finished consumables out
    /// of `Transaction.all` unless the app's Info.plist sets `SKIncludeConsumableInAppPurchaseHistory`, and its
    /// updates are not documented to report a refund made while the app was closed. With the key the next launch
    /// tells the refund (the ledger takes the coins back); without it the game never learns of it on the device (the
    /// developer's server hears it as a REFUND notification), as docs/ios.md tells studios.
    @Test(arguments: [false, true])
    func aCoinPurchaseRefundedWhileClosed(includesConsumableHistory: Bool) async throws {
        let bought: StoreTransaction
        do {
            let store = try openGame()
            defer { store.close() }
            bought = try #require(try await buy(store, Self.coins))
            try store.finish(transactionID: bought.id)
            _ = await store.pollSettled()
        }
        do {
            let outside = try outside()
            _ = try outside.refund(transactionID: bought.id)
            outside.close()
        }
        try relaunchStoreKit()
        try StoreKitStandIn.setIncludesConsumableHistory(includesConsumableHistory)
        let store = try openGame()
        defer { store.close() }
        // With the key the refund is told; without it, nothing once the launch has read Transaction.all to its end.
        let events = includesConsumableHistory ? try await store.pollUntil { if case .revoked = $0 { true } else { false } }
            : try await settled(store) { Self.read { $0.all >= 1 } }
        let revoked = events.compactMap { if case .revoked(let transaction) = $0 { transaction.id } else { nil } }
        #expect(revoked == (includesConsumableHistory ? [bought.id] : []))
    }
}
