import Foundation
import IOSiAPCore
import IOSiAPTestSupport
import Testing

/// A refund is told until the game has had it: one recorded but not yet polled when the store closed is
/// told again at the next launch, and one polled is not told again.
@Suite struct RevocationAnnouncementTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    @Test func aRefundDroppedAtCloseIsToldAtTheNextLaunchAndOnceHadNotAgain() async throws {
        var refunded: StoreTransaction
        do {
            let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
            _ = try await store.pollUntilTerminal(of: try store.requestProducts(["pro"]))
            let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "pro"))
            guard case .purchased(_, let transaction) = events.last else { Issue.record("\(events)"); return }
            try store.finish(transactionID: transaction.id)
            refunded = transaction
            refunded.revocationDate = Date()
            backend.send(.revoked(refunded))
            // Recorded (no longer an entitlement), queued, never polled: then the store closes.
            try await waitUntil { try !store.isEntitled(to: "pro") }
            #expect(try !store.isEntitled(to: "pro"))
            store.close()
        }
        do {
            let relaunched = try PurchaseStore(backend: ScriptedBackend(), stateDirectory: folder.state)
            let events = try await relaunched.pollUntil { if case .revoked = $0 { true } else { false } }
            #expect(events.last == .revoked(transaction: refunded))
            // Handed to the game: the worker notes it (a job after the acknowledgement, then close).
            _ = try await relaunched.pollUntilTerminal(of: try relaunched.requestProducts(["pro"]))
            relaunched.close()
        }
        let again = try PurchaseStore(backend: ScriptedBackend(), stateDirectory: folder.state)
        let later = await again.pollSettled()
        #expect(!later.contains { if case .revoked = $0 { true } else { false } }, "\(later)")
    }
}
