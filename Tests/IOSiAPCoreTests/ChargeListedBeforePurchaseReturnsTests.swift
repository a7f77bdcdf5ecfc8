import Foundation
import IOSiAPCore
import IOSiAPTestSupport
import Testing

/// A payment charged while launch redelivery lists the store's unfinished transactions: the new charge is on
/// that list before `purchase` returns, and must reach the game once, as the payment's answer.
@Suite struct ChargeListedBeforePurchaseReturnsTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    func purchasedOnceAsThePaymentsAnswer(verifier: (any TransactionVerifier)?) async throws {
        backend.holdUnfinishedList()
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: verifier)
        defer { store.close() }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins"]))
        backend.holdPurchasesAfterCharging()
        let payment = try store.requestPayment(productID: "coins")
        try await waitUntil { backend.purchasesWaitingToReturn == 1 }
        // Redelivery now lists the charge, and has time to deliver it, before the payment returns.
        backend.openUnfinishedList()
        var events = await store.pollSettled()
        backend.releasePurchases()
        events += try await store.pollUntilTerminal(of: payment)
        events += await store.pollSettled()
        let purchased = events.filter { if case .purchased = $0 { true } else { false } }
        #expect(purchased.count == 1, "\(events)")
        #expect(purchased.first?.requestID == payment)
    }

    @Test func withoutAVerifier() async throws {
        try await purchasedOnceAsThePaymentsAnswer(verifier: nil)
    }

    @Test func withAVerifier() async throws {
        try await purchasedOnceAsThePaymentsAnswer(verifier: AcceptingVerifier())
    }
}

/// Passes every transaction.
private struct AcceptingVerifier: TransactionVerifier {
    func verify(_ transaction: StoreTransaction) async -> VerificationOutcome { .verified }
}

/// Issue 37, item 4: a purchase launch redelivery holds back while a payment of its product runs, refunded
/// meanwhile, is not handed out after its refund: the game would take back, then grant, and keep what was refunded.
/// Hand-out re-reads the record.
@Suite struct HeldPurchaseRefundedMeanwhileTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    @Test(arguments: [false, true])
    func isNeverHandedOutAfterItsRefund(withVerifier: Bool) async throws {
        let earlier = backend.makeTransaction("coins")  // charged in an earlier launch, never delivered
        backend.holdUnfinishedList()
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state,
                                      verifier: withVerifier ? ScriptedVerifier() : nil)
        defer { store.close() }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins"]))
        backend.holdPurchasesAfterCharging()
        let payment = try store.requestPayment(productID: "coins")
        try await waitUntil { backend.purchasesWaitingToReturn == 1 }
        backend.holdUnfinished([earlier])
        backend.openUnfinishedList()  // redelivery lists the earlier charge: held while the payment of coins runs
        var events = await store.pollSettled()
        let refunded = earlier.refunded()
        backend.send(.revoked(refunded))
        events += try await store.pollUntil { if case .revoked = $0 { true } else { false } }
        backend.releasePurchases()
        events += try await store.pollUntilTerminal(of: payment)
        events += await store.pollSettled()
        #expect(!events.contains(.purchased(requestID: nil, transaction: earlier)), "\(events)")
        #expect(events.contains(.revoked(transaction: refunded)))
        #expect(try !store.unfinishedTransactions().contains { $0.id == earlier.id })
    }
}

/// A purchase queued before its refund is handed out first, as queued: the game hears both, in order (a refund
/// told without its purchase would take back what the game never granted).
@Suite struct PurchaseQueuedBeforeItsRefundTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    @Test func isHandedOutBeforeItsRefund() async throws {
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
        defer { store.close() }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["pro"]))
        let approved = backend.makeTransaction("pro")
        backend.send(.purchased(approved))  // an approval while the game does not poll ...
        backend.send(.revoked(approved.refunded()))  // ... then its refund
        await store.waitUntilWorkerIdle()
        let events = try await store.pollUntil { if case .revoked = $0 { true } else { false } }
        #expect(events.count == 2 && events.first == .purchased(requestID: nil, transaction: approved), "\(events)")
    }
}
