import Foundation
import IOSiAPCore
import IOSiAPTestSupport
import Testing

@Suite struct PurchaseStoreTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    func openStore() throws -> PurchaseStore {
        try PurchaseStore(backend: backend, stateDirectory: folder.state)
    }

    /// Opens a store and loads the sample products, as a game does before it sells anything.
    func openLoadedStore() async throws -> PurchaseStore {
        let store = try openStore()
        let request = try store.requestProducts(["coins", "pro", "monthly"])
        _ = try await store.pollUntilTerminal(of: request)
        return store
    }

    // MARK: Products

    @Test func productsRequestReportsFoundAndInvalidIDsEachOnce() async throws {
        let store = try openStore()
        let request = try store.requestProducts(["pro", "nope", "coins", "pro", "nope"])
        let events = try await store.pollUntilTerminal(of: request)
        guard case .productsReceived(let id, let products, let invalid) = events.last else {
            Issue.record("expected products, got \(events)"); return
        }
        #expect(id == request)
        #expect(products.map(\.id) == ["pro", "coins"])
        #expect(invalid == ["nope"])
        #expect(store.product(id: "coins")?.displayPrice == "$0.99")
    }

    @Test func aFailingProductsRequestEndsInProductsFailed() async throws {
        backend.failProducts(with: StoreError(.storeUnreachable, "offline"))
        let store = try openStore()
        let request = try store.requestProducts(["coins"])
        let events = try await store.pollUntilTerminal(of: request)
        #expect(events == [.productsFailed(requestID: request, error: StoreError(.storeUnreachable, "offline"))])
    }

    @Test func badProductIDsAreRefusedBeforeAnyRequest() throws {
        let store = try openStore()
        #expect(throws: StoreError(.invalidArgument, "no product ids to request")) { try store.requestProducts([]) }
        #expect(throws: StoreError(.invalidArgument, "product id is empty")) { try store.requestProducts(["coins", ""]) }
        let long = String(repeating: "x", count: 256)
        #expect((try? store.requestProducts([long])) == nil)
        #expect(throws: StoreError.self) { try store.requestProducts(["a\u{0}b"]) }
    }

    // MARK: Payments

    @Test func aPurchaseIsPurchasingThenPurchasedAndJournaledUnfinished() async throws {
        let store = try await openLoadedStore()
        let token = UUID()
        let request = try store.requestPayment(productID: "coins", quantity: 3, appAccountToken: token)
        let events = try await store.pollUntilTerminal(of: request)
        #expect(events.count == 2)
        #expect(events.first == .purchasing(requestID: request, productID: "coins", quantity: 3))
        guard case .purchased(request, let transaction) = events.last else { Issue.record("\(events)"); return }
        #expect(transaction.quantity == 3)
        #expect(transaction.appAccountToken == token)
        #expect(try store.unfinishedTransactions() == [transaction])
    }

    @Test func aCancelledPaymentIsCancelledNotFailed() async throws {
        backend.scriptPurchases(.success(.cancelled))
        let store = try await openLoadedStore()
        let request = try store.requestPayment(productID: "pro")
        let events = try await store.pollUntilTerminal(of: request)
        #expect(events == [.purchasing(requestID: request, productID: "pro", quantity: 1),
                           .cancelled(requestID: request, productID: "pro")])
    }

    @Test func aFailedPaymentCarriesTheStoreError() async throws {
        backend.scriptPurchases(.failure(StoreError(.paymentNotAllowed)))
        let store = try await openLoadedStore()
        let request = try store.requestPayment(productID: "pro")
        let events = try await store.pollUntilTerminal(of: request)
        #expect(events.last == .failed(requestID: request, productID: "pro", error: StoreError(.paymentNotAllowed)))
        #expect(try store.unfinishedTransactions().isEmpty)
    }

    @Test func aDeferredPaymentEndsThenTheApprovalArrivesAsAPurchase() async throws {
        backend.scriptPurchases(.success(.deferred))
        let store = try await openLoadedStore()
        let request = try store.requestPayment(productID: "pro")
        let events = try await store.pollUntilTerminal(of: request)
        #expect(events.last == .deferred(requestID: request, productID: "pro"))

        let approved = backend.makeTransaction("pro")
        backend.send(.purchased(approved))
        let later = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        #expect(later == [.purchased(requestID: nil, transaction: approved)])
    }

    @Test func aDeclinedAskToBuyIsReported() async throws {
        backend.scriptPurchases(.success(.deferred))
        let store = try await openLoadedStore()
        _ = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "pro"))
        backend.send(.declined(productID: "pro"))
        #expect(try await store.pollUntil { _ in true } == [.declined(productID: "pro")])
    }

    @Test func quantityMustBeOneToTen() async throws {
        let store = try await openLoadedStore()
        for quantity in [0, -1, 11, 1000] {
            #expect(throws: StoreError(.quantityOutOfRange, "quantity \(quantity) is outside 1...10")) {
                try store.requestPayment(productID: "coins", quantity: quantity)
            }
        }
        for quantity in [1, 10] {
            let request = try store.requestPayment(productID: "coins", quantity: quantity)
            let events = try await store.pollUntilTerminal(of: request)
            guard case .purchased(_, let transaction) = events.last else { Issue.record("\(events)"); continue }
            #expect(transaction.quantity == quantity)
        }
        #expect(backend.charged.map(\.quantity) == [1, 10])
    }

    @Test func onlyConsumablesMayBeBoughtSeveralAtATime() async throws {
        let store = try await openLoadedStore()
        for product in ["pro", "monthly"] {
            #expect(throws: StoreError.self) { try store.requestPayment(productID: product, quantity: 2) }
        }
        let error = try #require(throws: StoreError.self) { try store.requestPayment(productID: "pro", quantity: 2) }
        #expect(error.code == .quantityNotAllowedForProductType)
        #expect(backend.charged.isEmpty)
    }

    @Test func aProductNotLoadedIsAnUnknownProduct() throws {
        let store = try openStore()
        let error = try #require(throws: StoreError.self) { try store.requestPayment(productID: "coins") }
        #expect(error.code == .unknownProduct)
        #expect(error.message.contains("'coins'"))
        #expect(backend.charged.isEmpty)
    }

    // MARK: Restore

    @Test func restoreWithNothingToRestoreStillFinishes() async throws {
        let store = try openStore()
        let request = try store.requestRestore()
        let events = try await store.pollUntilTerminal(of: request)
        #expect(events == [.restoreFinished(requestID: request, result: .success(0))])
    }

    @Test func restoreReportsEachOwnedTransactionThenFinishes() async throws {
        let store = try await openLoadedStore()
        for product in ["coins", "pro", "monthly"] {
            _ = try await store.pollUntilTerminal(of: try store.requestPayment(productID: product))
        }
        let request = try store.requestRestore()
        let events = try await store.pollUntilTerminal(of: request)
        let restored = events.compactMap { event -> String? in
            if case .restored(request, let transaction) = event { transaction.productID } else { nil }
        }
        #expect(restored == ["pro", "monthly"])
        #expect(events.last == .restoreFinished(requestID: request, result: .success(2)))
    }

    @Test func aFailingRestoreEndsInOneFailedRestoreFinished() async throws {
        backend.scriptRestore(.failure(StoreError(.cloudServiceNetworkConnectionFailed)))
        let store = try openStore()
        let request = try store.requestRestore()
        let events = try await store.pollUntilTerminal(of: request)
        #expect(events == [.restoreFinished(requestID: request, result: .failure(StoreError(.cloudServiceNetworkConnectionFailed)))])
        #expect(await store.pollSettled().isEmpty)
    }

    // MARK: Finish and redelivery

    @Test func finishIsIdempotentAndUnknownIDsAreAnError() async throws {
        let store = try await openLoadedStore()
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins"))
        guard case .purchased(_, let transaction) = events.last else { Issue.record("\(events)"); return }
        try store.finish(transactionID: transaction.id)
        try store.finish(transactionID: transaction.id)
        #expect(try store.unfinishedTransactions().isEmpty)
        #expect(throws: StoreError(.unknownTransaction, "no transaction with id 999999 was delivered to this app")) {
            try store.finish(transactionID: 999_999)
        }
        _ = await store.pollSettled()
        #expect(backend.finishedIDs == [transaction.id])
    }

    @Test func unfinishedTransactionsAreDeliveredAgainAtTheNextLaunchOnce() async throws {
        var first: StoreTransaction?
        var second: StoreTransaction?
        do {
            let store = try await openLoadedStore()
            for product in ["coins", "pro"] {
                let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: product))
                if case .purchased(_, let transaction) = events.last {
                    if first == nil { first = transaction } else { second = transaction }
                }
            }
            try store.finish(transactionID: try #require(first).id)
            store.close()
        }
        let relaunched = try openStore()
        let redelivered = try await relaunched.pollUntil { if case .purchased = $0 { true } else { false } }
        #expect(redelivered == [.purchased(requestID: nil, transaction: try #require(second))])
        #expect(await relaunched.pollSettled().isEmpty)  // and the finished one is not
    }

    @Test func whatTheStoreHoldsUnfinishedButTheJournalLacksIsDelivered() async throws {
        let lost = backend.makeTransaction("coins", quantity: 2)
        backend.holdUnfinished([lost])
        let store = try openStore()
        let events = try await store.pollUntil { _ in true }
        #expect(events == [.purchased(requestID: nil, transaction: lost)])
        #expect(await store.pollSettled().isEmpty)
    }

    @Test func aFinishedTransactionTheStoreRepeatsIsNotGrantedAgain() async throws {
        let store = try await openLoadedStore()
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "pro"))
        guard case .purchased(_, let transaction) = events.last else { Issue.record("\(events)"); return }
        try store.finish(transactionID: transaction.id)
        backend.send(.purchased(transaction))
        #expect(await store.pollSettled().isEmpty)
    }

    // MARK: Opening

    @Test func anOpenRefusedBecauseAnotherStoreHoldsTheDirectoryNeverMakesItsBackend() throws {
        let holder = try openStore()
        defer { holder.close() }
        let madeBackend = Locked(false)
        #expect(throws: StoreError.self) {
            _ = try PurchaseStore(stateDirectory: folder.state) { () throws(StoreError) in
                madeBackend.withLock { $0 = true }
                return (ScriptedBackend(), nil)
            }
        }
        #expect(madeBackend.withLock { $0 } == false)
    }

    @Test func aBackendThatFailsToOpenLetsTheDirectoryGo() throws {
        let failure = StoreError(.storageFailure, "the backend's state is damaged")
        #expect(throws: failure) {
            _ = try PurchaseStore(stateDirectory: folder.state) { () throws(StoreError) in throw failure }
        }
        let store = try openStore()
        #expect(store.isOpen)
        store.close()
    }

    // MARK: Entitlements, revocation, closing

    @Test func entitlementsFollowPurchasesAndRevocations() async throws {
        let store = try await openLoadedStore()
        var bought: [StoreTransaction] = []
        for product in ["coins", "pro", "monthly"] {
            let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: product))
            if case .purchased(_, let transaction) = events.last { bought.append(transaction) }
        }
        #expect(try store.currentEntitlements().map(\.productID) == ["pro", "monthly"])
        #expect(try store.isEntitled(to: "pro"))
        #expect(try !store.isEntitled(to: "coins"))

        let refunded = bought[1].refunded(.refundedDueToIssue)
        backend.send(.revoked(refunded))
        #expect(try await store.pollUntil { _ in true } == [.revoked(transaction: refunded)])
        #expect(try store.currentEntitlements().map(\.productID) == ["monthly"])
    }

    @Test func aRevocationIsNeverRedeliveredAsAPurchase() async throws {
        let revoked = backend.makeTransaction("pro").refunded(.refundedForOtherReason)
        do {
            let store = try openStore()
            backend.send(.revoked(revoked))
            #expect(try await store.pollUntil { _ in true } == [.revoked(transaction: revoked)])
            #expect(try store.unfinishedTransactions().isEmpty)
            store.close()
        }
        let relaunched = try openStore()
        #expect(await relaunched.pollSettled().isEmpty)
    }

    @Test func aChargeTheJournalCannotWriteIsReportedAndDeliveredAtTheNextLaunch() async throws {
        do {
            let store = try await openLoadedStore()
            let blocker = try SQLiteDatabase(path: try folder.state.file("journal.sqlite"))
            try blocker.execute("BEGIN EXCLUSIVE")
            let request = try store.requestPayment(productID: "coins", quantity: 2)
            let events = try await store.pollUntilTerminal(of: request)
            guard case .failed(request, "coins", let error) = events.last else { Issue.record("\(events)"); return }
            #expect(error.code == .storageFailure)
            #expect(error.message.contains("delivered again at the next launch"))
            try blocker.execute("ROLLBACK")
            store.close()
        }
        let charged = try #require(backend.charged.first)
        let relaunched = try openStore()
        #expect(try await relaunched.pollUntil { _ in true } == [.purchased(requestID: nil, transaction: charged)])
    }

    @Test func aSecondStoreOnTheSameDirectoryIsRefusedUntilTheFirstCloses() throws {
        let first = try openStore()
        let error = try #require(throws: StoreError.self) { try openStore() }
        #expect(error.code == .stateDirectoryInUse)
        // It names the directory, not the lock file inside it.
        #expect(error.message.contains("the state directory \(folder.url.path) is used by another open store"), "\(error.message)")
        first.close()
        let second = try openStore()
        #expect(second.isOpen)
    }

    @Test func aClosedStoreRefusesRequests() throws {
        let store = try openStore()
        store.close()
        store.close()
        #expect(!store.isOpen)
        #expect(throws: StoreError(.storeNotOpen, "the store was closed")) { try store.requestRestore() }
        #expect(throws: StoreError(.storeNotOpen, "the store was closed")) { try store.requestProducts(["coins"]) }
        #expect(throws: StoreError(.storeNotOpen, "the store was closed")) { try store.finish(transactionID: 1) }
    }

    @Test func theAsyncSequenceDeliversTheSameEvents() async throws {
        let store = try openStore()
        let request = try store.requestRestore()
        var iterator = store.events.makeAsyncIterator()
        #expect(await iterator.next() == .restoreFinished(requestID: request, result: .success(0)))
        store.close()
        #expect(await iterator.next() == nil)
    }

    @Test func closingCanWaitUntilTheWorkerThreadHasEnded() async throws {
        let store = try openStore()
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins"]))
        _ = try store.requestPayment(productID: "coins")  // work in flight when the store closes
        #expect(await store.closeAndWaitForWorker(timeout: .seconds(10)))
        #expect(!store.isOpen)
        #expect(await store.closeAndWaitForWorker(timeout: .seconds(1)))  // it ended: nothing to wait for
        store.close()  // and closing again does nothing
    }

    @Test func afterCloseTheLedgerAndEntitlementsAnswerStoreNotOpen() async throws {
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
        try store.registerGrant(.currency("coins", amountPerUnit: 100), for: "coins")
        try store.registerGrant(.entitlement("pro"), for: "pro")
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins", "pro"]))
        _ = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins", quantity: 3))
        #expect(try store.balance(of: "coins") == 300)
        store.close()
        // Another store owns the directory now: the closed one must not spend from it, nor read it.
        let other = try PurchaseStore(backend: backend, stateDirectory: folder.state)
        defer { other.close() }
        func code(_ call: () throws -> Void) -> StoreErrorCode? {
            do { try call(); return nil } catch { return (error as? StoreError)?.code }
        }
        #expect(code { try store.spend(100, of: "coins") } == .storeNotOpen)
        #expect(code { _ = try store.balance(of: "coins") } == .storeNotOpen)
        #expect(code { _ = try store.hasEntitlement("pro") } == .storeNotOpen)
        #expect(code { _ = try store.currentEntitlements() } == .storeNotOpen)
        #expect(code { _ = try store.isEntitled(to: "pro") } == .storeNotOpen)
        #expect(code { _ = try store.unfinishedTransactions() } == .storeNotOpen)
        #expect(try other.balance(of: "coins") == 300)
        do {
            _ = try await store.storefront()
            Issue.record("storefront after close")
        } catch { #expect(error.code == .storeNotOpen) }
        do {
            _ = try await store.subscriptionStatus(groupID: "club")
            Issue.record("subscription status after close")
        } catch { #expect(error.code == .storeNotOpen) }
    }
}
