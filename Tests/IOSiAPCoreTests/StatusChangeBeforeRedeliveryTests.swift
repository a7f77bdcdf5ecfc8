import Foundation
import IOSiAPCore
import IOSiAPTestSupport
import Testing

/// A status change (`expired`, `revoked`) of a purchase the store holds unfinished but the journal never recorded
/// (the game died between the charge and the journal write), reaching the worker while launch redelivery still
/// waits for the store's list of unfinished transactions.
@Suite struct StatusChangeBeforeRedeliveryTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    /// Opens the store with `held` unfinished in a store slow to list them, and sends `update` before the list comes.
    func launch(holding held: [StoreTransaction], thenSend update: StoreUpdate) throws -> PurchaseStore {
        backend.holdUnfinished(held)
        backend.holdUnfinishedList()
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
        backend.send(update)
        return store
    }

    /// Polls while the list is held, once the worker has done all it can without it (launch redelivery waits for it,
    /// and so does the expiry if it asks), then lets it come: the events up to `expired`, and all that follows.
    func openTheListAfterTheExpiryAsks(_ store: PurchaseStore) async throws -> [StoreEvent] {
        var events = await store.pollSettled()
        backend.openUnfinishedList()
        if !events.contains(where: { if case .expired = $0 { true } else { false } }) {
            events += try await store.pollUntil { if case .expired = $0 { true } else { false } }
        }
        events += await store.pollSettled()
        return events
    }

    /// The game never heard `purchased` for it, so its expiry must not finish it: it is delivered first, stays
    /// unfinished until the game finishes it, and its end still counts.
    @Test func anUndeliveredPurchaseWhoseExpiryComesFirstIsDeliveredThenToldExpired() async throws {
        let start = Date().addingTimeInterval(-7200)
        let monthly = backend.makeTransaction("monthly", purchaseDate: start, expirationDate: start.addingTimeInterval(3600))
        let store = try launch(holding: [monthly], thenSend: .expired(monthly))
        let events = try await openTheListAfterTheExpiryAsks(store)
        defer { store.close() }
        #expect(events == [.purchased(requestID: nil, transaction: monthly), .expired(transaction: monthly)])
        #expect(!backend.finishedIDs.contains(monthly.id), "finished without the game ever hearing of it")
        #expect(try store.unfinishedTransactions() == [monthly])
        #expect(try !store.isEntitled(to: "monthly"))
        try store.finish(transactionID: monthly.id)
        try await waitUntil { backend.finishedIDs.contains(monthly.id) }
        #expect(try store.unfinishedTransactions().isEmpty)
    }

    /// An expiry carrying a refunded copy (the refund's own update was dropped while launch redelivery checked the
    /// purchase) is not delivered as a purchase: that would hand out what was refunded.
    @Test func anExpiryOfARefundedUndeliveredPurchaseDeliversNoPurchase() async throws {
        let start = Date().addingTimeInterval(-7200)
        let monthly = backend.makeTransaction("monthly", purchaseDate: start, expirationDate: start.addingTimeInterval(3600))
        var refunded = monthly
        refunded.revocationDate = start.addingTimeInterval(60)
        let store = try launch(holding: [monthly], thenSend: .expired(refunded))
        let events = try await openTheListAfterTheExpiryAsks(store)
        defer { store.close() }
        #expect(!events.contains { if case .purchased = $0 { true } else { false } }, "\(events)")
    }

    /// An expiry of a subscription the journal never saw and the store does not hold unfinished (bought and
    /// finished on another device) is only an expiry: nothing to deliver.
    @Test func anExpiryOfAPurchaseFinishedElsewhereDeliversNothing() async throws {
        let start = Date().addingTimeInterval(-7200)
        let monthly = backend.makeTransaction("monthly", purchaseDate: start, expirationDate: start.addingTimeInterval(3600))
        let store = try launch(holding: [], thenSend: .expired(monthly))
        let events = try await openTheListAfterTheExpiryAsks(store)
        defer { store.close() }
        #expect(events == [.expired(transaction: monthly)])
        #expect(try store.unfinishedTransactions().isEmpty)
    }

    /// A purchase refunded before the game ever heard of it: the game is told `revoked` only (it takes back what it
    /// granted for that id: nothing), never `purchased` (the money went back, so nothing paid is lost, and a
    /// consumable delivered now would stay with the user), and the store's copy is finished.
    @Test func anUndeliveredPurchaseWhoseRefundComesFirstIsToldRevokedOnly() async throws {
        var coins = backend.makeTransaction("coins")
        coins.revocationDate = Date()
        let store = try launch(holding: [coins], thenSend: .revoked(coins))
        defer { store.close() }
        var events = try await store.pollUntil { if case .revoked = $0 { true } else { false } }  // told before the list
        backend.openUnfinishedList()
        events += await store.pollSettled()
        #expect(events == [.revoked(transaction: coins)])
        try await waitUntil { backend.finishedIDs.contains(coins.id) }
        #expect(try store.unfinishedTransactions().isEmpty)
    }
}
