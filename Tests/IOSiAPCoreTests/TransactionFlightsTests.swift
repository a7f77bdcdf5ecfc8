import Foundation
@testable import IOSiAPCore
import IOSiAPTestSupport
import Testing

/// The launch's one in-memory map of what is done with each transaction: each step once, held deliveries released
/// once no purchase of their product is in progress, the ledger's hand-out work taken once, and nothing kept for a
/// transaction with nothing left in flight.
@Suite struct TransactionFlightsTests {
    func transaction(_ id: UInt64, _ productID: String) -> StoreTransaction {
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        return StoreTransaction(id: id, originalID: id, productID: productID, productType: .consumable, quantity: 1,
                                purchaseDate: date, originalPurchaseDate: date, environment: .sandbox, storefront: "USA")
    }

    @Test func eachMarkIsInsertedOnceAndRemoved() {
        var flights = TransactionFlights()
        let first = flights.insert(.delivered, 7), second = flights.insert(.delivered, 7)
        let other = flights.insert(.revocationTold, 7)
        #expect(first && !second && other)
        flights.remove(.delivered, 7)
        #expect(!flights.contains(.delivered, 7) && flights.contains(.revocationTold, 7))
        #expect(flights.ids(.revocationTold) == [7])
    }

    /// An entitlement whose check must be tried again: one retry chain per transaction (only the first report
    /// schedules one), checking the copy that says most; a retry of an older report (without the grace period's
    /// end a status change brought) that meets a newer one does not replace it.
    @Test func anEntitlementToCheckAgainKeepsTheCopyThatSaysMost() {
        var flights = TransactionFlights()
        var inGrace = transaction(9, "monthly")
        inGrace.gracePeriodExpirationDate = Date(timeIntervalSince1970: 1_800_500_000)
        let first = flights.keepEntitlementToCheck(inGrace)
        let older = flights.keepEntitlementToCheck(transaction(9, "monthly"))
        #expect(first && !older, "one chain per transaction")
        #expect(flights.takeEntitlementToCheck(9)?.gracePeriodExpirationDate == inGrace.gracePeriodExpirationDate)
        #expect(flights.takeEntitlementToCheck(9) == nil, "taken once")

        let again = flights.keepEntitlementToCheck(transaction(9, "monthly"))
        var later = inGrace
        later.gracePeriodExpirationDate = Date(timeIntervalSince1970: 1_800_900_000)
        _ = flights.keepEntitlementToCheck(later)
        #expect(again)
        #expect(flights.takeEntitlementToCheck(9)?.gracePeriodExpirationDate == later.gracePeriodExpirationDate)

        // The store said the grace period is over while a check of a copy in it waited: the retry checks the copy
        // without that end, which cannot bring it back, and no report of a grace end signed before the end counts;
        // one signed after it (the renewal failed again) does.
        _ = flights.keepEntitlementToCheck(later)
        flights.noteGracePeriodEnded(9, signedAt: Date(timeIntervalSince1970: 1_800_600_000))
        let kept = flights.takeEntitlementToCheck(9)
        #expect(kept?.id == 9 && kept?.gracePeriodExpirationDate == nil)
        var before = later, after = later, unsigned = later
        before.signedRenewalInfo = Self.jws(signedAt: 1_800_500_000)
        after.signedRenewalInfo = Self.jws(signedAt: 1_800_700_000)
        unsigned.signedRenewalInfo = nil
        #expect(flights.isStaleGracePeriod(before) && flights.isStaleGracePeriod(unsigned) && !flights.isStaleGracePeriod(after))
        #expect(!flights.isStaleGracePeriod(transaction(9, "monthly")), "no grace period stated: nothing stale")
        #expect(!flights.isStaleGracePeriod(after) && !flights.isStaleGracePeriod(transaction(8, "monthly")))
    }

    /// A compact JWS whose payload says it was signed at `seconds` (unsigned: only its date is read).
    static func jws(signedAt seconds: Double) -> String {
        let payload = Data("{\"signedDate\":\(seconds * 1000)}".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return "e30.\(payload).c2ln"
    }

    /// A refund or an expiry whose check must be tried again: one chain per transaction, checking the report that
    /// says most; a refund outranks an expiry met after it, and is kept over one met before.
    @Test func aStatusChangeToCheckIsKeptOncePerTransactionAndTheRefundWins() {
        var flights = TransactionFlights()
        var refunded = transaction(9, "monthly")
        refunded.revocationDate = Date(timeIntervalSince1970: 1_800_100_000)
        let expired = transaction(9, "monthly")
        let first = flights.keepStatusChangeToCheck(.expired(expired), of: expired)
        let second = flights.keepStatusChangeToCheck(.revoked(refunded), of: refunded)
        let third = flights.keepStatusChangeToCheck(.expired(expired), of: expired)
        #expect(first && !second && !third, "one chain per transaction")
        #expect(flights.takeStatusChangeToCheck(9) == .revoked(refunded))
        #expect(flights.takeStatusChangeToCheck(9) == nil, "taken once")
    }

    @Test func aDeliveryHeldForAPurchaseInProgressIsReleasedWhenTheLastOneOfItsProductEnds() {
        var flights = TransactionFlights()
        let heldWithoutPurchase = flights.holdIfPurchaseInProgress(transaction(1, "coins"))
        #expect(!heldWithoutPurchase, "no purchase in progress: not held")
        flights.startPurchase(of: "coins")
        flights.startPurchase(of: "coins")
        let held = flights.holdIfPurchaseInProgress(transaction(2, "coins"))
        let otherProduct = flights.holdIfPurchaseInProgress(transaction(3, "pro"))
        #expect(held && !otherProduct)
        let afterFirst = flights.endPurchase(of: "coins"), afterSecond = flights.endPurchase(of: "coins")
        let afterThird = flights.endPurchase(of: "coins")
        #expect(afterFirst.isEmpty, "one purchase of coins is still in progress")
        #expect(afterSecond.map(\.id) == [2])
        #expect(afterThird.isEmpty, "released once")
    }

    @Test func theLedgersHandOutWorkIsTakenOnce() {
        var flights = TransactionFlights()
        flights.addPurchaseToGrant(5)
        flights.addPurchaseToGrant(5)
        let added = flights.addTakeBackAtHandOut(5), addedAgain = flights.addTakeBackAtHandOut(5)
        let grants = [flights.takePurchaseToGrant(5), flights.takePurchaseToGrant(5), flights.takePurchaseToGrant(5)]
        let takeBacks = [flights.takeTakeBackAtHandOut(5), flights.takeTakeBackAtHandOut(5)]
        #expect(added && !addedAgain)
        #expect(grants == [true, true, false])
        #expect(takeBacks == [true, false])
    }
}
