import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport
import Testing

/// The entitlements are read from the journal again only after it changed: they must still follow every change,
/// the store's own at once, time passing (a subscription's end), and a write by another connection to the file within
/// 100 ms.
@Suite struct EntitlementViewTests {
    let folder = TemporaryDirectory()
    let clock = TestClock()
    static let pro = "com.iosiap.example.pro_upgrade"
    static let gold = "com.iosiap.example.club_gold_monthly"
    static let coins = "com.iosiap.example.coins_100"

    func open() throws -> (LocalStore, PurchaseStore) {
        let clock = self.clock
        let local = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state,
                                   now: { clock.now })
        return (local, try PurchaseStore(backend: local, stateDirectory: folder.state, now: { clock.now }))
    }

    func buy(_ store: PurchaseStore, _ product: String) async throws -> StoreTransaction {
        let event = try await store.pollUntilTerminal(of: try store.requestPayment(productID: product, quantity: 1)).last
        guard case .purchased(_, let transaction) = event else { throw StoreError(.unknown, "not purchased: \(String(describing: event))") }
        return transaction
    }

    @Test func theEntitlementsFollowPurchasesRefundsAndTime() async throws {
        let (local, store) = try open()
        defer { store.close() }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts([Self.pro, Self.gold, Self.coins]))
        #expect(try !store.isEntitled(to: Self.pro))
        let pro = try await buy(store, Self.pro)
        #expect(try store.isEntitled(to: Self.pro))
        _ = try await buy(store, Self.coins)  // a consumable entitles to nothing, and changes nothing read
        #expect(try store.currentEntitlements().map(\.productID) == [Self.pro])
        let gold = try await buy(store, Self.gold)
        #expect(try store.isEntitled(to: Self.gold))
        // No write: only the clock moves past the subscription's end (its period is a month at most).
        clock.advance(by: try #require(gold.expirationDate).timeIntervalSince(clock.now) + 1)
        #expect(try !store.isEntitled(to: Self.gold))
        _ = try local.refund(transactionID: pro.id, reason: .refundedForOtherReason)
        _ = try await store.pollUntil { if case .revoked = $0 { true } else { false } }
        #expect(try !store.isEntitled(to: Self.pro))
    }

    @Test func aWriteByAnotherConnectionIsSeen() async throws {
        let (_, store) = try open()
        defer { store.close() }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts([Self.pro]))
        _ = try await buy(store, Self.pro)
        #expect(try store.isEntitled(to: Self.pro))
        let other = try SQLiteDatabase(path: folder.state.file("journal.sqlite"))
        try other.query("DELETE FROM transactions WHERE product_id = ?", [.text(Self.pro)])
        // Looked for at most every 100 ms (Journal.outsideWriteCheckInterval): seen once that has passed.
        try await Task.sleep(for: .milliseconds(150))
        #expect(try !store.isEntitled(to: Self.pro))
    }
}
