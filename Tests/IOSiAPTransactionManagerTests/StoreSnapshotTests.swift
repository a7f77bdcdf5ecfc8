import Foundation
import IOSiAPCore
@testable import IOSiAPTransactionManager
import Testing

/// What the transaction manager calls a transaction's state.
@Suite struct StoreSnapshotTests {
    static let gold = "com.iosiap.example.club_gold_monthly"

    @Test func states() throws {
        let now = Date()
        var coins = StoreTransaction(id: 2, originalID: 2, productID: "coins", productType: .consumable, quantity: 1, purchaseDate: now,
                                     originalPurchaseDate: now, environment: .sandbox, storefront: "USA")
        #expect(StoreSnapshot.state(of: coins, at: now) == "consumed")
        coins.revocationDate = now
        #expect(StoreSnapshot.state(of: coins, at: now) == "refunded")
        var gold = StoreTransaction(id: 1, originalID: 1, productID: Self.gold, productType: .autoRenewable, quantity: 1,
                                    purchaseDate: now.addingTimeInterval(-100), originalPurchaseDate: now.addingTimeInterval(-100),
                                    expirationDate: now.addingTimeInterval(-10), environment: .sandbox, storefront: "USA")
        #expect(StoreSnapshot.state(of: gold, at: now.addingTimeInterval(-20)) == "active")
        #expect(StoreSnapshot.state(of: gold, at: now) == "expired")
        gold.gracePeriodExpirationDate = now.addingTimeInterval(100)
        #expect(StoreSnapshot.state(of: gold, at: now) == "grace period")
        gold.revocationDate = now
        #expect(StoreSnapshot.state(of: gold, at: now) == "refunded")
    }
}
