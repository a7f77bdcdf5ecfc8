import Foundation
import IOSiAPCore
import IOSiAPTestSupport
import Testing

@Suite struct VerificationTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    func openLoadedStore(_ verifier: ScriptedVerifier) async throws -> PurchaseStore {
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: verifier,
                                      retryPolicy: VerificationRetryPolicy(initial: .milliseconds(20), maximum: .milliseconds(80)))
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins", "pro"]))
        // Launch redelivery has read the store's (empty) unfinished list: it will not check a purchase of the test
        // again, which would take an answer scripted for a later check.
        await store.waitUntilWorkerIdle()
        return store
    }

    @Test func aVerifiedPurchaseIsPurchased() async throws {
        let verifier = ScriptedVerifier()
        let store = try await openLoadedStore(verifier)
        #expect(store.verifiesTransactions)
        let request = try store.requestPayment(productID: "coins")
        let events = try await store.pollUntilTerminal(of: request)
        guard case .purchased(request, let transaction) = events.last else { Issue.record("\(events)"); return }
        #expect(verifier.verifiedIDs == [transaction.id])
    }

    @Test func aFailedVerificationIsReportedNeitherGrantedNorFinished() async throws {
        let forged = StoreError(.verificationInvalidSignature, "forged")
        let store = try await openLoadedStore(ScriptedVerifier([.failed(forged)]))
        try store.registerGrant(.currency("coins", amountPerUnit: 100), for: "coins")
        let request = try store.requestPayment(productID: "coins", quantity: 2)
        let events = try await store.pollUntilTerminal(of: request)
        guard case .verificationFailed(request, let transaction, forged) = events.last else { Issue.record("\(events)"); return }
        #expect(try store.balance(of: "coins") == 0)
        #expect(try store.unfinishedTransactions() == [transaction])
        // Never delivered as purchased: finishing it is refused (it could be genuine, its verifier misconfigured).
        #expect(thrownCode { try store.finish(transactionID: transaction.id) } == .notDelivered)
        #expect(try store.unfinishedTransactions() == [transaction])
    }

    @Test func aTransactionThatFailsOrAwaitsVerificationIsNoEntitlement() async throws {
        let forged = StoreError(.verificationInvalidSignature, "forged")
        let offline = StoreError(.storeUnreachable, "offline")
        let store = try await openLoadedStore(ScriptedVerifier([.failed(forged), .retryLater(offline)]))
        _ = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "pro"))
        #expect(try !store.isEntitled(to: "pro") && store.currentEntitlements().isEmpty)  // forged: never
        let request = try store.requestRestore()  // the store returns it again: still checked first
        let restored = try await store.pollUntilTerminal(of: request)
        #expect(restored.last == .restoreFinished(requestID: request, result: .success(0)))
        if case .verificationFailed(_, _, let error) = restored.first { #expect(error.code == .verificationRetryable) }
        else { Issue.record("\(restored)") }
        // Checked again on the retry timer and verified at last: now it entitles, without another restore.
        try await waitUntil { try store.isEntitled(to: "pro") }
        let again = try store.requestRestore()
        let verified = try await store.pollUntilTerminal(of: again)
        #expect(verified.last == .restoreFinished(requestID: again, result: .success(1)))
    }

    /// A refunded copy of a held purchase arriving as a purchase update takes effect too, unasked (refunds fail safe),
    /// where an unrefunded copy that fails verification changes nothing the journal holds.
    @Test func aRefundedCopyArrivingAsAPurchaseTakesEffectAndAForgedCopyChangesNothing() async throws {
        let forged = StoreError(.verificationInvalidSignature, "forged")
        let verifier = ScriptedVerifier()
        let store = try await openLoadedStore(verifier)
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "pro"))
        guard case .purchased(_, let pro) = events.last else { Issue.record("\(events)"); return }
        try store.finish(transactionID: pro.id)
        var renamed = pro
        renamed.quantity = 2  // a copy that claims something else, and fails verification
        verifier.script(.failed(forged))
        backend.send(.purchased(renamed))
        try await waitUntil { verifier.verifiedIDs.count >= 2 }
        #expect(try store.currentEntitlements() == [pro])
        let revoked = pro.refunded()
        backend.send(.purchased(revoked))
        #expect(try await store.pollUntil { if case .revoked = $0 { true } else { false } }.last == .revoked(transaction: revoked))
        #expect(verifier.verifiedIDs == [pro.id, pro.id])  // the refund asked nothing
        #expect(try !store.isEntitled(to: "pro"))
    }

    /// A transaction reported twice in a launch (StoreKit's updates and its unfinished list) whose check fails is
    /// told once; a failure after a check of it passed is told again, since it takes away what the pass gave.
    @Test func aRepeatedFailureIsToldOnceAndAFailureAfterAPassAgain() async throws {
        let forged = StoreError(.verificationInvalidSignature, "forged")
        let verifier = ScriptedVerifier([.failed(forged), .failed(forged), .verified, .failed(forged)])
        let store = try await openLoadedStore(verifier)
        let approved = backend.makeTransaction("pro")
        func failures(_ events: [StoreEvent]) -> Int {
            events.filter { if case .verificationFailed(nil, let transaction, _) = $0 { transaction.id == approved.id } else { false } }.count
        }
        backend.send(.purchased(approved))
        backend.send(.purchased(approved))
        try await waitUntil { verifier.verifiedIDs.count == 2 }
        await store.waitUntilWorkerIdle()
        #expect(failures(await store.pollSettled()) == 1)
        backend.send(.purchased(approved))
        _ = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        #expect(try store.isEntitled(to: "pro"))
        backend.send(.purchased(approved))
        try await waitUntil { verifier.verifiedIDs.count == 4 }
        await store.waitUntilWorkerIdle()
        #expect(failures(await store.pollSettled()) == 1, "the entitlement ended: the game hears why")
        #expect(try !store.isEntitled(to: "pro"))
    }

    @Test func aVerificationThatCannotCompleteIsRetriedUntilItDoes() async throws {
        let offline = StoreError(.storeUnreachable, "offline")
        let verifier = ScriptedVerifier([.retryLater(offline), .retryLater(offline), .retryLater(offline)])
        let store = try await openLoadedStore(verifier)
        let request = try store.requestPayment(productID: "coins")
        let events = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        #expect(events.first == .purchasing(requestID: request, productID: "coins", quantity: 1))
        guard case .verificationFailed(request, let transaction, let error) = events.dropFirst().first else { Issue.record("\(events)"); return }
        #expect(error.code == .verificationRetryable)
        #expect(events.last == .purchased(requestID: nil, transaction: transaction))
        #expect(events.count == 3)  // said once, then retried quietly
        #expect(verifier.verifiedIDs == Array(repeating: transaction.id, count: 4))
    }

    @Test func transactionsRedeliveredAtLaunchAreVerifiedToo() async throws {
        var bought: StoreTransaction?
        do {
            let store = try await openLoadedStore(ScriptedVerifier())
            let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins"))
            if case .purchased(_, let transaction) = events.last { bought = transaction }
            store.close()
        }
        let transaction = try #require(bought)
        let verifier = ScriptedVerifier([.failed(StoreError(.verificationUntrustedChain))])
        let relaunched = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: verifier)
        let events = try await relaunched.pollUntil { _ in true }
        #expect(events == [.verificationFailed(requestID: nil, transaction: transaction, error: StoreError(.verificationUntrustedChain))])
    }

    @Test func restoredTransactionsThatFailVerificationAreNotRestored() async throws {
        do {
            let store = try await openLoadedStore(ScriptedVerifier())
            let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "pro"))
            guard case .purchased(_, let transaction) = events.last else { Issue.record("\(events)"); return }
            try store.finish(transactionID: transaction.id)
            _ = await store.pollSettled()
            store.close()
        }
        let failing = try PurchaseStore(backend: backend, stateDirectory: folder.state,
                                        verifier: ScriptedVerifier([.failed(StoreError(.verificationInvalidSignature))]))
        let request = try failing.requestRestore()
        let events = try await failing.pollUntilTerminal(of: request)
        #expect(events.contains { if case .verificationFailed(nil, _, _) = $0 { true } else { false } })
        #expect(events.last == .restoreFinished(requestID: request, result: .success(0)))
    }

    @Test func retryDelaysDoubleUpToTheMaximum() {
        let policy = VerificationRetryPolicy(initial: .seconds(2), maximum: .seconds(10))
        #expect((1...5).map { policy.delay(before: $0) } == [.seconds(2), .seconds(4), .seconds(8), .seconds(10), .seconds(10)])
    }
}

