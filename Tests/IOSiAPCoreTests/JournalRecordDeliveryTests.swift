import Foundation
@testable import IOSiAPCore
import IOSiAPTestSupport
import Testing

/// Answers "retry later" until `open`, then passes every copy: a verification server that is down for a while.
final class OutageVerifier: TransactionVerifier, Sendable {
    private let isDown = Locked(true)
    private let calls = Locked(0)

    func verify(_ transaction: StoreTransaction) async -> VerificationOutcome {
        calls.withLock { $0 += 1 }
        return isDown.withLock { $0 } ? .retryLater(StoreError(.storeUnreachable, "the server is down")) : .verified
    }

    /// How many checks it answered.
    var checks: Int { calls.withLock { $0 } }

    /// The server is back: every later check passes.
    func open() { isDown.withLock { $0 = false } }
}

/// The record's delivery state (journaled → told → finished) and refund state (none → to tell → told, the grant
/// taken back in the commit that records the refund, or at the latest in the one that notes it told), issue 23
/// items 2 to 6, in the journal and as a game sees them.
@Suite struct JournalRecordDeliveryTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()
    static let fast = VerificationRetryPolicy(initial: .milliseconds(10), maximum: .milliseconds(20))

    /// Copy of one pro purchase, signed `signed` seconds after it was bought.
    func pro(signed: TimeInterval, revoked: Bool = false) -> StoreTransaction {
        let bought = Date(timeIntervalSince1970: 1_800_000_000)
        return StoreTransaction(id: 7, originalID: 7, productID: "pro", productType: .nonConsumable, quantity: 1,
                                purchaseDate: bought, originalPurchaseDate: bought,
                                revocationDate: revoked ? bought.addingTimeInterval(signed) : nil,
                                revocationReason: revoked ? .refundedDueToIssue : nil, environment: .sandbox, storefront: "USA",
                                signedJWS: fakeJWS(signedAt: bought.addingTimeInterval(signed)))
    }

    /// Opens the directory again over a store that lists its unfinished transactions only once asked to, and
    /// returns the events queued by the time launch redelivery asks for that list: what the launch tells again
    /// (refunds still to tell) is queued before it asks. `setUp` runs right after the open, before any poll.
    func relaunchUntilRedeliveryAsksTheStore(setUp: (PurchaseStore) -> Void = { _ in }) async throws -> (PurchaseStore, [StoreEvent]) {
        let relaunchedBackend = ScriptedBackend()
        relaunchedBackend.holdUnfinishedList()
        let store = try PurchaseStore(backend: relaunchedBackend, stateDirectory: folder.state)
        setUp(store)
        try await waitUntil { relaunchedBackend.callsWaitingForUnfinishedList == 1 }
        var events: [StoreEvent] = []
        store.poll { events.append($0) }
        relaunchedBackend.openUnfinishedList()
        return (store, events)
    }

    /// Waits until `store` has queued an event, blocking a thread of its own, not one of Swift's cooperative pool.
    func waitForQueuedEvent(_ store: PurchaseStore) async {
        await withCheckedContinuation { continuation in
            Thread {
                store.waitForEvents()
                continuation.resume()
            }.start()
        }
    }

    static func isRevoked(_ event: StoreEvent) -> Bool {
        if case .revoked = event { true } else { false }
    }

    // MARK: - Item 2: the refund state is the record's, moved only forward

    /// Item 2: `expire` then `refund` in one look of the store, with a verifier that cannot be reached: the refund
    /// of the held purchase takes effect at once (refunds fail safe), the expiry of the refunded copy is told after
    /// it, and the refund is told once, not again at the next launch.
    @Test func aRefundWhoseCheckIsRetriedAfterTheExpiryRecordedTheRefundedCopyIsToldOnce() async throws {
        let verifier = ScriptedVerifier()
        do {
            let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: verifier, retryPolicy: Self.fast)
            defer { store.close() }
            _ = try await store.pollUntilTerminal(of: try store.requestProducts(["monthly"]))
            let bought = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "monthly"))
            guard case .purchased(_, let transaction) = bought.last else { Issue.record("\(bought)"); return }
            try store.finish(transactionID: transaction.id)
            var ended = transaction
            ended.expirationDate = Date()
            ended.revocationDate = Date()
            verifier.script(.retryLater(StoreError(.storeUnreachable, "offline")))  // the refund's first check
            backend.send(.revoked(ended))
            backend.send(.expired(ended))
            let events = try await store.pollUntil { $0 == .expired(transaction: ended) }
            #expect(events.first == .revoked(transaction: ended), "\(events)")
            #expect(events.filter(Self.isRevoked).count == 1, "\(events)")
            #expect(try !store.isEntitled(to: "monthly"))
        }
        let (relaunched, told) = try await relaunchUntilRedeliveryAsksTheStore()
        relaunched.close()
        #expect(!told.contains(where: Self.isRevoked), "\(told)")
    }

    /// Item 2: a second copy of a refund recorded and told (signed later) neither tells it again nor undoes it.
    @Test func aSecondRefundedCopyNeverTellsTheRefundAgain() throws {
        let journal = try Journal(directory: folder.state)
        try journal.record(pro(signed: 0), verdict: .verified)
        try journal.recordRevocation(pro(signed: 60, revoked: true), verdict: .verified)
        #expect(try journal.unannouncedRevocations().readable.map(\.id) == [7])
        try journal.acknowledgeRefund(7, deductingCurrency: false)
        try journal.recordRevocation(pro(signed: 120, revoked: true), verdict: .verified)
        #expect(try journal.unannouncedRevocations().readable.isEmpty)
        #expect(try journal.allTransactions() == [pro(signed: 120, revoked: true)])
    }

    /// Version 6 kept no delivery state and told refunds by `revocation_announced`; version 7 reads a row as told
    /// unless a verifier failed it or has not passed it, and keeps each refund's state (one recorded before version
    /// 5 left the column empty, and was told then). A refunded copy no verifier passed (row 7) records no refund, as
    /// it would not now: it must not keep a genuine copy of the same transaction out.
    @Test func aVersion6JournalKeepsWhatWasToldAndEachRefundsState() throws {
        let path = try folder.state.file("journal.sqlite")
        do {
            let version6 = try SQLiteDatabase(path: path)
            try version6.migrate(Array(Journal.migrations.prefix(6)))
            // id, verdict, revoked, revocation_announced
            let rows: [(UInt64, SQLiteValue, Bool, SQLiteValue)] = [(1, .null, false, .null), (2, .integer(1), false, .null),
                                                                    (3, .integer(0), false, .null), (4, .integer(1), true, .integer(0)),
                                                                    (5, .integer(1), true, .integer(1)), (6, .null, true, .null),
                                                                    (7, .integer(0), true, .null)]
            for (id, verdict, revoked, announced) in rows {
                var transaction = pro(signed: 0, revoked: revoked)
                transaction.id = id
                try version6.query("""
                    INSERT INTO transactions (id, product_id, finished, payload, verdict, revocation_announced) VALUES (?, 'pro', ?, ?, ?, ?)
                    """, [.integer(Int64(id)), .integer(revoked ? 1 : 0), .blob(Array(try JSONEncoder().encode(transaction))), verdict, announced])
            }
        }
        let journal = try Journal(directory: folder.state)
        #expect(thrownCode { try journal.markFinished(3) } == .notDelivered)  // failed or pending: never told
        #expect(try journal.markFinished(1) && journal.markFinished(2))
        #expect(try journal.unannouncedRevocations().readable.map(\.id) == [4])
        #expect(try [4, 5, 6].map { try journal.refundState(of: $0) } == [.toTell, .told, .told])
        #expect(try [1, 7].map { try journal.refundState(of: $0) } == [.notRefunded, .notRefunded])
    }

    // MARK: - Item 3: the ledger never hands out a plain purchase it was left to grant

    /// Item 3: a purchase queued before its grant was registered is granted as it leaves the queue; the store
    /// closing on the game's thread between that check and the grant's commit (delivery-thread mode) must not turn
    /// it into a plain `purchased`, which the game would grant, and the ledger again at the next launch.
    @Test func aPurchaseLeftToTheLedgerIsWithheldWhenTheStoreClosesAsItIsGranted() throws {
        let journal = try Journal(directory: folder.state)
        let bought = backend.makeTransaction("coins", quantity: 2)
        try journal.record(bought)
        let ledger = GrantLedger(journal: journal, flights: Locked(TransactionFlights())) { _ in }
        let purchased = StoreEvent.purchased(requestID: nil, transaction: bought)
        #expect(ledger.settle(purchased, beforeFirstPoll: true) == purchased)  // no grant registered yet
        try ledger.register(.currency("coins", amountPerUnit: 100), for: "coins")
        journal.releaseDirectory()  // closed on another thread, as the event leaves the queue
        #expect(ledger.apply(purchased) == nil)
    }

    // MARK: - Item 4: finish refuses what was never told as purchased or restored

    /// Item 4: a game that finishes the id of a `verificationFailed` whose check could not complete (the StoreKit 1
    /// habit of finishing failures) is refused, and the genuine purchase is delivered once the check passes.
    @Test func finishingAPurchaseWhoseCheckCouldNotCompleteIsRefusedAndItIsStillDelivered() async throws {
        let verifier = OutageVerifier()
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: verifier, retryPolicy: Self.fast)
        defer { store.close() }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["pro"]))
        let request = try store.requestPayment(productID: "pro")
        let events = try await store.pollUntilTerminal(of: request)
        guard case .verificationFailed(request, let transaction, let error) = events.last else { Issue.record("\(events)"); return }
        #expect(error.code == .verificationRetryable)
        #expect(thrownCode { try store.finish(transactionID: transaction.id) } == .notDelivered)
        #expect(try store.unfinishedTransactions() == [transaction])
        verifier.open()
        let delivered = try await store.pollUntil { $0 == .purchased(requestID: nil, transaction: transaction) }
        #expect(!delivered.contains { if case .verificationFailed = $0 { true } else { false } }, "said once: \(delivered)")
        try store.finish(transactionID: transaction.id)
        #expect(try store.unfinishedTransactions().isEmpty)
        #expect(try store.isEntitled(to: "pro"))
    }

    /// A refunded copy a verifier failed (forged, or a check that is wrong) is no refund: the payment it answers
    /// ends in `verificationFailed`, nothing is told revoked, and the genuine copy of the same transaction, once it
    /// passes, is delivered and entitles. Before, the failed copy recorded the refund and finished the record, so
    /// the genuine purchase was never delivered (found by review).
    @Test func aRefundedCopyAVerifierFailedRecordsNoRefund() async throws {
        let genuine = pro(signed: 0)
        backend.scriptPurchases(.success(.purchased(pro(signed: 5, revoked: true))))
        do {
            let verifier = ScriptedVerifier([.failed(StoreError(.verificationInvalidSignature, "forged"))])
            let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: verifier)
            _ = try await store.pollUntilTerminal(of: try store.requestProducts(["pro"]))
            let request = try store.requestPayment(productID: "pro")
            var events = try await store.pollUntilTerminal(of: request)
            guard case .verificationFailed(request, let transaction, _) = events.last else { Issue.record("\(events)"); return }
            #expect(transaction.id == genuine.id)
            events.append(contentsOf: await store.pollSettled())
            #expect(!events.contains { Self.isRevoked($0) }, "\(events)")
            #expect(try !store.isEntitled(to: "pro"))
            store.close()
        }
        let relaunchedBackend = ScriptedBackend()
        relaunchedBackend.holdUnfinished([genuine])
        let store = try PurchaseStore(backend: relaunchedBackend, stateDirectory: folder.state, verifier: ScriptedVerifier())
        defer { store.close() }
        let delivered = try await store.pollUntil { $0 == .purchased(requestID: nil, transaction: genuine) }
        #expect(!delivered.contains { Self.isRevoked($0) }, "\(delivered)")
        try store.finish(transactionID: genuine.id)
        #expect(try store.isEntitled(to: "pro"))
    }

    /// A purchase is told until the game finishes it, never after: a request-less `purchased` queued before the game
    /// finished the transaction (it knew the id from an earlier launch, or a restore) is not handed out once it
    /// has (found by the lifecycle simulation, seed 20010: told as purchased after it was finished).
    @Test func aPurchaseQueuedBeforeTheGameFinishedItIsNotHandedOutAfter() async throws {
        var bought: StoreTransaction
        do {
            let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
            _ = try await store.pollUntilTerminal(of: try store.requestProducts(["pro"]))
            let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "pro"))
            guard case .purchased(_, let transaction) = events.last else { Issue.record("\(events)"); return }
            bought = transaction
            store.close()  // not finished: delivered again at the next launch
        }
        let relaunched = try PurchaseStore(backend: ScriptedBackend(), stateDirectory: folder.state)
        defer { relaunched.close() }
        await waitForQueuedEvent(relaunched)  // launch redelivery queued it; the game has not polled yet
        try relaunched.finish(transactionID: bought.id)
        let handed = await relaunched.pollSettled()
        #expect(!handed.contains(.purchased(requestID: nil, transaction: bought)), "\(handed)")
    }

    // MARK: - A restore never hands back what was refunded

    /// A restore whose list holds a stale, unrevoked copy of a transaction whose refund was recorded (the refund
    /// reached the game between the store's listing and the restore's write) restores nothing of it: a game that
    /// grants on `restored` would hand back what it just took back.
    @Test func aRestoreListingAStaleCopyOfARefundedPurchaseDoesNotRestoreIt() async throws {
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
        defer { store.close() }
        let pro = try await store.buyAndFinish("pro")
        let refunded = pro.refunded()
        backend.send(.revoked(refunded))
        _ = try await store.pollUntil { $0 == .revoked(transaction: refunded) }
        backend.scriptRestore(.success([pro]))
        let request = try store.requestRestore()
        #expect(try await store.pollUntilTerminal(of: request) == [.restoreFinished(requestID: request, result: .success(0))])
        #expect(try !store.isEntitled(to: "pro"))
    }

    /// A restore that brings the first refunded copy of a purchase records the refund and tells it, once, and does
    /// not tell it restored.
    @Test func aRestoreThatBringsARefundTellsTheRefundNotARestore() async throws {
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
        defer { store.close() }
        let refunded = try await store.buyAndFinish("pro").refunded()
        backend.scriptRestore(.success([refunded]))
        let request = try store.requestRestore()
        let events = try await store.pollUntilTerminal(of: request)
        #expect(events == [.revoked(transaction: refunded), .restoreFinished(requestID: request, result: .success(0))])
        #expect(try !store.isEntitled(to: "pro"))
        #expect(await store.pollSettled().isEmpty)
    }

    // MARK: - Item 5: told only once the game's handler returned

    /// Item 5: a refund taken from the event sequence whose handler did not return (the loop ended by a throw,
    /// before it asked for the next event) is told again at the next launch; handled there, it is not told again.
    @Test func aRefundWhoseHandlerDidNotReturnIsToldAgainAtTheNextLaunch() async throws {
        let refunded: StoreTransaction
        do {
            let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
            refunded = try await store.buyAndFinish("pro").refunded()
            backend.send(.revoked(refunded))
            struct GameFailed: Error {}
            do {
                for await event in store.events where Self.isRevoked(event) { throw GameFailed() }
            } catch {}
            store.close()
        }
        do {
            let relaunchedBackend = ScriptedBackend()
            relaunchedBackend.holdUnfinishedList()
            let relaunched = try PurchaseStore(backend: relaunchedBackend, stateDirectory: folder.state)
            try await waitUntil { relaunchedBackend.callsWaitingForUnfinishedList == 1 }  // the refund is queued again
            relaunchedBackend.openUnfinishedList()
            let request = try relaunched.requestProducts(["pro"])
            var iterator = relaunched.events.makeAsyncIterator()
            #expect(await iterator.next() == .revoked(transaction: refunded))
            // Handled this time: its handler returned, and the game asks for what comes next.
            while let event = await iterator.next(), event.requestID != request {}
            relaunched.close()
        }
        let (again, told) = try await relaunchUntilRedeliveryAsksTheStore()
        again.close()
        #expect(told.isEmpty, "\(told)")
    }

    // MARK: - Item 6: the take-back is in the refund's commit

    /// Item 6: a take-back that cannot be written leaves nothing of the refund recorded or told (it is not
    /// acknowledged with its currency kept); once the store reports it again, it is taken back and told.
    @Test func aRefundWhoseTakeBackFailsIsNotAcknowledged() async throws {
        let grant = Grant.currency("coins", amountPerUnit: 100)
        var refunded: StoreTransaction
        do {
            let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
            try store.registerGrant(grant, for: "coins")
            store.setDeductsRefundedConsumables(true)
            _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins"]))
            let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins", quantity: 2))
            guard case .granted(_, let transaction, _) = events.last else { Issue.record("\(events)"); return }
            refunded = transaction.refunded()
            try SQLiteDatabase(path: try folder.state.file("journal.sqlite"), create: false).execute("""
                CREATE TRIGGER take_back_fails BEFORE UPDATE ON grants BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END;
                """)
            backend.send(.revoked(refunded))
            backend.send(.declined(productID: "coins"))  // handled after the refund: a sign the worker is past it
            let told = try await store.pollUntil { $0 == .declined(productID: "coins") }
            #expect(!told.contains(where: Self.isRevoked), "\(told)")
            #expect(try store.balance(of: "coins") == 200)
            store.close()
        }
        try SQLiteDatabase(path: try folder.state.file("journal.sqlite"), create: false).execute("DROP TRIGGER take_back_fails")
        let relaunchedBackend = ScriptedBackend()
        let store = try PurchaseStore(backend: relaunchedBackend, stateDirectory: folder.state)
        defer { store.close() }
        try store.registerGrant(grant, for: "coins")
        store.setDeductsRefundedConsumables(true)
        relaunchedBackend.send(.revoked(refunded))  // a store reports refunds again at launch
        #expect(try await store.pollUntil(Self.isRevoked) == [.revoked(transaction: refunded)])
        try await waitUntil { (try? store.balance(of: "coins")) == 0 }
    }

    /// Item 6, the other commit: a refund recorded before the game's first poll is taken back in the commit that
    /// notes it told; when that take-back cannot be written, the refund stays to tell, and the next launch tells it
    /// again and takes it back.
    @Test func aRefundWhoseTakeBackFailsAsItIsNotedToldStaysToTell() async throws {
        let grant = Grant.currency("coins", amountPerUnit: 100)
        var refunded: StoreTransaction
        do {
            let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
            try store.registerGrant(grant, for: "coins")
            _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins"]))
            let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins", quantity: 2))
            guard case .granted(_, let transaction, _) = events.last else { Issue.record("\(events)"); return }
            refunded = transaction.refunded()
            store.close()
        }
        let journalPath = try folder.state.file("journal.sqlite")
        try SQLiteDatabase(path: journalPath, create: false).execute("""
            CREATE TRIGGER take_back_fails BEFORE UPDATE ON grants BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END;
            """)
        do {
            let relaunchedBackend = ScriptedBackend()
            let store = try PurchaseStore(backend: relaunchedBackend, stateDirectory: folder.state)
            try store.registerGrant(grant, for: "coins")
            store.setDeductsRefundedConsumables(true)
            relaunchedBackend.send(.revoked(refunded))
            await waitForQueuedEvent(store)  // recorded before the first poll
            #expect(try await store.pollUntil(Self.isRevoked) == [.revoked(transaction: refunded)])
            store.close()  // noted told by now (by the worker, or by close), or tried to be: the take-back failed
        }
        let journal = try SQLiteDatabase(path: journalPath, create: false)
        #expect(try journal.query("SELECT amount FROM balances WHERE currency = 'coins'").first?.first?.integer == 200)
        try journal.execute("DROP TRIGGER take_back_fails")
        let (relaunched, told) = try await relaunchUntilRedeliveryAsksTheStore { $0.setDeductsRefundedConsumables(true) }
        defer { relaunched.close() }
        #expect(told == [.revoked(transaction: refunded)])
        try await waitUntil { (try? relaunched.balance(of: "coins")) == 0 }
    }
}
