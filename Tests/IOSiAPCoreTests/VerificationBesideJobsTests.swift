import Foundation
import IOSiAPCore
import IOSiAPTestSupport
import Testing

/// A slow verification server holds up no other request: a payment's verification, and its retries, run
/// beside the request jobs.
@Suite struct VerificationBesideJobsTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    func openLoadedStore(_ verifier: some TransactionVerifier) async throws -> PurchaseStore {
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: verifier,
                                      retryPolicy: VerificationRetryPolicy(initial: .milliseconds(10), maximum: .milliseconds(20)))
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins"]))
        return store
    }

    @Test func aProductsRequestIsAnsweredWhileAPaymentsVerificationHangs() async throws {
        let verifier = StepVerifier([.waitForGate])
        let store = try await openLoadedStore(verifier)
        let payment = try store.requestPayment(productID: "coins")
        let products = try store.requestProducts(["pro"])
        let answered = try await store.pollUntilTerminal(of: products)
        guard case .productsReceived(products, let found, []) = answered.last, found.map(\.id) == ["pro"] else {
            Issue.record("\(answered)"); return
        }
        #expect(verifier.waiting == 1)  // the payment's verification is still underway
        #expect(!answered.contains { $0.requestID == payment && $0.isTerminal })
        verifier.open()
        let rest = try await store.pollUntilTerminal(of: payment)
        guard case .purchased(payment, let transaction) = rest.last else { Issue.record("\(rest)"); return }
        #expect(rest.filter { $0.requestID == payment && $0.isTerminal }.count == 1)
        #expect(try store.unfinishedTransactions() == [transaction])  // journaled before the event
    }

    @Test func aRetriedVerificationThatHangsHoldsUpNoRequest() async throws {
        let verifier = StepVerifier([.outcome(.retryLater(StoreError(.verificationRetryable, "server down"))), .waitForGate])
        let store = try await openLoadedStore(verifier)
        let payment = try store.requestPayment(productID: "coins")
        let ended = try await store.pollUntilTerminal(of: payment)
        guard case .verificationFailed(payment, let transaction, let error) = ended.last else { Issue.record("\(ended)"); return }
        #expect(error.code == .verificationRetryable)
        // The retry hangs on the server; the game's next request is answered all the same.
        try await waitUntil { verifier.waiting > 0 }
        #expect(verifier.waiting == 1)
        let products = try store.requestProducts(["pro"])
        let answered = try await store.pollUntilTerminal(of: products)
        guard case .productsReceived = answered.last else { Issue.record("\(answered)"); return }
        #expect(!answered.contains { if case .purchased = $0 { true } else { false } })
        verifier.open()
        let delivered = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        #expect(delivered.last == .purchased(requestID: nil, transaction: transaction))
        let later = await store.pollSettled()
        #expect(later.isEmpty)  // delivered once
    }

    @Test func aPaymentWhoseVerificationOutlivesCloseIsDeliveredAtTheNextLaunch() async throws {
        let verifier = StepVerifier([.waitForGate])
        let store = try await openLoadedStore(verifier)
        let payment = try store.requestPayment(productID: "coins")
        try await waitUntil { verifier.waiting > 0 }
        store.close()
        verifier.open()  // the check completes after close: nothing is written, nothing is told
        let seen = await store.pollSettled()
        #expect(!seen.contains { $0.requestID == payment && $0.isTerminal })
        let relaunched = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: ScriptedVerifier())
        let events = try await relaunched.pollUntil { if case .purchased = $0 { true } else { false } }
        guard case .purchased(nil, let transaction) = events.last else { Issue.record("\(events)"); return }
        #expect(backend.charged.map(\.id) == [transaction.id])
    }
}

/// A payment whose verification is underway while launch redelivery finds its charge in the store's
/// unfinished list is delivered once: as the payment's `purchased`.
@Suite struct PaymentDuringLaunchRedeliveryTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    @Test func aChargeBothPaidForAndListedUnfinishedIsDeliveredOnce() async throws {
        backend.holdUnfinishedList()                      // the store answers its unfinished list late
        let verifier = StepVerifier([.waitForGate])       // the payment's check hangs
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: verifier)
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins"]))
        let payment = try store.requestPayment(productID: "coins")
        try await waitUntil { verifier.waiting > 0 }
        backend.openUnfinishedList()                      // it lists the payment's charge, unfinished
        try await waitUntil { verifier.calls >= 2 }
        verifier.open()
        var events = try await store.pollUntilTerminal(of: payment)
        events += await store.pollSettled()
        let purchases = events.filter { if case .purchased = $0 { true } else { false } }
        #expect(purchases.count == 1 && purchases.first?.requestID == payment, "\(events)")
    }
}

/// A verifier that follows a script, one step per call (after it, transactions verify): an outcome at
/// once, or a wait until the test opens the gate, then verified.
final class StepVerifier: TransactionVerifier, Sendable {
    enum Step: Sendable {
        case outcome(VerificationOutcome)
        case waitForGate
    }

