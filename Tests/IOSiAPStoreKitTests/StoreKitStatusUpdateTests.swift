import Foundation
import IOSiAPCore
import IOSiAPStoreKit
import IOSiAPTestSupport
import Testing

/// `Product.SubscriptionInfo.Status.updates`: a renewal that fails while the game runs changes no transaction, only
/// the subscription's status; its grace period keeps the subscription.
@Suite struct StoreKitStatusUpdateTests {
    let folder = TemporaryDirectory()
    let storeKit = ScriptedStoreKit()

    func subscription(_ id: UInt64, group: String, expired: TimeInterval) -> ScriptedStoreKit.FakeTransaction {
        var transaction = ScriptedStoreKit.transaction(id, "monthly-\(group)", .autoRenewable)
        transaction.subscriptionGroupID = group
        transaction.purchaseDate = Date().addingTimeInterval(-expired - 30 * 86_400)
        transaction.expirationDate = Date().addingTimeInterval(-expired)
        return transaction
    }

    func grace(_ transaction: ScriptedStoreKit.FakeTransaction, days: Double,
               verified: Bool = true) -> StoreKitSubscriptionStatus<ScriptedStoreKit.FakeTransaction> {
        StoreKitSubscriptionStatus(state: .inGracePeriod, transaction: .verified(transaction), willAutoRenew: true,
                                   autoRenewProductID: transaction.productID, isInBillingRetry: true,
                                   gracePeriodExpirationDate: transaction.expirationDate!.addingTimeInterval(days * 86_400),
                                   renewalInfoJWS: "header.renewal-of-\(transaction.id).signature", renewalInfoVerified: verified)
    }

    /// The period ended a minute ago and the renewal failed: the status's grace period keeps the subscription, with
    /// its signed renewal info. A status whose renewal info StoreKit could not verify, or whose grace period runs
    /// past the longest the App Store gives (28 days), keeps nothing.
    @Test func aGracePeriodThatStartsWhileTheGameRunsKeepsTheSubscription() async throws {
        let backend = StoreKitBackend(api: storeKit)
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: backend.verifier)
        defer { store.close() }
        let lapsed = subscription(70, group: "G1", expired: 60)
        let forged = subscription(71, group: "G2", expired: 60)
        let tooLong = subscription(72, group: "G3", expired: 60)
        for transaction in [lapsed, forged, tooLong] { storeKit.sendUpdate(.verified(transaction)) }
        try await waitUntil { try store.unfinishedTransactions().count == 3 }
        #expect(try store.currentEntitlements().isEmpty)

        storeKit.sendStatus(grace(forged, days: 6, verified: false))
        storeKit.sendStatus(grace(tooLong, days: 400))
        storeKit.sendStatus(grace(lapsed, days: 6))  // the same stream: handled after the two before it
        try await waitUntil { try store.isEntitled(to: "monthly-G1") }
        let kept = try #require(try store.currentEntitlements().first)
        #expect(try store.currentEntitlements().count == 1)
        #expect(kept.gracePeriodExpirationDate == lapsed.expirationDate!.addingTimeInterval(6 * 86_400))
        #expect(kept.signedRenewalInfo == "header.renewal-of-70.signature")
    }

    /// A renewal StoreKit reported whose server check could not complete (its record waits for a verdict, unfinished)
    /// then enters billing grace: the status's grace end reaches the record once the server passes that copy, the
    /// subscription entitles through grace, and the game is told the purchase once. Before, the waiting record
    /// dropped the grace end, and a later pass of the copy without it ended the subscription at its expiration date.
    @Test func aGracePeriodReachesARenewalWhoseCheckIsWaiting() async throws {
        let unreachable = VerificationOutcome.retryLater(StoreError(.verificationRetryable, "the server cannot be reached"))
        let server = ScriptedVerifier([unreachable])
        let backend = StoreKitBackend(api: storeKit)
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: VerifierChain([backend.verifier, server]),
                                      retryPolicy: VerificationRetryPolicy(initial: .seconds(600), maximum: .seconds(600)))
        defer { store.close() }
        let lapsed = subscription(90, group: "G1", expired: 60)
        storeKit.sendUpdate(.verified(lapsed))
        _ = try await store.pollUntil { if case .verificationFailed = $0 { true } else { false } }
        #expect(try !store.isEntitled(to: "monthly-G1"))

        storeKit.sendStatus(grace(lapsed, days: 6))
        try await waitUntil { try store.isEntitled(to: "monthly-G1") }
        let kept = try #require(try store.currentEntitlements().first)
        #expect(kept.gracePeriodExpirationDate == lapsed.expirationDate!.addingTimeInterval(6 * 86_400))
        let told = await store.pollSettled().compactMap { if case .purchased(nil, let transaction) = $0 { transaction.id } else { nil } }
        #expect(told == [90], "told once, as the check passed: \(told)")
        try store.finish(transactionID: 90)
        #expect(try store.isEntitled(to: "monthly-G1"))
    }

    /// A `StoreKitAPI` written before `subscriptionStatusUpdates()` was a requirement still compiles, and its
    /// store works: it hears of no status change.
    @Test func aConformanceWithoutStatusUpdatesStillBuysAndIsEntitled() async throws {
        storeKit.script.withLock { $0.purchases = [.success(.success(.verified(ScriptedStoreKit.transaction(80, "pro", .nonConsumable))))] }
        let backend = StoreKitBackend(api: StoreKitWithoutStatusUpdates(base: storeKit))
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: backend.verifier)
        defer { store.close() }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["pro"]))
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "pro"))
        guard case .purchased(_, let transaction) = events.last else { Issue.record("\(events)"); return }
        #expect(transaction.id == 80)
        #expect(try store.isEntitled(to: "pro"))
    }
}

