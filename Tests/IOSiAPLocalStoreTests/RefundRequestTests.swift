import Foundation
import IOSiAPCore
@testable import IOSiAPLocalStore
import IOSiAPTestSupport
import Testing

/// Refund requests and the manage subscriptions sheet through the local store, as a game sees them: the request
/// waits pending in the state directory until the transaction manager approves (a `revoked` event) or declines it.
@Suite struct RefundRequestTests {
    let folder = TemporaryDirectory()
    static let prefix = "com.iosiap.example."

    func open() throws -> (LocalStore, PurchaseStore) {
        let local = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state,
                                   bundleID: "com.iosiap.example")
        return (local, try PurchaseStore(backend: local, stateDirectory: folder.state))
    }

    /// Another process on the same state directory: the transaction manager.
    func manager() throws -> LocalStore {
        try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state,
                       bundleID: "com.iosiap.example")
    }

    func buy(_ store: PurchaseStore, _ product: String) async throws -> StoreTransaction {
        _ = try await store.pollUntilTerminal(of: try store.requestProducts([Self.prefix + product]))
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: Self.prefix + product))
        guard case .purchased(_, let transaction) = events.last else { throw EventTimeout(description: "\(events)") }
        try store.finish(transactionID: transaction.id)
        return transaction
    }

    /// The one event that ends refund request `id`, and that nothing else came with it.
    func refundResult(_ store: PurchaseStore, _ id: RequestID) async throws -> (UInt64, Result<RefundRequestOutcome, StoreError>) {
        let events = try await store.pollUntilTerminal(of: id)
        #expect(events.count == 1, "\(events)")
        guard case .refundRequestFinished(id, let transactionID, let result) = events.last else {
            throw EventTimeout(description: "\(events)")
        }
        return (transactionID, result)
    }

    @Test func aSubmittedRequestWaitsPendingAndItsApprovalReachesTheGameAsRevoked() async throws {
        let (local, store) = try open()
        defer { store.close() }
        let pro = try await buy(store, "pro_upgrade")
        let (id, result) = try await refundResult(store, try store.beginRefundRequest(transactionID: pro.id))
        #expect(id == pro.id)
        #expect(result == .success(.submitted))
        #expect(try local.refundRequests().map(\.transactionID) == [pro.id])
        #expect(try local.refundRequests().first?.state == .pending)
        // Still owned until Apple (here QA) decides.
        #expect(try store.isEntitled(to: Self.prefix + "pro_upgrade"))

        let approved = try manager()
        let refunded = try approved.approveRefundRequest(transactionID: pro.id)
        approved.close()
        #expect(refunded.isRevoked)
        let events = try await store.pollUntil { if case .revoked = $0 { true } else { false } }
        guard case .revoked(let transaction) = events.last else { throw EventTimeout(description: "\(events)") }
        #expect(transaction.id == pro.id)
        #expect(try !store.isEntitled(to: Self.prefix + "pro_upgrade"))
        #expect(try local.refundRequests().first?.state == .approved)
    }

    @Test func aDeclinedRequestChangesNothingTheGameOwns() async throws {
        let (local, store) = try open()
        defer { store.close() }
        let pro = try await buy(store, "pro_upgrade")
        #expect(try await refundResult(store, try store.beginRefundRequest(transactionID: pro.id)).1 == .success(.submitted))
        try local.declineRefundRequest(transactionID: pro.id)
        #expect(try local.refundRequests().first?.state == .declined)
        #expect(await store.pollSettled(after: local).isEmpty)
        #expect(try store.isEntitled(to: Self.prefix + "pro_upgrade"))
        // Resolved: neither decision applies to it again.
        #expect(throws: StoreError.self) { try local.approveRefundRequest(transactionID: pro.id) }
        #expect(throws: StoreError.self) { try local.declineRefundRequest(transactionID: pro.id) }
        // A declined request may be made again.
        #expect(try await refundResult(store, try store.beginRefundRequest(transactionID: pro.id)).1 == .success(.submitted))
    }

    @Test func aSecondRequestWhileOneIsPendingOrAfterTheRefundIsADuplicate() async throws {
        let (local, store) = try open()
        defer { store.close() }
        let pro = try await buy(store, "pro_upgrade")
        _ = try await refundResult(store, try store.beginRefundRequest(transactionID: pro.id))
        let pending = try await refundResult(store, try store.beginRefundRequest(transactionID: pro.id)).1
        #expect(pending.failure?.code == .duplicateRefundRequest)
        #expect(pending.failure?.message.contains("pending") == true)
        _ = try local.approveRefundRequest(transactionID: pro.id)
        _ = try await store.pollUntil { if case .revoked = $0 { true } else { false } }
        let refunded = try await refundResult(store, try store.beginRefundRequest(transactionID: pro.id)).1
        #expect(refunded.failure?.code == .duplicateRefundRequest)
        #expect(refunded.failure?.message.contains("refunded") == true)
        #expect(try local.refundRequests().count == 1)
    }

    @Test func aRefundMadeAnotherWayResolvesThePendingRequestInTheSameCommit() async throws {
        let (local, store) = try open()
        defer { store.close() }
        let pro = try await buy(store, "pro_upgrade")
        _ = try await refundResult(store, try store.beginRefundRequest(transactionID: pro.id))
        let refunding = try manager()  // QA's plain refund, from another process
        try refunding.refund(transactionID: pro.id)
        refunding.close()
        let requests = try local.refundRequests()
        #expect(requests.map(\.state) == [.approved] && requests.first?.resolutionDate != nil)
        // Nothing is left to decide: a refunded purchase is never recorded declined.
        #expect(throws: StoreError.self) { try local.approveRefundRequest(transactionID: pro.id) }
        #expect(throws: StoreError.self) { try local.declineRefundRequest(transactionID: pro.id) }
        #expect(try local.refundRequests().map(\.state) == [.approved])
    }

    @Test func aTransactionTheStoreNeverChargedFailsAsUnknown() async throws {
        let (local, store) = try open()
        defer { store.close() }
        let result = try await refundResult(store, try store.beginRefundRequest(transactionID: 424_242)).1
        #expect(result.failure?.code == .unknownTransaction)
        #expect(try local.refundRequests().isEmpty)
        // Transaction id 0 is never a transaction: refused before anything is queued.
        #expect(throws: StoreError.self) { try store.beginRefundRequest(transactionID: 0) }
    }

    @Test func theSimulatedErrorFailsTheRequestAndRecordsNothing() async throws {
        let (local, store) = try open()
        defer { store.close() }
        let pro = try await buy(store, "pro_upgrade")
        try local.setSimulatedError(.storeUnreachable, for: .refundRequest)
        let result = try await refundResult(store, try store.beginRefundRequest(transactionID: pro.id)).1
        #expect(result.failure?.code == .storeUnreachable)
        #expect(try local.refundRequests().isEmpty)
    }

    @Test func theUserClosingTheSheetIsCancelledNotFailed() async throws {
        let (local, store) = try open()
        defer { store.close() }
        let pro = try await buy(store, "pro_upgrade")
        try local.setPurchaseDialogResponse(.cancel)
        #expect(try await refundResult(store, try store.beginRefundRequest(transactionID: pro.id)).1 == .success(.cancelled))
        #expect(try local.refundRequests().isEmpty)
    }

    @Test func aRequestPendingAcrossARelaunchApprovedWhileTheGameIsClosedIsRevokedAtTheNextLaunch() async throws {
        var pro: StoreTransaction
        do {
            let (_, store) = try open()
            pro = try await buy(store, "pro_upgrade")
            _ = try await refundResult(store, try store.beginRefundRequest(transactionID: pro.id))
            store.close()
        }
        do {
            // Relaunched: the request is still pending, and a second one is still a duplicate.
            let (local, store) = try open()
            #expect(try local.refundRequests().map(\.state) == [.pending])
            let again = try await refundResult(store, try store.beginRefundRequest(transactionID: pro.id)).1
            #expect(again.failure?.code == .duplicateRefundRequest)
            store.close()
        }
        let approving = try manager()
        _ = try approving.approveRefundRequest(transactionID: pro.id)
        approving.close()
        let (_, store) = try open()
        defer { store.close() }
        let events = try await store.pollUntil { if case .revoked = $0 { true } else { false } }
        guard case .revoked(let transaction) = events.last else { throw EventTimeout(description: "\(events)") }
        #expect(transaction.id == pro.id)
        #expect(try !store.isEntitled(to: Self.prefix + "pro_upgrade"))
    }

    @Test func lookingAtRequestsAndTheSheetsRecordWritesNothing() throws {
        // The transaction manager's page reads them twice a second while a game writes: reads take no write lock.
        let local = try manager()
        defer { local.close() }
        #expect(try local.refundRequests().isEmpty)
        #expect(try local.manageSubscriptionsShown().count == 0)
        #expect(throws: StoreError.self) { try local.declineRefundRequest(transactionID: 1) }
        try local.clearTransactions()
        let database = try SQLiteDatabase(path: folder.state.file("localstore.sqlite"), create: false)
        #expect(try database.query("SELECT name FROM sqlite_master WHERE name IN ('refund_requests', 'manage_subscriptions_shown')").isEmpty)
    }

    @Test func theManageSubscriptionsSheetIsRecordedAndItsClosingToldAtOnce() async throws {
        let (local, store) = try open()
        defer { store.close() }
        #expect(try local.manageSubscriptionsShown().count == 0)
        let first = try store.showManageSubscriptions()
        let events = try await store.pollUntil { if case .manageSubscriptionsClosed = $0 { true } else { false } }
        #expect(events == [.manageSubscriptionsClosed(requestID: first, error: nil)])
        let shown = try local.manageSubscriptionsShown()
        #expect(shown.count == 1)
        #expect(shown.last != nil)
        // Its simulated error: the sheet never opened, and the game hears why, for this request (two sheets are
        // told apart by their request ids).
        try local.setSimulatedError(.systemError, for: .manageSubscriptions)
        let second = try store.showManageSubscriptions()
        #expect(second != first)
        let failed = try await store.pollUntilTerminal(of: second)
        guard case .manageSubscriptionsClosed(second, let error) = failed.last else { throw EventTimeout(description: "\(failed)") }
        #expect(error?.code == .systemError)
        #expect(try local.manageSubscriptionsShown().count == 1)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
