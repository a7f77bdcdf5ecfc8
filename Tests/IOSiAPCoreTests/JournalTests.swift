import Foundation
@testable import IOSiAPCore
import IOSiAPTestSupport
import Testing

@Suite struct JournalTests {
    let folder = TemporaryDirectory()

    func transaction(_ id: UInt64) -> StoreTransaction {
        StoreTransaction(id: id, originalID: id, productID: "coins", productType: .consumable, quantity: 2,
                         purchaseDate: Date(timeIntervalSince1970: 1_700_000_000),
                         originalPurchaseDate: Date(timeIntervalSince1970: 1_700_000_000),
                         appAccountToken: UUID(uuidString: "6C1E4A8E-3F0B-4C2D-9A57-0D2B8E6F1A33"), environment: .sandbox, storefront: "USA", signedJWS: "a.b.c")
    }

    @Test func recordsAndFinishesIdempotently() throws {
        let journal = try Journal(directory: folder.state)
        #expect(try journal.record(transaction(1)) == .inserted)
        // Finishing needs the record told as purchased or restored: the game never saw this id yet.
        #expect(thrownCode { try journal.markFinished(1) } == .notDelivered)
        #expect(try journal.record(transaction(1), telling: true) == .knownUnfinished)
        #expect(try journal.unfinishedTransactions() == [transaction(1)])
        #expect(try journal.markFinished(1) == true)
        #expect(try journal.markFinished(1) == false)
        #expect(try journal.record(transaction(1)) == .knownFinished)
        #expect(try journal.unfinishedTransactions().isEmpty)
    }

    /// A launch checks again at most a bounded number of the finished transactions no verifier passed, from where the
    /// last launch stopped, then from the oldest: however many wait, each comes round within a few launches (the
    /// place is kept across a relaunch), and a passed one leaves the round.
    @Test func eachLaunchRechecksABoundedRoundOfTheTransactionsNoVerifierPassed() throws {
        let down = VerificationOutcome.retryLater(StoreError(.verificationRetryable, "the server cannot be reached"))
        do {
            let journal = try Journal(directory: folder.state)
            #expect(try journal.finishedTransactionsNotVerified(limit: 2).isEmpty)
            for id in UInt64(1)...5 { _ = try journal.record(transaction(id), finished: true, verdict: down) }
            _ = try journal.record(transaction(6), finished: true, verdict: .verified)
            #expect(try journal.finishedTransactionsNotVerified(limit: 2).map(\.transaction.id) == [1, 2])
            journal.releaseDirectory()
        }
        let journal = try Journal(directory: folder.state)
        #expect(try journal.finishedTransactionsNotVerified(limit: 2).map(\.transaction.id) == [3, 4])
        #expect(try journal.finishedTransactionsNotVerified(limit: 2).map(\.transaction.id) == [5, 1])
        _ = try journal.record(transaction(2), verdict: .verified)
        #expect(try journal.finishedTransactionsNotVerified(limit: 2).map(\.transaction.id) == [3, 4])
        #expect(try journal.finishedTransactionsNotVerified(limit: 10).map(\.transaction.id) == [5, 1, 3, 4])
    }

    /// The store's word that a grace period is over clears the end the record holds (the copy's signature stays):
    /// told as an end only when the record entitled the game to it; a pending record is cleared untold, a refunded
    /// one is left as it is, one with no grace period or no record changes nothing.
    @Test func aGracePeriodEndClearsTheRecordsEndAndIsToldOnlyWhereItEntitled() throws {
        let journal = try Journal(directory: folder.state)
        let now = Date(timeIntervalSince1970: 1_700_100_000)
        func inGrace(_ id: UInt64, revoked: Bool = false) -> StoreTransaction {
            var copy = transaction(id)
            copy.productID = "monthly"
            copy.productType = .autoRenewable
            copy.expirationDate = now.addingTimeInterval(-60)
            copy.gracePeriodExpirationDate = now.addingTimeInterval(6 * 86_400)
            copy.signedRenewalInfo = "r.i.s"
            if revoked { copy.revocationDate = now.addingTimeInterval(-30) }
            return copy
        }
        _ = try journal.record(inGrace(1), verdict: .verified, telling: true)
        let down = VerificationOutcome.retryLater(StoreError(.verificationRetryable, "the server cannot be reached"))
        _ = try journal.record(inGrace(2), verdict: down)
        _ = try journal.record(inGrace(3, revoked: true), verdict: .verified)
        _ = try journal.record(transaction(4), verdict: .verified, telling: true)

        let ended = try journal.endGracePeriod(of: inGrace(1), now: now)
        #expect(ended?.id == 1 && ended?.gracePeriodExpirationDate == nil && ended?.signedJWS == "a.b.c")
        #expect(try journal.recordedCopy(of: 1)?.gracePeriodExpirationDate == nil)
        #expect(try journal.endGracePeriod(of: inGrace(1), now: now) == nil, "once")
        #expect(try journal.endGracePeriod(of: inGrace(2), now: now) == nil, "never entitled: not told")
        #expect(try journal.recordedCopy(of: 2)?.gracePeriodExpirationDate == nil)
        #expect(try journal.endGracePeriod(of: inGrace(3, revoked: true), now: now) == nil)
        #expect(try journal.recordedCopy(of: 3)?.gracePeriodExpirationDate != nil, "a refunded record is left as it is")
        #expect(try journal.endGracePeriod(of: transaction(4), now: now) == nil)
        #expect(try journal.endGracePeriod(of: inGrace(5), now: now) == nil, "no record")
    }