/// A conformance as one was written before `Product.SubscriptionInfo.Status.updates` was listened to: every
/// requirement but `subscriptionStatusUpdates()`, passed on to the scripted StoreKit.
private struct StoreKitWithoutStatusUpdates: StoreKitAPI {
    let base: ScriptedStoreKit

    func products(for ids: [String]) async throws(StoreKitFailure) -> [ScriptedStoreKit.FakeProduct] {
        try await base.products(for: ids)
    }
    func purchase(_ product: ScriptedStoreKit.FakeProduct, quantity: Int, appAccountToken: UUID?,
                  promotionalOffer: SignedPromotionalOffer?, promotionalOfferJWS: PromotionalOfferJWS?,
                  introductoryOfferEligibilityJWS: String?, winBackOfferID: String?,
                  uiContext: UIContext?) async throws(StoreKitFailure) -> StoreKitPurchaseResult<ScriptedStoreKit.FakeTransaction> {
        try await base.purchase(product, quantity: quantity, appAccountToken: appAccountToken, promotionalOffer: promotionalOffer,
                                promotionalOfferJWS: promotionalOfferJWS,
                                introductoryOfferEligibilityJWS: introductoryOfferEligibilityJWS,
                                winBackOfferID: winBackOfferID, uiContext: uiContext)
    }
    func presentOfferCodeRedeemSheet(uiContext: UIContext?) throws(StoreKitFailure) {
        try base.presentOfferCodeRedeemSheet(uiContext: uiContext)
    }
    func beginRefundRequest(transactionID: UInt64, uiContext: UIContext?) async throws(StoreKitFailure) -> StoreKitRefundRequestStatus {
        try await base.beginRefundRequest(transactionID: transactionID, uiContext: uiContext)
    }
    func showManageSubscriptions(uiContext: UIContext?) async throws(StoreKitFailure) {
        try await base.showManageSubscriptions(uiContext: uiContext)
    }
    func transactionUpdates() -> AsyncStream<StoreKitVerified<ScriptedStoreKit.FakeTransaction>> { base.transactionUpdates() }
    func unfinishedTransactions() async -> [StoreKitVerified<ScriptedStoreKit.FakeTransaction>] { await base.unfinishedTransactions() }
    func currentEntitlements() async -> [StoreKitVerified<ScriptedStoreKit.FakeTransaction>] { await base.currentEntitlements() }
    func sync() async throws(StoreKitFailure) { try await base.sync() }
    func finish(transactionID: UInt64) async { await base.finish(transactionID: transactionID) }
    var canMakePayments: Bool { base.canMakePayments }
    func storefrontCountryCode() async -> String? { await base.storefrontCountryCode() }
    func subscriptionStatuses(groupID: String) async throws(StoreKitFailure) -> [StoreKitSubscriptionStatus<ScriptedStoreKit.FakeTransaction>] {
        try await base.subscriptionStatuses(groupID: groupID)
    }
    func isEligibleForIntroOffer(groupID: String) async -> Bool { await base.isEligibleForIntroOffer(groupID: groupID) }
    func allTransactions() async -> [StoreKitVerified<ScriptedStoreKit.FakeTransaction>] { await base.allTransactions() }
    func purchaseIntents() -> AsyncStream<StoreKitPurchaseIntent<ScriptedStoreKit.FakeProduct>> { base.purchaseIntents() }
    func appTransaction() async throws(StoreKitFailure) -> StoreKitVerified<StoreKitAppTransaction> { try await base.appTransaction() }
    func messages() -> AsyncStream<ScriptedStoreKit.FakeMessage> { base.messages() }
    var hasMessages: Bool { base.hasMessages }
    func display(_ message: ScriptedStoreKit.FakeMessage, uiContext: UIContext?) throws(StoreKitFailure) {
        try base.display(message, uiContext: uiContext)
    }
    func storefrontUpdates() -> AsyncStream<String> { base.storefrontUpdates() }
}