/// Revocations and expirations change the journal only once verified.
@Suite struct StatusChangeVerificationTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    func ownedPro(_ verifier: ScriptedVerifier) async throws -> (PurchaseStore, StoreTransaction) {
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: verifier)
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins", "pro"]))
        await store.waitUntilWorkerIdle()  // launch redelivery is done: the purchase is checked once
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "pro"))
        guard case .purchased(_, let pro) = events.last else { throw StoreError(.systemError, "\(events)") }
        try store.finish(transactionID: pro.id)
        return (store, pro)
    }

    /// Refunds fail safe (DESIGN.md promise 9): a refund the store reports for a transaction the journal holds takes
    /// effect at once, whatever the verifier says. A forged refund can only take from its own player; a genuine one
    /// that a server rejects (or cannot be reached for) must not leave the refunded item owned.
    @Test(arguments: [false, true])
    func aRefundOfAHeldTransactionTakesEffectWhateverTheVerifierSays(serverReachable: Bool) async throws {
        let rejected = StoreError(.verificationRejectedByServer, "the server says no")
        let offline = StoreError(.storeUnreachable, "offline")
        let verifier = ScriptedVerifier()
        let (store, pro) = try await ownedPro(verifier)
        let revoked = pro.refunded(.refundedDueToIssue)
        verifier.script(serverReachable ? .failed(rejected) : .retryLater(offline))
        backend.send(.revoked(revoked))
        let events = try await store.pollUntil { if case .revoked = $0 { true } else { false } }
        #expect(events == [.revoked(transaction: revoked)])
        #expect(try !store.isEntitled(to: "pro") && store.currentEntitlements().isEmpty)
        #expect(verifier.verifiedIDs == [pro.id])  // the purchase only: the refund asked nothing
        #expect(await store.pollSettled().isEmpty)
    }

    /// The same refund reported at launch, the store still holding the purchase unfinished (refunded while the game
    /// was closed), with a verifier that would fail it: it ends the entitlement and is told once.
    @Test func aRefundOfAHeldPurchaseReportedAtLaunchTakesEffectWhateverTheVerifierSays() async throws {
        let refunded = try await buyProAndCloseUnfinished().refunded()
        backend.holdUnfinished([refunded])
        let forged = StoreError(.verificationInvalidSignature, "rejected")
        let relaunched = try PurchaseStore(backend: backend, stateDirectory: folder.state,
                                           verifier: ScriptedVerifier(Array(repeating: .failed(forged), count: 5)))
        let events = try await relaunched.pollUntil { _ in true } + relaunched.pollSettled()
        #expect(events == [.revoked(transaction: refunded)])
        #expect(try !relaunched.isEntitled(to: "pro"))
    }

    /// A launch that buys the pro upgrade and closes without finishing it.
    func buyProAndCloseUnfinished() async throws -> StoreTransaction {
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: ScriptedVerifier())
        defer { store.close() }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["pro"]))
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "pro"))
        guard case .purchased(_, let transaction) = events.last else { throw EventTimeout(description: "\(events)") }
        return transaction
    }

    @Test func atLaunchTheStoresNewerCopyWinsOverTheJournals() async throws {
        // Refunded while the game was closed: the store still holds it unfinished, now revoked.
        let refunded = try await buyProAndCloseUnfinished().refunded(.refundedDueToIssue)
        backend.holdUnfinished([refunded])
        let relaunched = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: ScriptedVerifier())
        let events = try await relaunched.pollUntil { _ in true } + relaunched.pollSettled()
        #expect(events == [.revoked(transaction: refunded)])
        #expect(try !relaunched.isEntitled(to: "pro") && relaunched.unfinishedTransactions().isEmpty)
    }

    /// A refund of a held purchase needs no check: told at the first open even while the verifier never answers,
    /// and not again at the next.
    @Test func aRefundOfAHeldPurchaseIsToldWithoutWaitingForTheVerifierAndOnce() async throws {
        let refunded = try await buyProAndCloseUnfinished().refunded()
        let first = ScriptedBackend()
        first.holdUnfinished([refunded])
        let gate = GatedVerifier()  // never opened: a server that hangs
        do {
            let store = try PurchaseStore(backend: first, stateDirectory: folder.state, verifier: gate)
            defer { store.close() }
            let events = try await store.pollUntil { _ in true } + store.pollSettled()
            #expect(events == [.revoked(transaction: refunded)])
            #expect(gate.waiting == 0)
        }
        let second = ScriptedBackend()
        second.holdUnfinished([refunded])
        let next = try PurchaseStore(backend: second, stateDirectory: folder.state, verifier: ScriptedVerifier())
        defer { next.close() }
        await next.waitUntilWorkerIdle()
        #expect(await next.pollSettled().isEmpty)
    }

    @Test func aRefundReportedTwiceWhileItsCheckIsUnderwayIsToldOnce() async throws {
        let refunded = try await buyProAndCloseUnfinished().refunded()
        let store = ScriptedBackend()       // the store at the next launch (a closed backend's updates have ended)
        store.holdUnfinished([refunded])    // reported by the store's unfinished list at launch ...
        let verifier = SlowVerifier()
        let relaunched = try PurchaseStore(backend: store, stateDirectory: folder.state, verifier: verifier)
        store.send(.revoked(refunded))      // ... and by its updates, while the first check is underway
        var events = try await relaunched.pollUntil { _ in true }
        // Both reports handled: the worker has done all it was given, no check is under way, and all that came of
        // the last one is done too.
        await relaunched.waitUntilWorkerIdle()
        try await waitUntil { verifier.checksUnderWay == 0 }
        events += await relaunched.pollSettled()
        #expect(events == [.revoked(transaction: refunded)])
    }
}

