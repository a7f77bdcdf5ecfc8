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

    /// What a look costs is measured by benchmark row 10, not here: this checks what it does.
    @Test func aLookWithNothingChangedTakesNoWriteLock() throws {
        let store = try openStore()
        let other = try SQLiteDatabase(path: try folder.state.file("localstore.sqlite"), busyTimeout: .seconds(5))
        try writeHistory(5000, into: other)
        try store.setNotificationURL("http://127.0.0.1:1/n")
        #expect(try store.recordNotifications() == 0)  // the first look reads the history once
        // Another connection (the game's purchase) holds the write lock: a look with nothing changed neither
        // waits for it nor fails, and commits nothing.
        try other.execute("BEGIN IMMEDIATE")
        let version = try other.query("PRAGMA data_version").first?.first?.integer
        for _ in 0..<10 { #expect(try store.recordNotifications() == 0) }  // a look that waited would fail after 5 s
        try other.execute("COMMIT")
        #expect(try other.query("PRAGMA data_version").first?.first?.integer == version)
        // What changes afterwards is still recorded, once.
        _ = try store.buyProduct(Self.coins)
        #expect(try store.recordNotifications() == 1)
        #expect(try store.recordNotifications() == 0)
        try other.query("UPDATE transactions SET revocation_date = ?, revocation_reason = 0 WHERE id = 7", [.real(1_800_000_000)])
        #expect(try store.recordNotifications() == 1)
        #expect(try store.notificationRecords().map(\.notificationType) == ["ONE_TIME_CHARGE", "REFUND"])
    }

    @Test func theEndOfAGracePeriodIsRecordedWithNoWriteAndOnce() throws {
        // A whole second: with Date() as the clock, forceRenewal under billing issues sometimes (2 runs in 5) did not
        // start billing retry at all; a local store issue not found yet, not one of notifications.
        let clock = Locked(Date(timeIntervalSince1970: 1_767_225_600))
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

    /// The log keeps its last 10,000 entries: a write that logged twice (its own, and the revision migration 14's
    /// trigger numbers after it) would halve what a look can catch up on without reading the whole history.
    @Test func eachWriteOfTheHistoryIsLoggedOnce() throws {
        let store = try openStore()
        let other = try SQLiteDatabase(path: try folder.state.file("localstore.sqlite"), busyTimeout: .seconds(5))
        func logged() throws -> Int64? { try other.query("SELECT count(*) FROM notification_changed").first?.first?.integer }
        try writeHistory(3, into: other)
        try store.setNotificationURL("http://127.0.0.1:1/n")
        #expect(try logged() == 0)
        try writeHistory(1, into: other)
        #expect(try logged() == 1)
        try other.query("UPDATE transactions SET revocation_date = ?, revocation_reason = 0 WHERE id = 2", [.real(1_800_000_000)])
        #expect(try logged() == 2)
        try other.query("DELETE FROM transactions WHERE id = 3")
        #expect(try logged() == 3)
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
