import Foundation
@testable import IOSiAPCore
import IOSiAPTestSupport
import Testing

@Suite struct GrantLedgerTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    func openStore(coins: Bool = true) async throws -> PurchaseStore {
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
        if coins {
            try store.registerGrant(.currency("coins", amountPerUnit: 100), for: "coins")
            try store.registerGrant(.entitlement("pro"), for: "pro")
        }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins", "pro", "monthly"]))
        return store
    }

    @Test func aConsumableIsGrantedAndFinishedInOneStep() async throws {
        let store = try await openStore()
        let request = try store.requestPayment(productID: "coins", quantity: 3)
        let events = try await store.pollUntilTerminal(of: request)
        guard case .granted(request, let transaction, .currency("coins", 100)) = events.last else {
            Issue.record("expected granted, got \(events)"); return
        }
        #expect(transaction.quantity == 3)
        #expect(try store.balance(of: "coins") == 300)
        #expect(try store.unfinishedTransactions().isEmpty)
        _ = await store.pollSettled()
        #expect(backend.finishedIDs == [transaction.id])
    }

    @Test func aTransactionDeliveredAgainGrantsNothing() async throws {
        let store = try await openStore()
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins", quantity: 2))
        guard case .granted(_, let transaction, _) = events.last else { Issue.record("\(events)"); return }
        backend.send(.purchased(transaction))
        #expect(await store.pollSettled().isEmpty)
        #expect(try store.balance(of: "coins") == 200)
    }

    @Test func grantsRegisteredAfterOpeningApplyToTransactionsRedeliveredAtLaunch() async throws {
        var bought: StoreTransaction?
        do {
            let store = try await openStore(coins: false)
            let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins", quantity: 2))
            if case .purchased(_, let transaction) = events.last { bought = transaction }
            store.close()  // the game died before it granted and finished
        }
        let relaunched = try PurchaseStore(backend: backend, stateDirectory: folder.state)
        try relaunched.registerGrant(.currency("coins", amountPerUnit: 100), for: "coins")
        let events = try await relaunched.pollUntil { _ in true }
        #expect(events == [.granted(requestID: nil, transaction: try #require(bought), grant: .currency("coins", amountPerUnit: 100))])
        #expect(try relaunched.balance(of: "coins") == 200)
        #expect(try relaunched.unfinishedTransactions().isEmpty)
    }

    /// Waits, without polling, until `condition` holds: what the worker does on its own before the game polls.
    func waitWithoutPolling(_ condition: () throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(5))
        }
        return try condition()  // once more: a task resumed late on a busy machine
    }

    @Test func theWorkerGrantsAndFinishesBeforeTheGamePolls() async throws {
        let store = try await openStore()
        let request = try store.requestPayment(productID: "coins", quantity: 2)
        // The commit is the worker's: the grant is durable and the transaction finished before any poll.
        #expect(try await waitWithoutPolling { try store.balance(of: "coins") == 200 })
        #expect(try store.unfinishedTransactions().isEmpty)
        let events = try await store.pollUntilTerminal(of: request)
        guard case .granted(request, let transaction, .currency("coins", 100)) = events.last else {
            Issue.record("expected granted, got \(events)"); return
        }
        #expect(try store.balance(of: "coins") == 200)
        #expect(try await waitWithoutPolling { backend.finishedIDs == [transaction.id] })
    }

    @Test func theAsyncSequenceDeliversTheWorkersGrants() async throws {
        let store = try await openStore()
        let request = try store.requestPayment(productID: "coins", quantity: 4)
        #expect(try await waitWithoutPolling { try store.balance(of: "coins") == 400 })
        var iterator = store.events.makeAsyncIterator()
        var last: StoreEvent?
        while let event = await iterator.next() {
            last = event
            if event.requestID == request && event.isTerminal { break }
        }
        guard case .granted(request, _, .currency("coins", 100)) = last else { Issue.record("\(String(describing: last))"); return }
        #expect(try store.balance(of: "coins") == 400)
    }

    @Test func aPurchaseBeforeTheFirstPollIsGrantedByTheWorkerWhenItsGrantIsRegistered() async throws {
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
        try store.registerGrant(.currency("coins", amountPerUnit: 100), for: "coins")
        let bought = backend.makeTransaction("coins", quantity: 3)
        backend.send(.purchased(bought))
        #expect(try await waitWithoutPolling { try store.balance(of: "coins") == 300 })
        #expect(try store.unfinishedTransactions().isEmpty)
        #expect(try await store.pollUntil { _ in true }
                == [.granted(requestID: nil, transaction: bought, grant: .currency("coins", amountPerUnit: 100))])
        #expect(try store.balance(of: "coins") == 300)
    }

    @Test func aPurchaseQueuedBeforeItsGrantWasRegisteredIsGrantedAsItLeavesTheQueue() async throws {
        var bought: StoreTransaction?
        do {
            let store = try await openStore(coins: false)
            let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins", quantity: 2))
            if case .purchased(_, let transaction) = events.last { bought = transaction }
            store.close()  // the game died before it granted and finished
        }
        let relaunched = try PurchaseStore(backend: backend, stateDirectory: folder.state)
        // The launch redelivery is queued before the game registers: the worker had no rule to grant it with.
        await relaunched.waitForEvents()
        try relaunched.registerGrant(.currency("coins", amountPerUnit: 100), for: "coins")
        #expect(try relaunched.balance(of: "coins") == 0)
        let events = try await relaunched.pollUntil { _ in true }
        #expect(events == [.granted(requestID: nil, transaction: try #require(bought), grant: .currency("coins", amountPerUnit: 100))])
        #expect(try relaunched.balance(of: "coins") == 200)
        #expect(try relaunched.unfinishedTransactions().isEmpty)
        #expect(await relaunched.pollSettled().isEmpty)  // and once only
    }

    /// A purchase left for the ledger to grant as it leaves the queue, which the game finishes itself before it
    /// polls: it is not handed out, nor granted, and the work left for its hand-out goes with it (hand-outs after
    /// it take no lock again).
    @Test func aPurchaseLeftToTheLedgerThatTheGameFinishedLeavesNoHandOutWork() async throws {
        var bought: StoreTransaction?
        do {
            let store = try await openStore(coins: false)
            let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins", quantity: 2))
            if case .purchased(_, let transaction) = events.last { bought = transaction }
            store.close()
        }
        let relaunched = try PurchaseStore(backend: backend, stateDirectory: folder.state)
        defer { relaunched.close() }
        await relaunched.waitForEvents()
        #expect(relaunched.ledger.hasHandOutWork, "the redelivery was left to the ledger")
        try relaunched.finish(transactionID: try #require(bought).id)
        try relaunched.registerGrant(.currency("coins", amountPerUnit: 100), for: "coins")
        #expect(await relaunched.pollSettled().isEmpty)
        #expect(try relaunched.balance(of: "coins") == 0)
        #expect(!relaunched.ledger.hasHandOutWork)
    }

    /// A purchase left for the ledger to grant as it leaves the queue, with the store closed before the game
    /// polled it, is not handed out as a plain purchase (which a game would grant itself, and the ledger again
    /// at the next launch): it stays unfinished and the next launch grants it, once.
    @Test func aPurchaseLeftToTheLedgerIsNotHandedOutPlainAfterClose() async throws {
        var bought: StoreTransaction?
        do {
            let store = try await openStore(coins: false)
            let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins", quantity: 2))
            if case .purchased(_, let transaction) = events.last { bought = transaction }
            store.close()
        }
        let grant = Grant.currency("coins", amountPerUnit: 100)
        do {
            let relaunched = try PurchaseStore(backend: backend, stateDirectory: folder.state)
            await relaunched.waitForEvents()
            try relaunched.registerGrant(grant, for: "coins")
            relaunched.close()
            var afterClose: [StoreEvent] = []
            relaunched.poll { afterClose.append($0) }
            #expect(!afterClose.contains { if case .purchased = $0 { true } else { false } })
        }
        let third = try PurchaseStore(backend: backend, stateDirectory: folder.state)
        try third.registerGrant(grant, for: "coins")
        let events = try await third.pollUntil { _ in true }
        #expect(events == [.granted(requestID: nil, transaction: try #require(bought), grant: grant)])
        #expect(try third.balance(of: "coins") == 200)
        #expect(await third.pollSettled().isEmpty)
    }

    @Test func theWorkerTakesARefundBackBeforeTheGamePolls() async throws {
        let store = try await openStore()
        store.setDeductsRefundedConsumables(true)
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins", quantity: 2))
        guard case .granted(_, var transaction, _) = events.last else { Issue.record("\(events)"); return }
        transaction.revocationDate = Date()
        backend.send(.revoked(transaction))
        #expect(try await waitWithoutPolling { try store.balance(of: "coins") == 0 })
        #expect(try await store.pollUntil { _ in true } == [.revoked(transaction: transaction)])
        #expect(try store.balance(of: "coins") == 0)
    }

    /// Two coins granted in a launch that then closes, and the store's refunded copy of their transaction.
    func grantedTwoCoinsThenRefunded() async throws -> StoreTransaction {
        var bought: StoreTransaction?
        do {
            let store = try await openStore()
            let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins", quantity: 2))
            if case .granted(_, let transaction, _) = events.last { bought = transaction }
            store.close()
        }
        let refunded = try #require(bought).refunded()
        return refunded
    }

    /// A refund recorded before the first poll (the game may still set its refund rule) is taken back as its event
    /// is handed out, by the rule of that moment: the game's handler already sees the balance without it. Before,
    /// it was taken back only once the handler had returned (found by review).
    @Test func aRefundQueuedBeforeTheFirstPollFollowsTheRefundSettingOfThatPoll() async throws {
        let refunded = try await grantedTwoCoinsThenRefunded()
        let relaunchedBackend = ScriptedBackend()  // the first backend's updates ended with its store
        let relaunched = try PurchaseStore(backend: relaunchedBackend, stateDirectory: folder.state)
        defer { relaunched.close() }
        try relaunched.registerGrant(.currency("coins", amountPerUnit: 100), for: "coins")
        relaunchedBackend.send(.revoked(refunded))
        await relaunched.waitForEvents()  // queued before the game sets the refund rule
        relaunched.setDeductsRefundedConsumables(true)
        var balanceInHandler: [Int64] = []
        relaunched.poll { event in
            if event == .revoked(transaction: refunded) { balanceInHandler.append((try? relaunched.balance(of: "coins")) ?? -1) }
        }
        #expect(balanceInHandler == [0])
    }

    /// A refund whose handler never returns normally (it throws at every launch) is told again at each launch, but
    /// its grant is taken back once, as it is first handed out: the refunded coins are not spendable meanwhile.
    @Test func aRefundWhoseHandlerKeepsFailingIsTakenBackOnce() async throws {
        let refunded = try await grantedTwoCoinsThenRefunded()
        for _ in 0..<2 {
            let backend = ScriptedBackend()
            let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
            try store.registerGrant(.currency("coins", amountPerUnit: 100), for: "coins")
            store.setDeductsRefundedConsumables(true)
            backend.send(.revoked(refunded))  // a store reports refunds again at launch
            await store.waitForEvents()  // recorded (or told again) before the first poll
            var balanceInHandler: [Int64] = []
            struct GameFailed: Error {}
            do {
                for await event in store.events where event == .revoked(transaction: refunded) {
                    balanceInHandler.append(try store.balance(of: "coins"))
                    throw GameFailed()
                }
            } catch {}
            #expect(balanceInHandler == [0])
            store.close()
        }
        let journal = try SQLiteDatabase(path: try folder.state.file("journal.sqlite"), create: false)
        #expect(try journal.query("SELECT refund FROM transactions").first?.first?.integer == 0, "still to tell")
    }

    /// The ledger's journal holds what it granted for each transaction, so a refund is taken back in a launch where
    /// the game has not registered (or no longer registers) the product's grant, told once, and not again later.
    @Test(arguments: [false, true])
    func aRefundInALaunchWithNoGrantRegisteredIsTakenBackOnce(beforeFirstPoll: Bool) async throws {
        let refunded = try await grantedTwoCoinsThenRefunded()
        do {
            let backend = ScriptedBackend()
            let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)  // no grant registered
            store.setDeductsRefundedConsumables(true)
            if beforeFirstPoll {
                backend.send(.revoked(refunded))
                await store.waitForEvents()
            } else {
                #expect(await store.pollSettled().isEmpty)
                backend.send(.revoked(refunded))
            }
            #expect(try await store.pollUntil { _ in true } == [.revoked(transaction: refunded)])
            try await waitUntil { (try? store.balance(of: "coins")) == 0 }  // before the first poll: once told
            store.close()
        }
        let backend = ScriptedBackend()
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
        try store.registerGrant(.currency("coins", amountPerUnit: 100), for: "coins")
        store.setDeductsRefundedConsumables(true)
        backend.send(.revoked(refunded))  // a store reports refunds again at launch
        #expect(await store.pollSettled().isEmpty)
        #expect(try store.balance(of: "coins") == 0)
    }

    /// A store whose transaction ids restarted (the local store's database removed, the journal kept) charges a
    /// new purchase under the id of one the ledger granted before. The journal cannot tell them apart, so nothing is
    /// granted, and the request must not claim it was: it fails, saying why.
    @Test func aPaymentAnsweredWithAnIDGrantedBeforeIsNotToldGranted() async throws {
        do {
            let store = try await openStore()
            let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins"))
            guard case .granted = events.last else { Issue.record("\(events)"); return }
            store.close()
        }
        let restarted = ScriptedBackend()  // numbers transactions from the start again
        let store = try PurchaseStore(backend: restarted, stateDirectory: folder.state)
        try store.registerGrant(.currency("coins", amountPerUnit: 100), for: "coins")
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins"]))
        let request = try store.requestPayment(productID: "coins")
        let events = try await store.pollUntilTerminal(of: request)
        guard case .failed(request, "coins", let error) = events.last else { Issue.record("\(events)"); return }
        #expect(error.code == .wrongState)
        #expect(error.message.contains("granted already"), "\(error)")
        #expect(try store.balance(of: "coins") == 100)
    }

    @Test func spendingBelowZeroFailsAndChangesNothing() async throws {
        let store = try await openStore()
        _ = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins"))
        try store.spend(30, of: "coins")
        #expect(try store.balance(of: "coins") == 70)
        #expect(throws: StoreError(.insufficientBalance, "cannot spend 71 coins: the balance is 70")) {
            try store.spend(71, of: "coins")
        }
        #expect(throws: StoreError(.insufficientBalance, "cannot spend 1 gems: the balance is 0")) {
            try store.spend(1, of: "gems")
        }
        #expect(throws: StoreError.self) { try store.spend(0, of: "coins") }
        #expect(throws: StoreError.self) { try store.spend(-5, of: "coins") }
        #expect(try store.balance(of: "coins") == 70)
    }

    @Test func entitlementsFollowOwnershipAndRefunds() async throws {
        let store = try await openStore()
        #expect(try !store.hasEntitlement("pro"))
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "pro"))
        guard case .granted(_, var transaction, .entitlement("pro")) = events.last else { Issue.record("\(events)"); return }
        #expect(try store.hasEntitlement("pro"))
        #expect(try !store.hasEntitlement("vip"))
        transaction.revocationDate = Date()
        backend.send(.revoked(transaction))
        _ = try await store.pollUntil { _ in true }
        #expect(try !store.hasEntitlement("pro"))
    }

    @Test func refundsDeductCurrencyOnlyWhenAskedAndOnlyOnce() async throws {
        let store = try await openStore()
        var bought: [StoreTransaction] = []
        for _ in 0..<2 {
            let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins", quantity: 2))
            if case .granted(_, let transaction, _) = events.last { bought.append(transaction) }
        }
        #expect(try store.balance(of: "coins") == 400)
        let first = bought[0].refunded()
        backend.send(.revoked(first))
        _ = try await store.pollUntil { _ in true }
        #expect(try store.balance(of: "coins") == 400)  // reported, not deducted: the option is off

        store.setDeductsRefundedConsumables(true)
        let second = bought[1].refunded()
        try store.spend(300, of: "coins")
        backend.send(.revoked(second))
        backend.send(.revoked(second))
        _ = try await store.pollUntil { _ in true }
        _ = await store.pollSettled()
        #expect(try store.balance(of: "coins") == 0)  // 100 left, 200 refunded: taken back down to zero
    }

    @Test func badGrantsAreRefused() async throws {
        let store = try await openStore(coins: false)
        #expect(throws: StoreError.self) { try store.registerGrant(.currency("coins", amountPerUnit: 0), for: "coins") }
        #expect(throws: StoreError.self) { try store.registerGrant(.currency("coins", amountPerUnit: -1), for: "coins") }
        #expect(throws: StoreError.self) {
            try store.registerGrant(.currency("coins", amountPerUnit: Grant.maximumAmountPerUnit + 1), for: "coins")
        }
        #expect(throws: StoreError.self) { try store.registerGrant(.currency("", amountPerUnit: 1), for: "coins") }
        #expect(throws: StoreError.self) { try store.registerGrant(.entitlement(""), for: "pro") }
        #expect(throws: StoreError.self) { try store.registerGrant(.entitlement("pro"), for: "") }
        // Nothing was registered: purchases stay for the game to grant.
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins"))
        guard case .purchased = events.last else { Issue.record("\(events)"); return }
    }

    @Test func aQuantityOutsideOneToTenIsRefusedNotGrantedAndNeverTraps() async throws {
        let store = try await openStore()
        for quantity in [Int.max, Int(Int32.max) + 1, 1_000_000, 0, -5] {
            let huge = backend.makeTransaction("coins", quantity: quantity)
            backend.scriptPurchases(.success(.purchased(huge)))
            let request = try store.requestPayment(productID: "coins")
            let events = try await store.pollUntilTerminal(of: request)
            guard case .failed(request, "coins", let error) = events.last else { Issue.record("\(events)"); continue }
            #expect(error.code == .quantityOutOfRange && error.message.contains("refused"), "\(error)")
            #expect(try store.unfinishedTransactions().contains(huge))  // not finished: nothing lost
        }
        #expect(try store.balance(of: "coins") == 0)
    }

    @Test func aGrantThatWouldOverflowTheBalanceIsRefusedAndChangesNothing() async throws {
        var store: PurchaseStore? = try await openStore()
        _ = try await store!.pollUntilTerminal(of: try store!.requestPayment(productID: "coins"))
        store?.close()
        store = nil
        let nearlyFull = Int64.max - 50
        try SQLiteDatabase(path: try folder.state.file("journal.sqlite"), create: false)
            .query("UPDATE balances SET amount = ? WHERE currency = 'coins'", [.integer(nearlyFull)])
        let reopened = try await openStore()
        let request = try reopened.requestPayment(productID: "coins")
        let events = try await reopened.pollUntilTerminal(of: request)
        guard case .failed(request, "coins", let error) = events.last else { Issue.record("\(events)"); return }
        #expect(error.message.contains("past \(Int64.max)"), "\(error)")
        #expect(try reopened.balance(of: "coins") == nearlyFull)
        #expect(try reopened.unfinishedTransactions().count == 1)
    }

    @Test func aRefusedGrantWithoutARequestReachesTheGameAsAPlainPurchase() async throws {
        let store = try await openStore()
        let eleven = backend.makeTransaction("coins", quantity: 11)
        backend.send(.purchased(eleven))
        #expect(try await store.pollUntil { _ in true } == [.purchased(requestID: nil, transaction: eleven)])
        #expect(try store.balance(of: "coins") == 0 && store.unfinishedTransactions() == [eleven])
    }
}
