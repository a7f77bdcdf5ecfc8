import Foundation
import IOSiAPCore
import IOSiAPTestSupport
import Testing

/// How a deferred purchase ends when the store answers with a transaction the game was told of before (something
/// owned): the game, told it is deferred, hears it once more, also when it arrives while another purchase of the
/// product is in progress.
@Suite struct DeferralEndTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    /// Held while the purchase runs, then told, since that purchase answered with another transaction.
    @Test func anEndArrivingWhileAPurchaseOfItsProductRunsIsToldWhenItReturns() async throws {
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: nil)
        defer { store.close() }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["pro"]))
        guard case .purchased(_, let owned) = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "pro")).last else {
            Issue.record("not purchased"); return
        }
        backend.scriptPurchases(.success(.deferred))
        guard case .deferred = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "pro")).last else {
            Issue.record("not deferred"); return
        }
        backend.holdPurchasesAfterCharging()
        let running = try store.requestPayment(productID: "pro")
        try await waitUntil { backend.purchasesWaitingToReturn == 1 }
        backend.send(.deferredPurchaseCompleted(owned))
        let meanwhile = await store.pollSettled()
        #expect(!meanwhile.contains { if case .purchased = $0 { true } else { false } }, "\(meanwhile)")
        backend.releasePurchases()
        var events = try await store.pollUntilTerminal(of: running)
        events += await store.pollSettled()
        let toldAgain = events.filter { if case .purchased(nil, let transaction) = $0 { transaction.id == owned.id } else { false } }
        #expect(toldAgain.count == 1, "\(events)")
    }

    /// An owned transaction whose check failed, told once already in this launch, ends a deferred purchase of its
    /// product by failing again: the game, told the purchase is deferred, hears that failure too.
    @Test func aDeferralEndedByAFailureToldBeforeIsToldAgain() async throws {
        let forged = StoreError(.verificationInvalidSignature, "forged")
        let verifier = ScriptedVerifier([.failed(forged), .failed(forged)])
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: verifier)
        defer { store.close() }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["pro"]))
        await store.waitUntilWorkerIdle()  // launch redelivery has read the (empty) unfinished list
        let owned = backend.makeTransaction("pro")
        func failures(_ events: [StoreEvent]) -> Int {
            events.filter { if case .verificationFailed(nil, let transaction, _) = $0 { transaction.id == owned.id } else { false } }.count
        }
        backend.send(.purchased(owned))
        #expect(failures(try await store.pollUntil { if case .verificationFailed = $0 { true } else { false } }) == 1)
        backend.scriptPurchases(.success(.deferred))
        guard case .deferred = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "pro")).last else {
            Issue.record("not deferred"); return
        }
        backend.send(.deferredPurchaseCompleted(owned))
        try await waitUntil { verifier.verifiedIDs.count == 2 }
        await store.waitUntilWorkerIdle()
        #expect(failures(await store.pollSettled()) == 1)
    }
}
