import Foundation
import IOSiAPCore
import IOSiAPTestSupport
import Testing

/// What the store reports the user owns at launch (`StoreUpdate.entitled`: a reinstall, a new device), recorded
/// when the journal lacks it.
@Suite struct EntitlementReportTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    /// A store that cannot list its unfinished transactions when the report is checked cannot say whether launch
    /// redelivery will tell it (then it must not be recorded finished, unseen): it is checked again in the launch,
    /// and recorded once the list answers, not only at the next launch.
    @Test func aReportMetWhileTheStoreCannotListItsUnfinishedOnesIsCheckedAgainInTheLaunch() async throws {
        let owned = StoreTransaction(id: 41, originalID: 41, productID: "pro", productType: .nonConsumable, quantity: 1,
                                     purchaseDate: Date().addingTimeInterval(-86_400), originalPurchaseDate: Date().addingTimeInterval(-86_400),
                                     environment: .xcode, storefront: "USA")
        backend.failUnfinishedList(times: 2)  // launch redelivery's list, then the report's
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state,
                                      retryPolicy: VerificationRetryPolicy(initial: .milliseconds(10), maximum: .milliseconds(20)))
        defer { store.close() }
        _ = await store.pollSettled()
        backend.send(.entitled(owned))
        try await waitUntil { try store.isEntitled(to: "pro") }
        #expect(try store.unfinishedTransactions().isEmpty, "recorded finished: the store holds it finished")
        #expect(await store.pollSettled().isEmpty, "a report tells the game nothing")
    }
}

/// Refunds and expiries whose check cannot complete: one chain of retries per transaction, on every path.
@Suite struct StatusChangeRetryTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    /// The store reports the same expiry twice while its check cannot complete (at launch and by its watcher, say):
    /// the game hears of the check once, and one chain checks it again, not one per report.
    @Test func anExpiryReportedTwiceWhileItsCheckWaitsIsCheckedByOneChain() async throws {
        let ended = StoreTransaction(id: 51, originalID: 51, productID: "monthly", productType: .autoRenewable, quantity: 1,
                                     purchaseDate: Date().addingTimeInterval(-31 * 86_400),
                                     originalPurchaseDate: Date().addingTimeInterval(-31 * 86_400),
                                     expirationDate: Date().addingTimeInterval(-86_400), environment: .xcode, storefront: "USA",
                                     subscriptionGroupID: "G1")
        let down = VerificationOutcome.retryLater(StoreError(.verificationRetryable, "the server cannot be reached"))
        let server = ScriptedVerifier([down, down])
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: server,
                                      retryPolicy: VerificationRetryPolicy(initial: .seconds(1), maximum: .seconds(1)))
        defer { store.close() }
        _ = await store.pollSettled()
        backend.send(.expired(ended))
        backend.send(.expired(ended))
        let events = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        try await Task.sleep(for: .milliseconds(1500))  // past the retry of any second chain
        let all = events + (await store.pollSettled())
        #expect(all.filter { if case .verificationFailed = $0 { true } else { false } }.count == 1, "\(all)")
        #expect(all.filter { if case .expired = $0 { true } else { false } }.count == 1, "\(all)")
        #expect(server.verifiedIDs == [51, 51, 51], "two reports, then one retry: \(server.verifiedIDs)")
    }

    /// The same expiry reported again once the server is back passes at once: the chain waiting for it ends there,
    /// and the game hears the end once, not again when the chain's timer fires.
    @Test func anExpiryThatPassesOnASecondReportEndsItsChain() async throws {
        let ended = StoreTransaction(id: 52, originalID: 52, productID: "monthly", productType: .autoRenewable, quantity: 1,
                                     purchaseDate: Date().addingTimeInterval(-31 * 86_400),
                                     originalPurchaseDate: Date().addingTimeInterval(-31 * 86_400),
                                     expirationDate: Date().addingTimeInterval(-86_400), environment: .xcode, storefront: "USA",
                                     subscriptionGroupID: "G1")
        let server = ScriptedVerifier([.retryLater(StoreError(.verificationRetryable, "the server cannot be reached"))])
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: server,
                                      retryPolicy: VerificationRetryPolicy(initial: .seconds(6), maximum: .seconds(6)))
        defer { store.close() }
        _ = await store.pollSettled()
        backend.send(.expired(ended))
        _ = try await store.pollUntil { if case .verificationFailed = $0 { true } else { false } }
        backend.send(.expired(ended))
        let events = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        // Past the chain's timer. The second report comes well before it: 2 s was too close on a machine busy beside
        // the tests (the timer's check then came first, a third check).
        try await Task.sleep(for: .milliseconds(6500))
        let all = events + (await store.pollSettled())
        #expect(all.filter { if case .expired = $0 { true } else { false } }.count == 1, "\(all)")
        #expect(server.verifiedIDs == [52, 52], "the chain checks nothing once a report passed: \(server.verifiedIDs)")
    }
}
