import Foundation
@testable import IOSiAPCore
import IOSiAPTestSupport
import Testing

/// A verification waiting on its retry timer holds the store's worker, and with it the backend and the
/// verifier; closing the store ends those timers, so a closed store lets go of them at once instead of when
/// the delay (up to minutes) runs out.
@Suite struct CloseEndsRetryTimersTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    @Test func closingLetsGoOfAVerificationWaitingToBeRetried() async throws {
        weak var released: ScriptedVerifier?
        do {
            let verifier = ScriptedVerifier([.retryLater(StoreError(.verificationRetryable, "server down"))])
            released = verifier
            let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: verifier,
                                          retryPolicy: VerificationRetryPolicy(initial: .seconds(120), maximum: .seconds(120)))
            _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins"]))
            let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins"))
            guard case .verificationFailed(_, _, let error) = events.last, error.code == .verificationRetryable else {
                Issue.record("\(events)")
                return
            }
            #expect(await store.closeAndWaitForWorker(timeout: .seconds(2)))
        }
        try await waitUntil { released == nil }
    }
}