    /// The verdict a retried check starts from is the one on the copy it checks: another copy of the transaction
    /// (signed apart, perhaps forged) gets none from it.
    @Test func aRecordedVerdictIsOnlyTheCopysItJudged() throws {
        let journal = try Journal(directory: folder.state)
        #expect(try journal.recordedVerdict(of: transaction(1)) == nil)
        _ = try journal.record(transaction(1), verdict: .verified)
        #expect(try journal.recordedVerdict(of: transaction(1)) == .verified)
        var other = transaction(1)
        other.signedJWS = "x.y.z"
        #expect(try journal.recordedVerdict(of: other) == .notVerified)
    }

    @Test func finishingAnUnknownTransactionIsAClearError() throws {
        let journal = try Journal(directory: folder.state)
        #expect(throws: StoreError(.unknownTransaction, "no transaction with id 42 was delivered to this app")) {
            try journal.markFinished(42)
        }
    }

    @Test func survivesReopening() throws {
        do {
            let journal = try Journal(directory: folder.state)
            try journal.record(transaction(1), telling: true)
            try journal.record(transaction(2), telling: true)
            try journal.markFinished(1)
        }
        let reopened = try Journal(directory: folder.state)
        #expect(try reopened.unfinishedTransactions() == [transaction(2)])
        #expect(try reopened.allTransactions().map(\.id) == [1, 2])
        #expect(try reopened.allTransactions()[1].signedJWS == "a.b.c")
    }

    @Test func refusesAJournalFromANewerRelease() throws {
        let path = try folder.state.file("journal.sqlite")
        try SQLiteDatabase(path: path).execute("PRAGMA user_version = 99")
        #expect(throws: StoreError.self) { try Journal(directory: folder.state) }
        // The file is left as it was, for the newer release.
        #expect(try SQLiteDatabase(path: path).userVersion == 99)
    }

    /// No release writes a negative version (a file edited by hand, a damaged header): a clear error, not a trap.
    @Test func refusesAJournalWithANegativeSchemaVersion() throws {
        let path = try folder.state.file("journal.sqlite")
        try SQLiteDatabase(path: path).execute("PRAGMA user_version = -1")
        let error = try #require(throws: StoreError.self) { try Journal(directory: folder.state) }
        #expect(error.code == .storageFailure && error.message.contains("schema version -1"))
        #expect(try SQLiteDatabase(path: path).userVersion == -1)
    }

    @Test func aFileThatIsNotADatabaseIsAClearErrorAndKept() throws {
        let path = try folder.state.file("journal.sqlite")
        let garbage = Data(repeating: 0x5A, count: 4096)
        try garbage.write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: StoreError.self) { try Journal(directory: folder.state) }
        #expect(error.code == .storageFailure)
        #expect(error.message.contains("journal.sqlite"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    @Test func aVersion1JournalMigratesForwardKeepingItsTransactions() throws {
        let path = try folder.state.file("journal.sqlite")
        do {
            let version1 = try SQLiteDatabase(path: path)
            try version1.migrate(Array(Journal.migrations.prefix(1)))
            try version1.query("INSERT INTO transactions (id, product_id, finished, payload) VALUES (1, 'coins', 0, ?)",
                               [.blob(Array(try JSONEncoder().encode(transaction(1))))])
            #expect(try version1.userVersion == 1)
        }
        let journal = try Journal(directory: folder.state)
        #expect(try journal.unfinishedTransactions() == [transaction(1)])
        #expect(try journal.verifiedTransactions() == [transaction(1)])  // recorded before verdicts were kept: it entitles
        #expect(try journal.grantAndFinish(transaction(1), .currency("coins", amountPerUnit: 10)))
        #expect(try journal.balance(of: "coins") == 20)
        #expect(try SQLiteDatabase(path: path).userVersion == Journal.migrations.count)
    }

    /// Version 8 marks the consumables, which the entitlements no longer read: a version 7 journal's coins are
    /// marked, its pro upgrade and a row that cannot be decoded (it might entitle) are not, and the entitlements read
    /// through the new index still see the pro upgrade.
    @Test func aVersion7JournalMarksItsConsumables() throws {
        let path = try folder.state.file("journal.sqlite")
        var pro = transaction(2)
        pro.productID = "pro"
        pro.productType = .nonConsumable
        do {
            let version7 = try SQLiteDatabase(path: path)
            try version7.migrate(Array(Journal.migrations.prefix(7)))
            for (id, product, payload) in [(1, "coins", Array(try JSONEncoder().encode(transaction(1)))),
                                           (2, "pro", Array(try JSONEncoder().encode(pro))), (3, "pro", Array("not json".utf8))] {
                try version7.query("INSERT INTO transactions (id, product_id, finished, payload) VALUES (?, ?, 1, ?)",
                                   [.integer(Int64(id)), .text(product), .blob(payload)])
            }
        }
        let journal = try Journal(directory: folder.state)
        let marked = try SQLiteDatabase(path: path).query("SELECT id, consumable FROM transactions ORDER BY id").map { $0.map(\.integer) }
        #expect(marked == [[1, 1], [2, 0], [3, 0]])
        let rows = try journal.entitlingTransactionsWithVerdicts()
        #expect(rows.readable.map(\.transaction) == [pro])
        #expect(rows.unreadable.map(\.transactionID) == [3])
    }

    /// The consumable mark follows the copy the record keeps: a first copy that said consumable (one a verifier
    /// failed) does not hide a verified non-consumable copy of the same transaction from the entitlements.
    @Test func theConsumableMarkFollowsTheCopyKept() throws {
        let journal = try Journal(directory: folder.state)
        var pro = transaction(9)
        pro.productID = "pro"
        pro.productType = .nonConsumable
        try journal.record(transaction(9), verdict: .failed(StoreError(.verificationInvalidSignature, "forged")))
        #expect(try journal.entitlingTransactionsWithVerdicts().readable.isEmpty)
        try journal.record(pro, verdict: .verified)
        #expect(try journal.entitlingTransactionsWithVerdicts().readable.map(\.transaction) == [pro])
    }

    @Test func grantingIsAllOrNothingAndOnce() throws {
        let journal = try Journal(directory: folder.state)
        #expect(try journal.grantAndFinish(transaction(5), .currency("coins", amountPerUnit: 50)))
        #expect(try !journal.grantAndFinish(transaction(5), .currency("coins", amountPerUnit: 50)))
        #expect(try journal.balance(of: "coins") == 100)
        #expect(try journal.isFinished(5))
        // A transaction the game finished itself is not granted afterwards.
        try journal.record(transaction(6), telling: true)
        try journal.markFinished(6)
        #expect(try !journal.grantAndFinish(transaction(6), .currency("coins", amountPerUnit: 50)))
        #expect(try journal.balance(of: "coins") == 100)
    }

    @Test func aTruncatedJournalIsRefusedAndKept() throws {
        do {
            let journal = try Journal(directory: folder.state)
            for id in 1...400 { try journal.record(transaction(UInt64(id))) }
        }
        let url = URL(fileURLWithPath: try folder.state.file("journal.sqlite"))
        let whole = try Data(contentsOf: url)
        #expect(whole.count > 16 * 4096)
        let truncated = whole.prefix(whole.count / 2)
        try truncated.write(to: url)
        let error = try #require(throws: StoreError.self) { try Journal(directory: folder.state) }
        #expect(error.code == .storageFailure)
        #expect(error.message.contains("journal.sqlite"))
        #expect(try Data(contentsOf: url) == truncated)
    }

    @Test func aCorruptedPageIsRefusedAndKept() throws {
        do {
            let journal = try Journal(directory: folder.state)
            for id in 1...400 { try journal.record(transaction(UInt64(id))) }
        }
        let url = URL(fileURLWithPath: try folder.state.file("journal.sqlite"))
        // The transactions table's root page, wherever the migrations left it.
        let root = try #require(try SQLiteDatabase(path: url.path).query("SELECT rootpage FROM sqlite_master WHERE name = 'transactions'")
            .first?.first?.integer)
        var bytes = try Data(contentsOf: url)
        // Scribble over that b-tree page, keeping the page header.
        let start = Int(root - 1) * 4096
        for offset in (start + 8)..<(start + 600) { bytes[offset] = 0xA5 }
        try bytes.write(to: url)
        let error = try #require(throws: StoreError.self) { try Journal(directory: folder.state) }
        #expect(error.code == .storageFailure)
        #expect(error.message.contains("damaged") || error.message.contains("malformed"))
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test func aLockHeldByAnotherConnectionIsAClearWriteError() async throws {
        let journal = try Journal(directory: folder.state)
        try journal.record(transaction(1))
        let other = try SQLiteDatabase(path: try folder.state.file("journal.sqlite"), busyTimeout: .milliseconds(50))
        try other.execute("BEGIN EXCLUSIVE")
        defer { try? other.execute("ROLLBACK") }
        // The write waits out the journal's busy timeout (seconds): on a thread of its own, not one of the pool's.
        let second = transaction(2)
        let error = try await #require(throws: StoreError.self) { try await onThreadOfItsOwn { try journal.record(second) } }
        #expect(error.code == .storageFailure)
        #expect(error.message.contains("locked"))
        try other.execute("ROLLBACK")
        #expect(try journal.unfinishedTransactions().map(\.id) == [1])
        try journal.record(transaction(2))
        #expect(try journal.unfinishedTransactions().map(\.id) == [1, 2])
    }
}