    private let steps: Locked<[Step]>
    private let callCount = Locked(0)
    private let gate = Locked<(isOpen: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    init(_ steps: [Step]) {
        self.steps = Locked(steps)
    }

    func verify(_ transaction: StoreTransaction) async -> VerificationOutcome {
        callCount.withLock { $0 += 1 }
        let step = steps.withLock { $0.isEmpty ? Step.outcome(.verified) : $0.removeFirst() }
        switch step {
        case .outcome(let outcome):
            return outcome
        case .waitForGate:
            await withCheckedContinuation { continuation in
                let isOpen = gate.withLock { gate in
                    if !gate.isOpen { gate.waiting.append(continuation) }
                    return gate.isOpen
                }
                if isOpen { continuation.resume() }
            }
            return .verified
        }
    }

    /// How many verifications were asked for.
    var calls: Int { callCount.withLock { $0 } }

    /// How many verifications wait for the gate.
    var waiting: Int { gate.withLock { $0.waiting.count } }

    /// Lets every waiting and later verification through.
    func open() {
        let waiting = gate.withLock { gate in
            defer { gate = (true, []) }
            return gate.waiting
        }
        waiting.forEach { $0.resume() }
    }
}

/// Verification lanes (issue 37, item 2): a payment and a restore never wait behind the checks launch recovery and
/// retries queue. With more such checks hanging on a server than may run at once, a new payment still ends.
@Suite struct VerificationLaneTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    /// Hangs, until `open`, on the transactions it was told of; verifies every other one at once.
    final class HangingVerifier: TransactionVerifier, Sendable {
        private let hanging: Set<UInt64>
        private let gate = Locked<(isOpen: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

        init(hanging: Set<UInt64>) { self.hanging = hanging }

        func verify(_ transaction: StoreTransaction) async -> VerificationOutcome {
            guard hanging.contains(transaction.id) else { return .verified }
            await withCheckedContinuation { continuation in
                let isOpen = gate.withLock { gate in
                    if !gate.isOpen { gate.waiting.append(continuation) }
                    return gate.isOpen
                }
                if isOpen { continuation.resume() }
            }
            return .verified
        }

        var waiting: Int { gate.withLock { $0.waiting.count } }

        func open() {
            let waiting = gate.withLock { gate in
                gate.isOpen = true
                defer { gate.waiting = [] }
                return gate.waiting
            }
            waiting.forEach { $0.resume() }
        }
    }

    /// Checks that run at once beside the requests (StoreWorker.verificationConcurrency; docs/verification.md says four).
    static let concurrency = 4

    @Test func aPaymentAndARestoreEndWhileLaunchChecksHang() async throws {
        let held = (0..<(Self.concurrency + 2)).map { _ in backend.makeTransaction("coins") }
        backend.holdUnfinished(held)  // unfinished at launch: launch redelivery checks each
        let verifier = HangingVerifier(hanging: Set(held.map(\.id)))
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: verifier)
        defer {
            verifier.open()
            store.close()
        }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins", "pro"]))
        try await waitUntil { verifier.waiting == Self.concurrency }
        let payment = try store.requestPayment(productID: "pro")
        let paid = try await store.pollUntilTerminal(of: payment)
        guard case .purchased(payment, let pro) = paid.last else { Issue.record("\(paid)"); return }
        backend.scriptRestore(.success([pro]))
        let restore = try store.requestRestore()
        #expect(try await store.pollUntilTerminal(of: restore).last == .restoreFinished(requestID: restore, result: .success(1)))
        #expect(verifier.waiting == Self.concurrency)  // the launch checks still hang
    }

    /// Issue 37, item 3: the store's updates are checked beside the updates loop, each transaction's in order: an
    /// update whose check hangs holds up no other transaction's update, nor a message.
    @Test func anUpdateWhoseCheckHangsHoldsUpNoOtherUpdate() async throws {
        let stuck = backend.makeTransaction("coins")
        let verifier = HangingVerifier(hanging: [stuck.id])
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: verifier)
        defer {
            verifier.open()
            store.close()
        }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins", "pro"]))
        let approved = backend.makeTransaction("pro")
        backend.send(.purchased(stuck))
        try await waitUntil { verifier.waiting == 1 }
        backend.send(.purchased(approved))
        backend.send(.message(StoreMessage(id: "1", reason: .billingIssue)))
        var told = try await store.pollUntil { if case .storeKitMessage = $0 { true } else { false } }
        if !told.contains(.purchased(requestID: nil, transaction: approved)) {
            told += try await store.pollUntil { $0 == .purchased(requestID: nil, transaction: approved) }
        }
        #expect(!told.contains(.purchased(requestID: nil, transaction: stuck)))
        verifier.open()
        #expect(try await store.pollUntil { $0 == .purchased(requestID: nil, transaction: stuck) }.last
                == .purchased(requestID: nil, transaction: stuck))
    }
}