/// Verifies everything, after a pause: a server's round trip.
final class SlowVerifier: TransactionVerifier, Sendable {
    private let underWay = Locked(0)

    /// How many checks have started and not ended.
    var checksUnderWay: Int { underWay.withLock { $0 } }

    func verify(_ transaction: StoreTransaction) async -> VerificationOutcome {
        underWay.withLock { $0 += 1 }
        defer { underWay.withLock { $0 -= 1 } }
        try? await Task.sleep(for: .milliseconds(150))
        return .verified
    }
}

/// Launch with a slow verification server: what an earlier launch left unfinished is verified a few at a
/// time, beside the game's requests.
@Suite struct SlowVerificationAtLaunchTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    @Test func requestsRunWhileRedeliveredTransactionsWaitForTheirVerification() async throws {
        do {
            let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
            _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins"]))
            for _ in 0..<6 { _ = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins")) }
            store.close()  // six purchases left unfinished
        }
        let gate = GatedVerifier()
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: gate)
        // The server hangs: the game's products request is answered all the same.
        let answered = try await store.pollUntilTerminal(of: try store.requestProducts(["coins"]))
        guard case .productsReceived = answered.last else { Issue.record("\(answered)"); return }
        try await waitUntil { gate.waiting >= GatedVerifier.expected }
        await store.waitUntilWorkerIdle()  // the other two wait for a turn: no more checks start
        #expect(gate.waiting == GatedVerifier.expected)  // a few at a time, not all six, not one
        gate.open()
        var purchased = 0
        _ = try await store.pollUntil { event in
            if case .purchased(nil, _) = event { purchased += 1 }
            return purchased == 6
        }
    }
}

