#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// Refunds: the refund request sheet, its requests approved or declined, and refunds made by the controls.
extension LocalStore {
    /// Plays the refund request sheet: the request is recorded pending in the state directory (it survives
    /// relaunches) until `approveRefundRequest` or `declineRefundRequest` (`iosiap-store approve-refund`,
    /// `decline-refund`). The user closes the sheet without sending it when the purchase dialog answers cancel;
    /// the Refund Request Sheet simulated error fails it. A transaction this store never charged fails with
    /// `unknownTransaction`, one refunded or with a request pending with `duplicateRefundRequest`.
    public func beginRefundRequest(transactionID: UInt64, uiContext: UIContext?) async throws(StoreError) -> RefundRequestOutcome {
        let settings = try currentSettings()
        try failIfSimulated(.refundRequest, settings)
        return try state.withLock { state throws(StoreError) in
            guard try state.transaction(id: transactionID) != nil else {
                throw StoreError(.unknownTransaction, "the local store never charged transaction \(transactionID)")
            }
            if settings.purchaseDialogResponse == .cancel { return .cancelled }
            try LocalCustomerSheets.addRefundRequest(for: transactionID, at: now(), in: state)
            return .submitted
        }
    }

    /// Every refund request the game made, oldest first (`iosiap-store refund-requests`).
    public func refundRequests() throws(StoreError) -> [RefundRequest] {
        try state.withLock { state throws(StoreError) in try LocalCustomerSheets.refundRequests(in: state.database) }
    }

    /// Refunds a transaction (SKTestSession `refundTransaction(identifier:)`): it is revoked now, the game
    /// receives a `revoked` update and loses what it entitled.
    @discardableResult
    public func refund(transactionID: UInt64, reason: RevocationReason = .refundedForOtherReason) throws(StoreError) -> StoreTransaction {
        try refund(transactionID, reason: reason) { _ throws(StoreError) in }
    }

    /// Approves the pending refund request for a transaction (`iosiap-store approve-refund`): it is refunded now,
    /// in the same commit, and the game receives `revoked` (a game closed now receives it at its next launch).
    @discardableResult
    public func approveRefundRequest(transactionID: UInt64, reason: RevocationReason = .refundedForOtherReason) throws(StoreError) -> StoreTransaction {
        try refund(transactionID, reason: reason) { state throws(StoreError) in
            try LocalCustomerSheets.resolveRefundRequest(for: transactionID, as: .approved, at: now(), in: state.database)
        }
    }

    /// Declines the pending refund request for a transaction (`iosiap-store decline-refund`): the transaction
    /// stays as it was and the game hears nothing, as from the App Store.
    public func declineRefundRequest(transactionID: UInt64) throws(StoreError) {
        try state.withLock { state throws(StoreError) in
            try LocalCustomerSheets.resolveRefundRequest(for: transactionID, as: .declined, at: now(), in: state.database)
        }
    }

    /// Refunds a transaction, and does `alongside` in the same commit. A refund request still pending for it
    /// (a refund made another way: `refund`, the end of Family Sharing) is approved in that commit too: nothing
    /// is left to decide, and it is never declined after the refund.
    func refund(_ transactionID: UInt64, reason: RevocationReason,
                alongside: (LocalStoreState) throws(StoreError) -> Void) throws(StoreError) -> StoreTransaction {
        let settings = try currentSettings()
        let transaction = try state.withLock { state throws(StoreError) in
            try state.database.transaction { () throws(StoreError) in
                try alongside(state)
                try LocalCustomerSheets.resolvePendingRefundRequest(for: transactionID, as: .approved, at: now(), in: state.database)
                // The App Store re-signs a refunded transaction: its payload now carries the revocation.
                return try sign(try state.revoke(transactionID, reason: reason, at: now()), settings, in: state)
            }
        }
        updateSink.yield(.revoked(transaction))
        return transaction
    }
}
