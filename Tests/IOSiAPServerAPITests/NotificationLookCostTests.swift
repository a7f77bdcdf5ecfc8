import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport
import Testing

/// A look for notifications (the game's sender does one after every write and once a second) costs what
/// changed, not the history: with nothing changed it takes no write lock and reads no transaction, so a game's
/// purchase never waits for it (issue 16: sending never blocks or slows the game).
@Suite struct NotificationLookCostTests {
    let folder = TemporaryDirectory()
    static let coins = "com.iosiap.example.coins_100"

    func openStore() throws -> LocalStore {
        try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: try folder.state)
    }

    /// `count` consumable purchases written straight into the state directory, as a long-played game leaves it.
    func writeHistory(_ count: Int, into database: SQLiteDatabase) throws {
        try database.transaction { () throws(StoreError) in
            for index in 1...count {
                let date = 1_700_000_000 + Double(index)
                try database.query("""
                    INSERT INTO transactions (original_id, product_id, product_type, quantity, purchase_date,
                        original_purchase_date, storefront, reason, finished, signed_jws)
                    VALUES (?, ?, ?, 1, ?, ?, 'USA', 'PURCHASE', 1, ?)
                    """, [.integer(Int64(index)), .text(Self.coins), .integer(Int64(ProductType.consumable.rawValue)),
                          .real(date), .real(date), .text(String(repeating: "j", count: 1500))])
            }
        }
    }

    @Test func aLookWithNothingChangedTakesNoWriteLockAndReadsNoHistory() throws {
        let store = try openStore()
        let other = try SQLiteDatabase(path: try folder.state.file("localstore.sqlite"), busyTimeout: .seconds(5))
        try writeHistory(5000, into: other)
        try store.setNotificationURL("http://127.0.0.1:1/n")
        var start = ContinuousClock.now
        #expect(try store.recordNotifications() == 0)  // the first look reads the history once
        let fullLook = (ContinuousClock.now - start).timeInterval
        // Another connection (the game's purchase) holds the write lock: a look with nothing changed neither
        // waits for it nor fails, and commits nothing.
        try other.execute("BEGIN IMMEDIATE")
        let version = try other.query("PRAGMA data_version").first?.first?.integer
        start = ContinuousClock.now
        for _ in 0..<10 { #expect(try store.recordNotifications() == 0) }
        let quietLooks = (ContinuousClock.now - start).timeInterval / 10
        try other.execute("COMMIT")
        #expect(try other.query("PRAGMA data_version").first?.first?.integer == version)
        // Reading the 5,000 transactions is what a full look costs; a quiet look reads a counter.
        #expect(quietLooks < fullLook / 10, "a quiet look took \(quietLooks * 1000) ms, a full one \(fullLook * 1000) ms")
        // What changes afterwards is still recorded, once, and a look reads only the transactions written since.
        _ = try store.buyProduct(Self.coins)
        start = ContinuousClock.now
        #expect(try store.recordNotifications() == 1)
        let changedLook = (ContinuousClock.now - start).timeInterval
        #expect(changedLook < fullLook / 2, "a look after a purchase took \(changedLook * 1000) ms, a full one \(fullLook * 1000) ms")
        #expect(try store.recordNotifications() == 0)
        try other.query("UPDATE transactions SET revocation_date = ?, revocation_reason = 0 WHERE id = 7", [.real(1_800_000_000)])
        #expect(try store.recordNotifications() == 1)
        #expect(try store.notificationRecords().map(\.notificationType) == ["ONE_TIME_CHARGE", "REFUND"])
    }

    @Test func theEndOfAGracePeriodIsRecordedWithNoWriteAndOnce() throws {
        let clock = Locked(Date())
        let store = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: try folder.state,
                                   now: { clock.withLock { $0 } })
        try store.setNotificationURL("http://127.0.0.1:1/n")
        _ = try store.buyProduct("com.iosiap.example.club_gold_monthly")
        try store.setBillingIssuesEnabled(true)
        try store.setBillingGracePeriodEnabled(true)
        try store.forceRenewal(productID: "com.iosiap.example.club_gold_monthly")
        #expect(try store.recordNotifications() == 2)  // SUBSCRIBED, DID_FAIL_TO_RENEW
        clock.withLock { $0 = $0.addingTimeInterval(86_400) }
        #expect(try store.recordNotifications() == 0)  // still in its grace period: nothing written, nothing due
        // Time alone ends it (16 days): the look after that end records it, with nothing written meanwhile.
        clock.withLock { $0 = $0.addingTimeInterval(20 * 86_400) }
        #expect(try store.recordNotifications() == 1)
        #expect(try store.recordNotifications() == 0)
        #expect(try store.notificationRecords().map(\.notificationType) == ["SUBSCRIBED", "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED"])
    }

    @Test func withoutAURLWritesAreNotLoggedAndTheNextURLStartsAfresh() throws {
        let store = try openStore()
        let other = try SQLiteDatabase(path: try folder.state.file("localstore.sqlite"), busyTimeout: .seconds(5))
        func logged() throws -> Int64? { try other.query("SELECT count(*) FROM notification_changed").first?.first?.integer }
        try store.setNotificationURL("http://127.0.0.1:1/n")
        _ = try store.buyProduct(Self.coins)
        #expect(try store.recordNotifications() == 1)  // this process now keeps the history it read
        try store.setNotificationURL(nil)
        try writeHistory(20, into: other)  // written while no URL is set: not logged, the log does not grow
        #expect(try logged() == 0)
        try store.setNotificationURL("http://127.0.0.1:1/n")  // the 21 transactions are the new baseline
        _ = try store.buyProduct(Self.coins)
        #expect(try store.recordNotifications() == 1)
        // A process that reads the whole history finds nothing left to notify: the first one's copy was not stale.
        #expect(try openStore().recordNotifications() == 0)
        #expect(try store.notificationRecords().map(\.notificationType) == ["ONE_TIME_CHARGE", "ONE_TIME_CHARGE"])
    }

    @Test func withoutAURLALookDoesNothingEvenWhileAnotherWrites() throws {
        let store = try openStore()
        let other = try SQLiteDatabase(path: try folder.state.file("localstore.sqlite"), busyTimeout: .seconds(5))
        try writeHistory(10, into: other)
        try other.execute("BEGIN IMMEDIATE")
        let start = ContinuousClock.now
        #expect(try store.recordNotifications() == 0)
        try other.execute("COMMIT")
        #expect((ContinuousClock.now - start).timeInterval < 1)
        #expect(try store.notificationRecords().isEmpty)
    }
}
