import Foundation
@testable import IOSiAPCore
import IOSiAPTestSupport
import Testing

/// A JWS-shaped string whose payload carries `signedDate`, as the App Store signs it (not a real signature:
/// the scripted verifiers do not check it; the journal reads the date to rank copies).
func fakeJWS(signedAt date: Date) -> String {
    let payload = Data("{\"signedDate\":\(Int64((date.timeIntervalSince1970 * 1000).rounded()))}".utf8).base64EncodedString()
        .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    return "eyJhbGciOiJFUzI1NiJ9.\(payload).c2lnbmF0dXJl"
}

/// The journal's record rules: which copy of a transaction it holds, and which verdict (issue 23, items 1 and 7).
@Suite struct JournalRecordTests {
    let folder = TemporaryDirectory()
    static let bought = Date(timeIntervalSince1970: 1_800_000_000)

    /// Copy of one pro purchase, signed `signed` seconds after it was bought.
    func pro(signed: TimeInterval, revoked: Bool = false) -> StoreTransaction {
        StoreTransaction(id: 7, originalID: 7, productID: "pro", productType: .nonConsumable, quantity: 1,
                         purchaseDate: Self.bought, originalPurchaseDate: Self.bought,
                         revocationDate: revoked ? Self.bought.addingTimeInterval(signed) : nil,
                         revocationReason: revoked ? .refundedDueToIssue : nil, environment: .sandbox, storefront: "USA",
                         signedJWS: fakeJWS(signedAt: Self.bought.addingTimeInterval(signed)))
    }

    /// Copy of one subscription period, signed `signed` seconds after it was bought, ending at `ends`.
    func monthly(signed: TimeInterval, ends: TimeInterval) -> StoreTransaction {
        StoreTransaction(id: 8, originalID: 8, productID: "monthly", productType: .autoRenewable, quantity: 1,
                         purchaseDate: Self.bought, originalPurchaseDate: Self.bought,
                         expirationDate: Self.bought.addingTimeInterval(ends), environment: .sandbox, storefront: "USA",
                         signedJWS: fakeJWS(signedAt: Self.bought.addingTimeInterval(signed)))
    }

    /// The month's first signed copy, and the same copy with the 16-day grace period its status gives.
    func monthlyAndItsGracePeriod() -> (copy: StoreTransaction, withGrace: StoreTransaction) {
        let copy = monthly(signed: 0, ends: 30 * 86_400)
        var withGrace = copy
        withGrace.gracePeriodExpirationDate = Self.bought.addingTimeInterval(46 * 86_400)
        return (copy, withGrace)
    }

    @Test func aStaleCopyNeverUndoesARecordedRefund() throws {
        let journal = try Journal(directory: folder.state)
        let purchase = pro(signed: 0)
        let refund = pro(signed: 60, revoked: true)
        try journal.record(purchase, verdict: .verified)
        try journal.recordRevocation(refund, verdict: .verified)
        // The purchase's own check (a retry, launch redelivery's snapshot) passes its old copy after the refund.
        #expect(try journal.record(purchase, verdict: .verified) == .knownFinished)
        #expect(try journal.isRecordedRevoked(purchase.id))
        #expect(try journal.allTransactions() == [refund])
        // Not even an unrevoked copy signed after the refund.
        try journal.record(pro(signed: 120), verdict: .verified)
        #expect(try journal.allTransactions() == [refund])
    }

    @Test func theLedgersStaleCopyNeverUndoesARecordedRefund() throws {
        let journal = try Journal(directory: folder.state)
        let purchase = pro(signed: 0)
        let refund = pro(signed: 60, revoked: true)
        try journal.record(purchase, verdict: .verified)
        try journal.recordRevocation(refund, verdict: .verified)
        // The ledger applies the `purchased` event queued before the refund.
        #expect(try !journal.grantAndFinish(purchase, .entitlement("pro")))
        #expect(try journal.allTransactions() == [refund])
    }

    @Test func aStaleCopyNeverUndoesARecordedExpiry() throws {
        let journal = try Journal(directory: folder.state)
        let purchase = monthly(signed: 0, ends: 30 * 86_400)
        let ended = monthly(signed: 60, ends: 60)  // ended early (`expire`), signed anew
        try journal.record(purchase, verdict: .verified)
        try journal.record(ended, verdict: .verified)
        try journal.record(purchase, verdict: .verified)  // the purchase's retried check
        #expect(try journal.allTransactions() == [ended])
        // A newer copy does replace it (a renewal extension, signed later).
        let extended = monthly(signed: 120, ends: 90 * 86_400)
        try journal.record(extended, verdict: .verified)
        #expect(try journal.allTransactions() == [extended])
    }

