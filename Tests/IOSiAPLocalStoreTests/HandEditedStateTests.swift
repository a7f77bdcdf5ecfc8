import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport
import Testing

/// A state directory edited by hand opens and reads: a number no release writes, outside what its column can
/// hold, stands for an unknown value instead of trapping the game at every launch.
@Suite struct HandEditedStateTests {
    let folder = TemporaryDirectory()
    static let pro = "com.iosiap.example.pro_upgrade"

    /// A store with one purchase, refunded (a refund is read again as the store opens), then `sql` on its file.
    func storeEdited(_ sql: String) throws -> LocalStore {
        let catalog = try Catalog.load(contentsOf: Fixtures.exampleCatalog)
        do {
            let local = try LocalStore(catalog: catalog, stateDirectory: try folder.state)
            let bought = try local.buyProduct(Self.pro)
            _ = try local.refund(transactionID: bought.id)
            local.close()
        }
        try SQLiteDatabase(path: try folder.state.file("localstore.sqlite")).execute(sql)
        return try LocalStore(catalog: catalog, stateDirectory: try folder.state)
    }

    @Test(arguments: [
        "UPDATE transactions SET product_type = 4294967298",
        "UPDATE transactions SET revocation_reason = 9999999999",
        "UPDATE transactions SET offer_type = -9999999999",
    ])
    func aNumberOutsideItsColumnsRangeReads(_ sql: String) throws {
        let transactions = try storeEdited(sql).allTransactions()
        #expect(transactions.count == 1 && transactions[0].productID == Self.pro)
    }

    @Test func anOutOfRangeNumberIsUnknownNotAnotherValue() throws {
        // 2^32 + 1 would wrap to 1 (non-consumable) if truncated.
        let transaction = try #require(try storeEdited("UPDATE transactions SET product_type = 4294967297, offer_type = 4294967297")
            .allTransactions().first)
        #expect(transaction.productType == .consumable && transaction.offer == nil)
    }
}
