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
        let refunded: StoreTransaction
        do {
            let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
            refunded = try await store.buyAndFinish("pro").refunded()
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