    /// A grace period's end the record learnt from the subscription's status stays when the same signed copy comes
    /// again without it (StoreKit's transactions never carry it): the player keeps the subscription through it.
    @Test func theSameCopyAgainKeepsTheGracePeriodsEnd() throws {
        let journal = try Journal(directory: folder.state)
        let (copy, withGrace) = monthlyAndItsGracePeriod()
        try journal.record(copy, verdict: .verified)
        try journal.record(withGrace, verdict: .verified)
        try journal.record(copy, verdict: .verified)
        try journal.record(copy)
        #expect(try journal.allTransactions() == [withGrace])
        // A newer signed copy of the transaction replaces it, grace or not.
        let resigned = monthly(signed: 60, ends: 30 * 86_400)
        try journal.record(resigned, verdict: .verified)
        #expect(try journal.allTransactions() == [resigned])
    }

    /// A grace period's end no verifier passed is not kept by a pass of the same copy without it.
    @Test func anUncheckedGracePeriodsEndIsNotKeptByAPassOfTheCopyWithoutIt() throws {
        let journal = try Journal(directory: folder.state)
        let (copy, withGrace) = monthlyAndItsGracePeriod()
        try journal.record(withGrace)  // nothing verified it
        try journal.record(copy, verdict: .verified)
        #expect(try journal.allTransactions() == [copy])
    }

    @Test func aWriteWithoutAVerifierNeverUpgradesAFailedOrPendingVerdict() throws {
        let journal = try Journal(directory: folder.state)
        let forged = pro(signed: 0)
        var waiting = monthly(signed: 0, ends: 30 * 86_400)
        waiting.id = 9
        try journal.record(forged, verdict: .failed(StoreError(.verificationInvalidSignature)))
        try journal.record(waiting, verdict: .retryLater(StoreError(.storeUnreachable)))
        #expect(try journal.verifiedTransactions().isEmpty)
        // Reopened without a verifier: launch redelivery writes each again, with no verdict.
        try journal.record(forged)
        try journal.record(waiting)
        #expect(try journal.verifiedTransactions().isEmpty)
        #expect(try journal.unfinishedTransactionsWithVerdicts().readable.map(\.verdict) == [.notVerified, .notVerified])
        // A verifier that passes the copy held lifts it. One that passes an older copy replaces the copy held,
        // which no verifier passed (it may be forged, to shut out genuine copies); the newer one, once it passes,
        // replaces that again.
        try journal.record(forged, verdict: .verified)
        #expect(try journal.verifiedTransactions() == [forged])
        var older = waiting
        older.signedJWS = fakeJWS(signedAt: Self.bought.addingTimeInterval(-60))
        try journal.record(older, verdict: .verified)
        #expect(try journal.verifiedTransactions() == [forged, older])
        try journal.record(waiting, verdict: .verified)
        #expect(try journal.verifiedTransactions() == [forged, waiting])
    }

    /// A verified copy replaces one no verifier passed, but never undoes a recorded refund: a refunded copy whose
    /// verdict a later check failed stays, and the older unrefunded copy that passes does not entitle again
    /// (found by review).
    @Test func aVerifiedCopyNeverUndoesARecordedRefundWhateverItsVerdict() throws {
        let journal = try Journal(directory: folder.state)
        let refunded = pro(signed: 60, revoked: true)
        try journal.record(refunded, verdict: .verified)
        try journal.record(refunded, verdict: .failed(StoreError(.verificationInvalidSignature)))  // a certificate revoked since
        try journal.record(pro(signed: 0), verdict: .verified)
        #expect(try journal.allTransactions() == [refunded])
        #expect(try journal.verifiedTransactions().isEmpty)
        #expect(try journal.refundState(of: refunded.id) != .notRefunded)
    }

    @Test func aCopyThatFailsChangesTheVerdictOnlyOfTheCopyItIs() throws {
        let journal = try Journal(directory: folder.state)
        let purchase = pro(signed: 0)
        try journal.record(purchase, verdict: .verified)
        // A forged copy claiming a refund fails: the verified copy and its verdict stand.
        try journal.record(pro(signed: 60, revoked: true), verdict: .failed(StoreError(.verificationInvalidSignature)))
        // A check that cannot complete says nothing about the copy held.
        try journal.record(purchase, verdict: .retryLater(StoreError(.storeUnreachable)))
        #expect(try journal.verifiedTransactions() == [purchase])
        // The verifier now fails the very copy held (a revoked certificate): it no longer entitles.
        try journal.record(purchase, verdict: .failed(StoreError(.verificationUntrustedChain)))
        #expect(try journal.verifiedTransactions().isEmpty)
        #expect(try journal.unfinishedTransactionsWithVerdicts().readable.map(\.verdict) == [.notVerified])
    }

