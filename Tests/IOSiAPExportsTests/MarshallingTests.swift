import CIOSiAP
import Foundation
import IOSiAPCore
@testable import IOSiAPExports
import Testing

/// Values from outside (a StoreKit transaction, a journal, a catalog) that do not fit the C ABI's types are
/// clamped in marshalling, never a trap.
@Suite struct MarshallingTests {
    func transaction(quantity: Int, date: Date = Date(timeIntervalSince1970: 1_700_000_000)) -> StoreTransaction {
        StoreTransaction(id: 7, originalID: 7, productID: "com.iosiap.example.coins_100", productType: .consumable,
                         quantity: quantity, purchaseDate: date, originalPurchaseDate: date, expirationDate: date,
                         environment: .sandbox, storefront: "USA")
    }

    @Test(arguments: [Int.max, Int(Int32.max) + 1, Int.min])
    func aQuantityBeyondIntIsClamped(_ quantity: Int) {
        let expected = quantity > 0 ? CInt.max : CInt.min
        let arena = CStringArena()
        #expect(EventMarshalling.transaction(transaction(quantity: quantity), in: arena).quantity == expected)
        for event in [StoreEvent.purchased(requestID: 1, transaction: transaction(quantity: quantity)),
                      .purchasing(requestID: 1, productID: "com.iosiap.example.coins_100", quantity: quantity),
                      .revoked(transaction: transaction(quantity: quantity))] {
            let marshalled = EventMarshalling.event(event, in: arena, verified: false) { _ in fatalError("no products") }
            #expect(marshalled.quantity == expected)
            #expect(marshalled.transaction.map { $0.pointee.quantity == expected } ?? true)
        }
    }

    @Test func datesBeyondInt64MillisecondsAreClamped() {
        let arena = CStringArena()
        let late = EventMarshalling.transaction(transaction(quantity: 1, date: Date(timeIntervalSince1970: 1e300)), in: arena)
        #expect(late.purchase_date_ms == .max && late.expiration_date_ms == .max)
        let early = EventMarshalling.transaction(transaction(quantity: 1, date: Date(timeIntervalSince1970: -1e300)), in: arena)
        #expect(early.purchase_date_ms == .min)
        #expect(EventMarshalling.milliseconds(Date(timeIntervalSince1970: .nan)) == 0)
        #expect(EventMarshalling.milliseconds(Date(timeIntervalSince1970: 1.5)) == 1500)
    }

    /// What StoreKit 816 (the iOS 27 SDK) added reaches C as itself: the ownership "ASSIGNED", the revocation
    /// reason 2 (moved to a subscription bundle).
    @Test func anAssignedTransactionRevokedForABundleReadsSoInC() {
        var assigned = transaction(quantity: 1)
        assigned.ownershipType = .assigned
        assigned.revocationDate = Date(timeIntervalSince1970: 1_700_000_100)
        assigned.revocationReason = .upgradedToBundle
        let marshalled = EventMarshalling.transaction(assigned, in: CStringArena())
        #expect(String(cString: marshalled.ownership_type) == "ASSIGNED")
        #expect(marshalled.revocation_reason == 2)
    }
}
