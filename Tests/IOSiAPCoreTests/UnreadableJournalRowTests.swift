import Foundation
@testable import IOSiAPCore
import IOSiAPTestSupport
import Testing

/// One journal row that cannot be decoded damages that row only: launch redelivery delivers the others
/// and tells the game which row it could not read, and the row stays in the journal.
@Suite struct UnreadableJournalRowTests {
    let folder = TemporaryDirectory()

    /// Overwrites the stored payload of transaction `id` with bytes that are not a transaction.
    func corruptPayload(of id: UInt64) throws {
        let database = try SQLiteDatabase(path: folder.state.file("journal.sqlite"))
        try database.query("UPDATE transactions SET payload = ? WHERE id = ?",
                           [.blob(Array("{\"not\": \"a transaction\"".utf8)), .integer(Int64(id))])
    }

    func rowCount(of id: UInt64) throws -> Int64? {
        try SQLiteDatabase(path: folder.state.file("journal.sqlite"))
            .query("SELECT COUNT(*) FROM transactions WHERE id = ?", [.integer(Int64(id))]).first?.first?.integer
    }

    /// Entitlements and the unfinished list read past a damaged row: it cannot be verified, so it entitles
    /// to nothing (fail closed), and the game hears of it once per launch as `journalRowUnreadable`.
    @Test func entitlementReadsSkipADamagedRowAndReportItOnce() async throws {
        let backend = ScriptedBackend()
        let pro = backend.makeTransaction("pro")
        let club = backend.makeTransaction("monthly")
        let coins = backend.makeTransaction("coins")
        do {
            let journal = try Journal(directory: folder.state)
            try journal.record(pro, finished: true)
            try journal.record(club, finished: true)
            try journal.record(coins)
            journal.releaseDirectory()
        }
        try corruptPayload(of: club.id)
        try corruptPayload(of: coins.id)
        let store = try PurchaseStore(backend: ScriptedBackend(), stateDirectory: folder.state)
        #expect(try store.currentEntitlements() == [pro])
        #expect(try store.isEntitled(to: "pro"))
        #expect(try !store.isEntitled(to: "monthly"))
        #expect(try store.unfinishedTransactions().isEmpty)
        var events = await store.pollSettled()
        _ = try store.currentEntitlements()
        events += await store.pollSettled()
        let reported = events.compactMap { event -> UInt64? in
            if case .journalRowUnreadable(let id, _, _) = event { id } else { nil }
        }
        #expect(reported.sorted() == [club.id, coins.id], "\(events)")  // each once
    }

    @Test func theJournalListsTheRowsItCanReadAndNamesTheOthers() throws {
        let backend = ScriptedBackend()
        let transactions = (0..<3).map { _ in backend.makeTransaction("coins") }
        do {
            let journal = try Journal(directory: folder.state)
            for transaction in transactions { try journal.record(transaction, verdict: .verified) }
            journal.releaseDirectory()
        }
        try corruptPayload(of: transactions[1].id)
        let journal = try Journal(directory: folder.state)
        let unfinished = try journal.unfinishedTransactionsWithVerdicts()
        #expect(unfinished.readable.map(\.transaction) == [transactions[0], transactions[2]])
        #expect(unfinished.readable.map(\.verdict) == [.verified, .verified])
        let bad = try #require(unfinished.unreadable.first)
        #expect(unfinished.unreadable.count == 1)
        #expect(bad.transactionID == transactions[1].id && bad.productID == "coins")
        #expect(bad.error.code == .storageFailure && bad.error.message.contains("\(transactions[1].id)"))
    }

