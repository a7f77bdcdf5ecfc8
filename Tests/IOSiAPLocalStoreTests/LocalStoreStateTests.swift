import Foundation
import IOSiAPCore
@testable import IOSiAPLocalStore
import IOSiAPTestSupport
import Testing

/// A subscription's state changes as one value: a write that fails leaves the file and this connection's
/// memory of it as they were.
@Suite struct LocalStoreStateTests {
    let folder = TemporaryDirectory()

    func subscribe(in state: LocalStoreState) throws -> StoreTransaction {
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        return try state.insert(.init(productID: "com.iosiap.example.club_gold_monthly", productType: .autoRenewable, quantity: 1,
                                      purchaseDate: start, expirationDate: start.addingTimeInterval(300), storefront: "USA",
                                      reason: .purchase, subscriptionGroupID: "5E1A7C01"))
    }

    /// Another connection, as the transaction manager or a test has.
    func otherConnection() throws -> SQLiteDatabase {
        try SQLiteDatabase(path: try folder.state.file("localstore.sqlite"))
    }

    /// The database refuses one of the columns (here a trigger): none of the others changes either.
    @Test func aChainUpdateTheDatabaseRefusesChangesNothing() throws {
        let state = try LocalStoreState(directory: folder.state, environment: .sandbox)
        let bought = try subscribe(in: state)
        let before = try #require(try state.chainState(of: bought.id))
        try otherConnection().execute("""
            CREATE TRIGGER refuse_intent BEFORE UPDATE OF expiration_intent ON transactions
            BEGIN SELECT RAISE(ABORT, 'simulated write failure'); END;
            """)
        #expect(throws: StoreError.self) {
            try state.updateChain(bought.id) { $0.autoRenew = false; $0.expiryAnnounced = true; $0.expirationIntent = 1 }
        }
        #expect(try state.chainState(of: bought.id) == before)
    }

    /// An expiry announced inside a transaction that then rolls back is not remembered as announced: when
    /// another process announces it, the game hears of it.
    @Test func anAnnouncementRolledBackIsNotRememberedAsMade() throws {
        let state = try LocalStoreState(directory: folder.state, environment: .sandbox)
        let bought = try subscribe(in: state)
        #expect(throws: StoreError.self) {
            try state.database.transaction { () throws(StoreError) in
                try state.updateChain(bought.id) { $0.expiryAnnounced = true }
                throw StoreError(.storageFailure, "simulated failure after the update")
            }
        }
        #expect(try state.chainState(of: bought.id)?.expiryAnnounced == false)

        try otherConnection().query("UPDATE transactions SET expiry_announced = 1 WHERE id = ?", [.integer(Int64(bought.id))])
        let ended = try #require(try state.transaction(id: bought.id))
        #expect(try state.changesByOtherConnections() == [.expired(ended)])
    }
}