    /// Version 5 kept two columns for one fact (`unverified`, `verdict`); version 6 keeps the verdict alone, and
    /// changes no row's entitlement: only what a verifier failed or waits for stays out.
    @Test func aVersion5JournalKeepsEachRowsEntitlement() throws {
        let path = try folder.state.file("journal.sqlite")
        do {
            let version5 = try SQLiteDatabase(path: path)
            try version5.migrate(Array(Journal.migrations.prefix(5)))
            let rows: [(UInt64, Int64, SQLiteValue)] = [(1, 1, .null), (2, 0, .integer(0)), (3, 0, .integer(1)), (4, 0, .null),
                                                        (5, 1, .integer(0))]
            for (id, unverified, verdict) in rows {
                var transaction = pro(signed: 0)
                transaction.id = id
                try version5.query("INSERT INTO transactions (id, product_id, finished, payload, unverified, verdict) VALUES (?, 'pro', 0, ?, ?, ?)",
                                   [.integer(Int64(id)), .blob(Array(try JSONEncoder().encode(transaction))), .integer(unverified), verdict])
            }
        }
        let journal = try Journal(directory: folder.state)
        #expect(try journal.verifiedTransactions().map(\.id) == [2, 3, 4])
        #expect(try journal.unfinishedTransactionsWithVerdicts().readable.map(\.verdict) == [.notVerified, .none, .verified, .none, .notVerified])
        let database = try SQLiteDatabase(path: path)
        #expect(try database.query("SELECT * FROM pragma_table_info('transactions') WHERE name = 'unverified'").isEmpty)
        // Rebuilt, not altered (`DROP COLUMN` needs SQLite 3.35): its index is back (and versions 8's and 9's beside
        // it), and grants still name it.
        #expect(Set(try database.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'transactions'")
            .compactMap { $0.first?.text }) == ["transactions_unfinished", "transactions_entitling", "transactions_not_verified"])
        #expect(try database.query("SELECT \"table\" FROM pragma_foreign_key_list('grants')").compactMap { $0.first?.text } == ["transactions"])
        #expect(try database.query("SELECT count(*) FROM sqlite_master WHERE name = 'transactions_version6'").first?.first?.integer == 0)
    }
}

/// Passes every copy, but holds the checks of those `holds` picks until `release`: a verification server that
/// answers one request late.
final class HoldingVerifier: TransactionVerifier, Sendable {
    private let holds: @Sendable (StoreTransaction) -> Bool
    private let held = Locked<[CheckedContinuation<Void, Never>]?>([])

    init(holding holds: @escaping @Sendable (StoreTransaction) -> Bool) {
        self.holds = holds
    }

    func verify(_ transaction: StoreTransaction) async -> VerificationOutcome {
        guard holds(transaction) else { return .verified }
        await withCheckedContinuation { continuation in
            let isOpen = held.withLock { waiting in
                guard waiting != nil else { return true }
                waiting?.append(continuation)
                return false
            }
            if isOpen { continuation.resume() }
        }
        return .verified
    }

    /// How many checks wait for `release`.
    var waiting: Int { held.withLock { $0?.count ?? 0 } }

    /// Lets the held checks, and every later one, complete.
    func release() {
        let waiting = held.withLock { waiting in
            defer { waiting = nil }
            return waiting ?? []
        }
        waiting.forEach { $0.resume() }
    }
}