/// Holds every verification until the test opens it, then verifies.
final class GatedVerifier: TransactionVerifier, Sendable {
    /// How many redelivered transactions the store verifies at once.
    static let expected = 4
    private let waitingChecks = Locked<[CheckedContinuation<Void, Never>]?>([])

    func verify(_ transaction: StoreTransaction) async -> VerificationOutcome {
        await withCheckedContinuation { continuation in
            let isOpen = waitingChecks.withLock { waiting in
                guard waiting != nil else { return true }
                waiting?.append(continuation)
                return false
            }
            if isOpen { continuation.resume() }
        }
        return .verified
    }

    var waiting: Int { waitingChecks.withLock { $0?.count ?? 0 } }

    func open() {
        let waiting = waitingChecks.withLock { waiting in
            defer { waiting = nil }
            return waiting ?? []
        }
        waiting.forEach { $0.resume() }
    }
}

/// Issue 37, item 1: a refund whose check cannot finish before close is part of the record: reported once (as
/// StoreKit's updates report it), for a transaction the journal does not hold, it is checked again at the next
/// launch and told once it passes.
@Suite struct PendingRefundTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    @Test func aRefundWhoseCheckCannotFinishBeforeCloseIsToldAtTheNextLaunch() async throws {
        let refunded = backend.makeTransaction("pro").refunded()  // bought on another device: never in this journal
        do {
            let offline = StoreError(.storeUnreachable, "offline")
            let store = try PurchaseStore(backend: backend, stateDirectory: folder.state,
                                          verifier: ScriptedVerifier(Array(repeating: .retryLater(offline), count: 3)),
                                          retryPolicy: VerificationRetryPolicy(initial: .seconds(3600)))
            defer { store.close() }
            backend.send(.revoked(refunded))
            let events = try await store.pollUntil { if case .verificationFailed = $0 { true } else { false } }
            guard case .verificationFailed(nil, refunded, let error) = events.last else { Issue.record("\(events)"); return }
            #expect(error.code == .verificationRetryable)
        }
        let relaunched = try PurchaseStore(backend: ScriptedBackend(), stateDirectory: folder.state, verifier: ScriptedVerifier())
        defer { relaunched.close() }
        let events = try await relaunched.pollUntil { if case .revoked = $0 { true } else { false } }
        #expect(events == [.revoked(transaction: refunded)])
        #expect(try !relaunched.isEntitled(to: "pro"))
        await relaunched.waitUntilWorkerIdle()
        #expect(await relaunched.pollSettled().isEmpty)
    }
}
