#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// A refund the simulated user asked for from the game (StoreKit: `Transaction.beginRefundRequest`), waiting
/// for the App Store's decision, which QA plays (`iosiap-store approve-refund`, `decline-refund`).
public struct RefundRequest: Sendable, Equatable {
    /// Where it stands.
    public enum State: String, Sendable {
        /// Waiting for a decision.
        case pending
        /// Refunded: the game received `revoked`.
        case approved
        /// Refused: the transaction stays as it was.
        case declined
    }

    public let id: Int64
    public let transactionID: UInt64
    public let productID: String
    public let state: State
    /// When the user sent it.
    public let requestDate: Date
    /// When it was approved or declined.
    public let resolutionDate: Date?
}

/// The refund requests and the calls of the manage subscriptions sheet, in tables of their own in
/// `localstore.sqlite`, created on first use (as `LocalAppTransaction`'s): they survive relaunches, and every
/// process on the state directory (the game, the transaction manager) sees the same ones. Reads never write:
/// without the tables (nothing recorded yet) they find nothing, so the page's twice-a-second look takes no
/// write lock from a running game.
enum LocalCustomerSheets {
    private static let createTables = """
        CREATE TABLE IF NOT EXISTS refund_requests (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            transaction_id INTEGER NOT NULL,
            product_id TEXT NOT NULL,
            state TEXT NOT NULL,
            requested REAL NOT NULL,
            resolved REAL
        );
        CREATE TABLE IF NOT EXISTS manage_subscriptions_shown (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            shown REAL NOT NULL
        );
        """

    /// Records a pending request for transaction `transactionID`, as the App Store accepts one: refused as a
    /// duplicate when the transaction was refunded or already has a request pending, and when a family member
    /// bought it (only the purchaser may ask). The transaction is read inside the write transaction, so a refund
    /// another process commits meanwhile is seen, never left with a request pending after it.
    static func addRefundRequest(for transactionID: UInt64, at date: Date, in state: LocalStoreState) throws(StoreError) {
        let database = state.database
        try database.transaction { () throws(StoreError) in
            try database.execute(createTables)
            guard let transaction = try state.transaction(id: transactionID) else {
                throw StoreError(.unknownTransaction, "the local store never charged transaction \(transactionID)")
            }
            guard !transaction.isRevoked else {
                throw StoreError(.duplicateRefundRequest, "transaction \(transaction.id) was already refunded")
            }
            guard transaction.ownershipType != .familyShared else {
                throw StoreError(.wrongState, "transaction \(transaction.id) was bought by a family member: only the purchaser can ask for a refund")
            }
            guard try pendingRequest(for: transaction.id, in: database) == nil else {
                throw StoreError(.duplicateRefundRequest, "a refund request for transaction \(transaction.id) is already pending")
            }
            try database.query("INSERT INTO refund_requests (transaction_id, product_id, state, requested) VALUES (?, ?, ?, ?)",
                               [.integer(Int64(bitPattern: transaction.id)), .text(transaction.productID),
                                .text(RefundRequest.State.pending.rawValue), .real(date.timeIntervalSince1970)])
        }
    }

    /// Marks the pending request for `transactionID` approved or declined; `wrongState` when none is pending.
    static func resolveRefundRequest(for transactionID: UInt64, as state: RefundRequest.State, at date: Date,
                                     in database: SQLiteDatabase) throws(StoreError) {
        guard try resolvePendingRefundRequest(for: transactionID, as: state, at: date, in: database) else {
            throw StoreError(.wrongState, "no refund request for transaction \(transactionID) is pending")
        }
    }

    /// Marks the pending request for `transactionID`, if any, approved or declined; says whether there was one.
    @discardableResult
    static func resolvePendingRefundRequest(for transactionID: UInt64, as state: RefundRequest.State, at date: Date,
                                            in database: SQLiteDatabase) throws(StoreError) -> Bool {
        try database.transaction { () throws(StoreError) in
            guard try tablesExist(in: database), let pending = try pendingRequest(for: transactionID, in: database) else { return false }
            try database.query("UPDATE refund_requests SET state = ?, resolved = ? WHERE id = ?",
                               [.text(state.rawValue), .real(date.timeIntervalSince1970), .integer(pending)])
            return true
        }
    }

    /// Every refund request, oldest first.
    static func refundRequests(in database: SQLiteDatabase) throws(StoreError) -> [RefundRequest] {
        guard try tablesExist(in: database) else { return [] }
        return try database.query("SELECT id, transaction_id, product_id, state, requested, resolved FROM refund_requests ORDER BY id")
            .map { row in
                RefundRequest(id: row[0].integer ?? 0, transactionID: UInt64(bitPattern: row[1].integer ?? 0),
                              productID: row[2].text ?? "", state: row[3].text.flatMap(RefundRequest.State.init(rawValue:)) ?? .pending,
                              requestDate: LocalStoreState.date(row[4]) ?? Date(timeIntervalSince1970: 0),
                              resolutionDate: LocalStoreState.date(row[5]))
            }
    }

    /// Records that the game showed the manage subscriptions sheet at `date`.
    static func recordManageSubscriptions(at date: Date, in database: SQLiteDatabase) throws(StoreError) {
        try database.execute(createTables)
        try database.query("INSERT INTO manage_subscriptions_shown (shown) VALUES (?)", [.real(date.timeIntervalSince1970)])
    }

    /// How many times the game showed the manage subscriptions sheet, and when it last did.
    static func manageSubscriptionsShown(in database: SQLiteDatabase) throws(StoreError) -> (count: Int, last: Date?) {
        guard try tablesExist(in: database) else { return (0, nil) }
        let row = try database.query("SELECT count(*), max(shown) FROM manage_subscriptions_shown").first
        return (Int(row?[0].integer ?? 0), row.flatMap { LocalStoreState.date($0[1]) })
    }

    /// Forgets every refund request (with the history they name) and every record of the sheet.
    static func clear(in database: SQLiteDatabase) throws(StoreError) {
        guard try tablesExist(in: database) else { return }
        try database.execute("DELETE FROM refund_requests; DELETE FROM manage_subscriptions_shown;")
    }

    /// Whether the tables were made (both are made together).
    private static func tablesExist(in database: SQLiteDatabase) throws(StoreError) -> Bool {
        try !database.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'refund_requests'").isEmpty
    }

    private static func pendingRequest(for transactionID: UInt64, in database: SQLiteDatabase) throws(StoreError) -> Int64? {
        try database.query("SELECT id FROM refund_requests WHERE transaction_id = ? AND state = ? LIMIT 1",
                           [.integer(Int64(bitPattern: transactionID)), .text(RefundRequest.State.pending.rawValue)]).first?.first?.integer
    }
}
