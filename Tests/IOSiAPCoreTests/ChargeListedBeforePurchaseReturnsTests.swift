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