/// The same rules seen by a game: a check that completes late never undoes what the journal recorded meanwhile,
/// and reopening without a verifier never makes a failed transaction an entitlement.
@Suite struct JournalRecordStoreTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    /// Item 1: the purchase's check passes its old copy after the refund was recorded and told.
    @Test func aRefundRecordedWhileThePurchasesCheckIsUnderwayIsNotUndoneByIt() async throws {
        let verifier = HoldingVerifier { !$0.isRevoked }
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: verifier)
        defer { store.close() }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["pro"]))
        let request = try store.requestPayment(productID: "pro")
        try await waitUntil { verifier.waiting == 1 }
        let refunded = try #require(backend.charged.first).refunded(.refundedDueToIssue)
        backend.send(.revoked(refunded))
        _ = try await store.pollUntil { $0 == .revoked(transaction: refunded) }
        verifier.release()
        _ = try await store.pollUntilTerminal(of: request)
        #expect(try !store.isEntitled(to: "pro"))
        #expect(try store.currentEntitlements().isEmpty)
    }

    /// Item 1's twin: the purchase's check passes its old copy after the expiry was recorded and told.
    @Test func anExpiryRecordedWhileThePurchasesCheckIsUnderwayIsNotUndoneByIt() async throws {
        let signed = Date()
        var bought = backend.makeTransaction("monthly", purchaseDate: signed)
        bought.signedJWS = fakeJWS(signedAt: signed)
        var ended = bought
        ended.expirationDate = Date()
        ended.signedJWS = fakeJWS(signedAt: signed.addingTimeInterval(1))
        backend.scriptPurchases(.success(.purchased(bought)))
        backend.holdUnfinished([bought])
        let verifier = HoldingVerifier { [bought] in $0 == bought }
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: verifier)
        defer { store.close() }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["monthly"]))
        let request = try store.requestPayment(productID: "monthly")
        // The payment's check, and launch redelivery's of the copy the store holds unfinished: one or both held.
        try await waitUntil { verifier.waiting >= 1 }
        backend.send(.expired(ended))
        _ = try await store.pollUntil { $0 == .expired(transaction: ended) }
        #expect(try !store.isEntitled(to: "monthly"))
        verifier.release()
        _ = try await store.pollUntilTerminal(of: request)
        #expect(try !store.isEntitled(to: "monthly"))
        #expect(try store.currentEntitlements().isEmpty)
    }

    /// A store with `verifier` and `retryPolicy` where the subscription was bought and finished, and the next
    /// period's renewal the store makes now (not yet sent): a renewal ends the older period only from its own
    /// purchase date on.
    func storeWithARenewalToCome(_ verifier: ScriptedVerifier, _ retryPolicy: VerificationRetryPolicy) async throws
        -> (store: PurchaseStore, renewal: StoreTransaction) {
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: verifier, retryPolicy: retryPolicy)
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["monthly"]))
        let request = try store.requestPayment(productID: "monthly")
        guard case .purchased(request, let first) = try await store.pollUntilTerminal(of: request).last else {
            store.close()
            throw StoreError(.unknown, "the subscription was not purchased")
        }
        try store.finish(transactionID: first.id)
        var renewal = backend.makeTransaction("monthly", purchaseDate: max(Date(), first.purchaseDate),
                                              expirationDate: first.purchaseDate.addingTimeInterval(30 * 86_400))
        renewal.originalID = first.originalID
        return (store, renewal)
    }

    /// A retry policy whose retries come after each test's checks.
    static let late = VerificationRetryPolicy(initial: .seconds(120), maximum: .seconds(120))

    /// Seed 37506 of the lifecycle simulation: a renewal a verifier failed, or must check again later, is still
    /// the newest of its chain, so the period before it, whose copy never learned that the renewal ended it, does
    /// not keep the subscription; once a verifier passes the renewal, it entitles until its own end.
    @Test(arguments: [StoreErrorCode.verificationInvalidSignature, .verificationRetryable])
    func aRenewalAVerifierFailedEndsTheSubscriptionUntilOnePassesIt(verdict: StoreErrorCode) async throws {
        let verifier = ScriptedVerifier()
        // The retry waits long enough that the checks below see the renewal still waiting for its verdict.
        let (store, renewal) = try await storeWithARenewalToCome(verifier, Self.late)
        defer { store.close() }
        verifier.script(verdict == .verificationRetryable ? .retryLater(StoreError(.storeUnreachable))
                                                           : .failed(StoreError(verdict)))
        backend.send(.purchased(renewal))
        _ = try await store.pollUntil { event in
            guard case .verificationFailed(nil, renewal, let error) = event else { return false }
            return error.code == verdict
        }
        #expect(try !store.isEntitled(to: "monthly"))
        #expect(try store.currentEntitlements().isEmpty)
        backend.send(.purchased(renewal))
        _ = try await store.pollUntil { $0 == .purchased(requestID: nil, transaction: renewal) }
        #expect(try store.currentEntitlements() == [renewal])
    }

    /// A renewal a restore brings whose check must be retried is checked again on the retry timer, as a delivery
    /// is: the subscription comes back once a verifier passes it, without another restore.
    @Test func aRenewalARestoreCouldNotCheckIsCheckedAgainUntilItPasses() async throws {
        let verifier = ScriptedVerifier()
        let (store, renewal) = try await storeWithARenewalToCome(
            verifier, VerificationRetryPolicy(initial: .milliseconds(10), maximum: .milliseconds(20)))
        defer { store.close() }
        backend.scriptRestore(.success([renewal]))
        verifier.script(.retryLater(StoreError(.storeUnreachable)), .retryLater(StoreError(.storeUnreachable)))
        let restore = try store.requestRestore()
        let events = try await store.pollUntilTerminal(of: restore)
        #expect(events.contains { event in
            guard case .verificationFailed(nil, renewal, let error) = event else { return false }
            return error.code == .verificationRetryable
        })
        try await waitUntil { try store.currentEntitlements() == [renewal] }
        #expect(verifier.verifiedIDs.filter { $0 == renewal.id }.count == 3)  // checked until a verifier passed it
    }

    /// A restored renewal whose check was left to retry when the game closed is checked again at the next launch,
    /// although the restore recorded it finished: the subscription comes back without another restore.
    @Test func aRestoredRenewalLeftToRetryIsCheckedAgainAtTheNextLaunch() async throws {
        let verifier = ScriptedVerifier()
        let (store, renewal) = try await storeWithARenewalToCome(verifier, Self.late)
        backend.scriptRestore(.success([renewal]))
        verifier.script(.retryLater(StoreError(.storeUnreachable)))
        let restore = try store.requestRestore()
        #expect(try await store.pollUntilTerminal(of: restore).last == .restoreFinished(requestID: restore, result: .success(0)))
        #expect(try store.currentEntitlements().isEmpty)
        store.close()
        let reopened = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: ScriptedVerifier())
        defer { reopened.close() }
        try await waitUntil { try reopened.currentEntitlements() == [renewal] }
        // Checked quietly: the restore that recorded it finished was its delivery.
        #expect(await reopened.pollSettled().isEmpty)
    }

    /// A refunded renewal the journal never held, of a subscription it holds (issue 37, item 6), restored while the
    /// server cannot be reached or says no: refunds fail safe, so it ends the subscription at once, is told once, and
    /// not again at the next launch.
    @Test(arguments: [false, true])
    func aRefundedRenewalOfAHeldSubscriptionEndsItWhateverTheVerifierSays(serverReachable: Bool) async throws {
        let verifier = ScriptedVerifier()
        let (store, renewal) = try await storeWithARenewalToCome(verifier, Self.late)
        let refunded = renewal.refunded(.refundedDueToIssue)
        backend.scriptRestore(.success([refunded]))
        verifier.script(serverReachable ? .failed(StoreError(.verificationRejectedByServer)) : .retryLater(StoreError(.storeUnreachable)))
        let restore = try store.requestRestore()
        let events = try await store.pollUntilTerminal(of: restore)
        #expect(events == [.revoked(transaction: refunded), .restoreFinished(requestID: restore, result: .success(0))])
        #expect(try store.currentEntitlements().isEmpty)
        store.close()
        let reopened = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: ScriptedVerifier())
        defer { reopened.close() }
        await reopened.waitUntilWorkerIdle()
        #expect(await reopened.pollSettled().isEmpty)
        #expect(try reopened.currentEntitlements().isEmpty)
    }

    /// Item 7: a transaction that failed verification, reopened without a verifier, is told as failed again and
    /// entitles to nothing, until a verifier passes it.
    @Test func aFailedTransactionStaysNoEntitlementWhenReopenedWithoutAVerifier() async throws {
        let forged = StoreError(.verificationInvalidSignature, "forged")
        do {
            let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: ScriptedVerifier([.failed(forged)]))
            _ = try await store.pollUntilTerminal(of: try store.requestProducts(["pro"]))
            let request = try store.requestPayment(productID: "pro")
            let events = try await store.pollUntilTerminal(of: request)
            guard case .verificationFailed(request, _, forged) = events.last else { Issue.record("\(events)"); return }
            store.close()
        }
        do {
            let reopened = try PurchaseStore(backend: backend, stateDirectory: folder.state)
            defer { reopened.close() }
            let events = try await reopened.pollUntil { _ in true }
            guard case .verificationFailed(nil, let transaction, let error) = events.last else { Issue.record("\(events)"); return }
            #expect(transaction.productID == "pro" && error.code == .verificationInvalidSignature)
            #expect(try !reopened.isEntitled(to: "pro"))
            #expect(try reopened.currentEntitlements().isEmpty)
        }
        // A verifier passes it at last: now it is purchased and entitles.
        let verified = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: ScriptedVerifier())
        defer { verified.close() }
        let events = try await verified.pollUntil { _ in true }
        guard case .purchased(nil, let transaction) = events.last else { Issue.record("\(events)"); return }
        #expect(transaction.productID == "pro")
        #expect(try verified.isEntitled(to: "pro"))
    }
}