/// A billing grace period that ends before the end the record holds: StoreKit's status leaves grace (billing retry
/// or expired; neither entitles, "Product.SubscriptionInfo.RenewalState"), or at launch the subscription is no longer
/// among the current entitlements ("Transaction.currentEntitlements" lists those subscribed or in grace).
@Suite struct StoreKitGraceEndTests {
    let folder = TemporaryDirectory()
    let storeKit = ScriptedStoreKit()
    let graceEnd = Date().addingTimeInterval(6 * 86_400)

    /// Opens the game, whose subscription 70 lapsed a minute ago, and has StoreKit put it in a grace period: the
    /// record holds that period's end.
    func openInGrace() async throws -> (PurchaseStore, ScriptedStoreKit.FakeTransaction) {
        var lapsed = ScriptedStoreKit.transaction(70, "monthly", .autoRenewable)
        lapsed.subscriptionGroupID = "G1"
        lapsed.purchaseDate = Date().addingTimeInterval(-60 - 30 * 86_400)
        lapsed.expirationDate = Date().addingTimeInterval(-60)
        let backend = StoreKitBackend(api: storeKit)
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: backend.verifier)
        storeKit.sendUpdate(.verified(lapsed))
        _ = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        try store.finish(transactionID: 70)
        storeKit.sendStatus(status(.inGracePeriod, of: lapsed))
        try await waitUntil { try store.isEntitled(to: "monthly") }
        return (store, lapsed)
    }

    func status(_ state: StoreSubscriptionStatus.State, of transaction: ScriptedStoreKit.FakeTransaction,
                renewalInfoVerified: Bool = true) -> StoreKitSubscriptionStatus<ScriptedStoreKit.FakeTransaction> {
        StoreKitSubscriptionStatus(state: state, transaction: .verified(transaction), willAutoRenew: state != .expired,
                                   autoRenewProductID: "monthly", isInBillingRetry: state != .expired,
                                   gracePeriodExpirationDate: state == .inGracePeriod ? graceEnd : nil,
                                   renewalInfoJWS: "header.renewal-of-\(transaction.id).signature", renewalInfoVerified: renewalInfoVerified)
    }

    /// While the game runs: the status moves to billing retry (or expired) before the grace end the record holds.
    /// A status whose renewal info StoreKit could not verify ends nothing; a verified one ends the grace period and
    /// tells `expired` once.
    @Test(arguments: [StoreSubscriptionStatus.State.inBillingRetryPeriod, .expired])
    func aGracePeriodEndedEarlyWhileTheGameRunsEndsTheSubscription(state: StoreSubscriptionStatus.State) async throws {
        let (store, lapsed) = try await openInGrace()
        defer { store.close() }
        storeKit.sendStatus(status(state, of: lapsed, renewalInfoVerified: false))
        await SerialThreadExecutor.libraryTasks.waitUntilIdle()
        #expect(await store.pollSettled().isEmpty)
        #expect(try store.isEntitled(to: "monthly"), "unverified renewal info ends nothing")

        storeKit.sendStatus(status(state, of: lapsed))
        let events = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        #expect(events.compactMap { if case .expired(let transaction) = $0 { transaction.id } else { nil } } == [UInt64(70)])
        #expect(try !store.isEntitled(to: "monthly"))
        storeKit.sendStatus(status(state, of: lapsed))
        await SerialThreadExecutor.libraryTasks.waitUntilIdle()
        #expect(await store.pollSettled().isEmpty, "told once")
    }

    /// While the game was closed: at the next launch StoreKit no longer lists the subscription, and it ends then,
    /// not at the grace end the record holds.
    @Test func aGracePeriodEndedWhileTheGameWasClosedEndsAtLaunch() async throws {
        let (store, lapsed) = try await openInGrace()
        store.close()
        let relaunched = ScriptedStoreKit()
        relaunched.script.withLock { $0.all = [.verified(lapsed)] }
        let backend = StoreKitBackend(api: relaunched)
        let again = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: backend.verifier)
        defer { again.close() }
        let events = try await again.pollUntil { if case .expired = $0 { true } else { false } }
        #expect(events.compactMap { if case .expired(let transaction) = $0 { transaction.id } else { nil } } == [UInt64(70)])
        #expect(try !again.isEntitled(to: "monthly"))
    }
}