    @Test func redeliveryDeliversTheReadableRowsAndReportsTheUnreadableOne() async throws {
        let backend = ScriptedBackend()
        var bought: [StoreTransaction] = []
        do {
            let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
            _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins"]))
            for _ in 0..<3 {
                let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins"))
                guard case .purchased(_, let transaction) = events.last else { Issue.record("\(events)"); return }
                bought.append(transaction)
            }
            store.close()  // three purchases left unfinished
        }
        try corruptPayload(of: bought[1].id)
        // The store no longer lists them (it would deliver its own copies): only the journal has them.
        let relaunched = try PurchaseStore(backend: ScriptedBackend(), stateDirectory: folder.state)
        var events: [StoreEvent] = []
        _ = try await relaunched.pollUntil { event in
            events.append(event)
            return events.count == 3
        }
        events += await relaunched.pollSettled()
        #expect(events.count == 3)
        #expect(events.contains(.purchased(requestID: nil, transaction: bought[0])))
        #expect(events.contains(.purchased(requestID: nil, transaction: bought[2])))
        let reports = events.compactMap { event -> (UInt64, String, StoreError)? in
            guard case .journalRowUnreadable(let id, let productID, let error) = event else { return nil }
            return (id, productID, error)
        }
        #expect(reports.count == 1)
        #expect(reports.first?.0 == bought[1].id && reports.first?.1 == "coins")
        #expect(reports.first?.2.code == .storageFailure)
        relaunched.close()
        #expect(try rowCount(of: bought[1].id) == 1)  // kept, never deleted
    }

    @Test func theStoresCopyStandsInForAnUnreadableRow() async throws {
        let backend = ScriptedBackend()
        var bought: [StoreTransaction] = []
        do {
            let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
            _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins"]))
            for _ in 0..<2 {
                let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins"))
                guard case .purchased(_, let transaction) = events.last else { Issue.record("\(events)"); return }
                bought.append(transaction)
            }
            store.close()
        }
        try corruptPayload(of: bought[0].id)
        // The store still holds both unfinished: its copy of the damaged one is delivered, and rewrites the row.
        let relaunched = try PurchaseStore(backend: backend, stateDirectory: folder.state)
        var events: [StoreEvent] = []
        _ = try await relaunched.pollUntil { event in
            events.append(event)
            return events.count == 2
        }
        events += await relaunched.pollSettled()
        #expect(Set(events.map(\.description)) == Set(bought.map { StoreEvent.purchased(requestID: nil, transaction: $0).description }))
        #expect(try relaunched.unfinishedTransactions() == bought)
    }

    /// A damaged row whose record holds a refund is rewritten by a refunded copy only: an unrevoked copy (a stale
    /// one a restore or the ledger brings) would make the refunded purchase an entitlement again.
    @Test func aDamagedRowKeepsItsRefund() throws {
        let backend = ScriptedBackend()
        let journal = try Journal(directory: folder.state)
        let pro = backend.makeTransaction("pro")
        let refunded = pro.refunded(.refundedDueToIssue)
        try journal.record(pro, verdict: .verified)
        try journal.recordRevocation(refunded, verdict: .verified)
        try corruptPayload(of: pro.id)
        try journal.record(pro, verdict: .verified)
        #expect(try journal.verifiedTransactions().isEmpty)
        #expect(try journal.refundState(of: pro.id) == .toTell)
        try journal.record(refunded, verdict: .verified)
        #expect(try journal.allTransactions() == [refunded])
        #expect(try journal.refundState(of: pro.id) == .toTell)
    }

    /// The store reports a refund again (the local store does at each launch): over a damaged row whose record
    /// holds that refund, its copy rewrites the row, which reads again, and the refund is not told a second time.
    @Test func aRefundReportedAgainMendsTheDamagedRowOfItsRecord() async throws {
        let backend = ScriptedBackend()
        let refunded: StoreTransaction
        do {
            let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
            refunded = try await store.buyAndFinish("pro").refunded()
            backend.send(.revoked(refunded))
            _ = try await store.pollUntil { $0 == .revoked(transaction: refunded) }
            _ = await store.pollSettled()  // the worker notes it told
            store.close()
        }
        try corruptPayload(of: refunded.id)
        do {
            let relaunched = ScriptedBackend()
            let store = try PurchaseStore(backend: relaunched, stateDirectory: folder.state)
            _ = await store.pollSettled()
            relaunched.send(.revoked(refunded))
            let events = await store.pollSettled()
            #expect(!events.contains(.revoked(transaction: refunded)), "\(events)")
            store.close()
        }
        let journal = try Journal(directory: folder.state)
        #expect(try journal.allTransactions() == [refunded])
        #expect(try journal.refundState(of: refunded.id) == .told)
    }
}
