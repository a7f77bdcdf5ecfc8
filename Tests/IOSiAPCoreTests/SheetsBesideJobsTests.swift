import Foundation
@testable import IOSiAPCore
import IOSiAPTestSupport
import Testing

/// A refund request or manage subscriptions sheet may stay open for as long as the user reads it: it holds
/// up neither the store's other work (payments' verifications share a limit of four) nor close.
@Suite struct SheetsBesideJobsTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    @Test func closingWithASheetOpenEndsTheWorkerAtOnceAndTellsNothingMore() async throws {
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
        backend.holdSheets()
        try store.showManageSubscriptions()
        _ = try store.beginRefundRequest(transactionID: 7)
        try await waitUntil { backend.openSheets == 2 }
        #expect(await store.closeAndWaitForWorker(timeout: .seconds(2)))
        backend.closeSheets()
        try await waitUntil { backend.closedSheets == 2 }  // the sheets' tasks go on after close: they tell nothing
        var told: [StoreEvent] = []
        store.poll { told.append($0) }
        #expect(told.isEmpty)
    }

    @Test func openSheetsLeaveTheVerificationsOfPaymentsTheirTurn() async throws {
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: ScriptedVerifier())
        defer { store.close() }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins"]))
        backend.holdSheets()
        for id in 1...3 { _ = try store.beginRefundRequest(transactionID: UInt64(id)) }
        try store.showManageSubscriptions()
        try await waitUntil { backend.openSheets == 4 }
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins"))
        guard case .purchased = events.last else { Issue.record("\(events)"); return }
        // A fifth sheet opens too, and each sheet still ends in its event once the user closes it.
        try store.showManageSubscriptions()
        try await waitUntil { backend.openSheets == 5 }
        backend.closeSheets()
        var sheetsClosed = 0
        _ = try await store.pollUntil { event in
            switch event {
            case .manageSubscriptionsClosed, .refundRequestFinished: sheetsClosed += 1
            default: break
            }
            return sheetsClosed == 5
        }
    }
}