/// A server verifier whose first answer is "retry later" and whose second waits until the test lets it pass: a check
/// held open while other reports arrive.
private final class HeldVerifier: TransactionVerifier {
    private let calls = Locked(0)
    private let gate = Locked<CheckedContinuation<Void, Never>?>(nil)
    private let opened = Locked(false)

    var callCount: Int { calls.withLock { $0 } }

    func verify(_ transaction: StoreTransaction) async -> VerificationOutcome {
        let call = calls.withLock { $0 += 1; return $0 }
        if call == 1 { return .retryLater(StoreError(.verificationRetryable, "the server cannot be reached")) }
        if call == 2 {
            await withCheckedContinuation { continuation in
                let open = opened.withLock { opened in
                    if !opened { gate.withLock { $0 = continuation } }
                    return opened
                }
                if open { continuation.resume() }
            }
        }
        return .verified
    }

    func open() {
        let waiting = opened.withLock { opened in
            opened = true
            return gate.withLock { gate in defer { gate = nil }; return gate }
        }
        waiting?.resume()
    }
}

extension StoreKitGraceEndTests {
    /// A reinstall in grace whose check cannot complete at launch; its retry is being checked when StoreKit says the
    /// grace period is over (there is no record yet to end). The retry's pass must not write the grace end back: the
    /// user is not entitled, and the record holds no grace period.
    @Test func aGraceEndMetWhileTheReportsCheckIsUnderwayIsNotUndoneByIt() async throws {
        var lapsed = ScriptedStoreKit.transaction(75, "monthly", .autoRenewable)
        lapsed.subscriptionGroupID = "G1"
        lapsed.purchaseDate = Date().addingTimeInterval(-60 - 30 * 86_400)
        lapsed.expirationDate = Date().addingTimeInterval(-60)
        storeKit.script.withLock {
            $0.entitlements = [.verified(lapsed)]
            $0.statuses = [status(.inGracePeriod, of: lapsed)]
        }
        let server = HeldVerifier()
        let backend = StoreKitBackend(api: storeKit)
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: VerifierChain([backend.verifier, server]),
                                      retryPolicy: VerificationRetryPolicy(initial: .milliseconds(10), maximum: .milliseconds(20)))
        defer { store.close() }
        try await waitUntil { server.callCount == 2 }  // the retry's check is underway
        storeKit.sendStatus(status(.inBillingRetryPeriod, of: lapsed))
        await SerialThreadExecutor.libraryTasks.waitUntilIdle()
        try await Task.sleep(for: .milliseconds(50))
        server.open()
        // Before, the pass wrote the grace end and the user was entitled within milliseconds: watched for a second.
        var entitled = false
        for _ in 0..<100 where !entitled {
            entitled = try store.isEntitled(to: "monthly")
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(!entitled)
        #expect(server.callCount == 2)
    }
}
