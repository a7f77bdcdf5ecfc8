import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport
import Testing

/// The history's revisions (migration 14): a state made by an older version gets them in the order it was served
/// before, and every later write that changes a transaction numbers it after everything.
@Suite struct HistoryRevisionMigrationTests {
    let folder = TemporaryDirectory()
    let clock = TestClock()
    static let coins = "com.iosiap.example.coins_100"

    func open() throws -> LocalStore {
        let clock = self.clock
        return try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state, now: { clock.now })
    }

    /// The ids in revision order, and whether the revisions are 1, 2, 3... with no gap or repeat.
    func byRevision(_ local: LocalStore) throws -> [UInt64] {
        try local.history().sorted { $0.revision < $1.revision }.map(\.transaction.id)
    }

    @Test func aVersion13StateGetsRevisionsInTheOrderItsHistoryWasServed() async throws {
        let path = try folder.state.file("localstore.sqlite")
        do {
            let version13 = try SQLiteDatabase(path: path)
            try version13.migrate(Array(LocalStoreStateMigrations.all.prefix(13)))
            // Purchased at these seconds after 2026-01-01, the second refunded last; 3 and 4 at the same moment.
            for (purchase, revocation) in [(1000.0, nil), (500, 3000), (2000, nil), (2000, nil), (100, nil)] as [(Double, Double?)] {
                let base = 1_767_225_600.0
                try version13.query("""
                    INSERT INTO transactions (original_id, product_id, product_type, quantity, purchase_date,
                        original_purchase_date, revocation_date, storefront, reason, signed_jws)
                    VALUES (1, ?, 0, 1, ?, ?, ?, 'USA', 'PURCHASE', 'x.y.z')
                    """, [.text(Self.coins), .real(base + purchase), .real(base + purchase),
                          revocation.map { .real(base + $0) } ?? .null])
            }
        }
        let local = try open()
        #expect(try SQLiteDatabase(path: path).userVersion == LocalStoreStateMigrations.all.count)
        // By the date each last changed (the refund's, else the purchase's), then by id.
        #expect(try byRevision(local) == [5, 1, 3, 4, 2])
        #expect(try local.history().map(\.revision).sorted() == [1, 2, 3, 4, 5])
        let all = TransactionHistoryFilter()
        #expect(try local.historyPage(all, after: nil, descending: false, limit: 10).map(\.transaction.id) == [5, 1, 3, 4, 2])
        #expect(try local.historyPage(all, after: HistoryPosition(revision: 3), descending: true, limit: 10).map(\.transaction.id) == [1, 5])

        // A new purchase, then a refund of the oldest: each after everything, whatever their dates.
        let bought = try local.buyProduct(Self.coins)
        _ = try local.refund(transactionID: 5)
        #expect(try byRevision(local) == [1, 3, 4, 2, bought.id, 5])
        #expect(try local.historyPage(all, after: HistoryPosition(revision: 5), descending: false, limit: 10).map(\.transaction.id)
            == [bought.id, 5])
        // Finishing changes nothing a history page shows: no new revision.
        let before = try local.history().map(\.revision)
        try await local.finish(transactionID: bought.id)
        #expect(try local.history().map(\.revision) == before)
        // A deleted transaction's revision is never given again: a client whose last page ended on it sees what
        // comes next.
        let last = try #require(try local.history().map(\.revision).max())
        try local.deleteTransaction(5)
        let next = try local.buyProduct(Self.coins)
        #expect(try #require(try local.historyEntry(id: next.id)).revision > last)
        // Nor after the whole history is cleared.
        try local.clearTransactions()
        #expect(try #require(try local.historyEntry(id: try local.buyProduct(Self.coins).id)).revision > last + 1)
        local.close()
    }

    @Test func aFreshStateNumbersEveryWrite() throws {
        let local = try open()
        let first = try local.buyProduct(Self.coins)
        let second = try local.buyProduct(Self.coins)
        let revisions = try local.history().map(\.revision)
        #expect(revisions == revisions.sorted() && Set(revisions).count == 2)
        _ = try local.refund(transactionID: first.id)
        #expect(try byRevision(local) == [second.id, first.id])
        local.close()
    }
}
