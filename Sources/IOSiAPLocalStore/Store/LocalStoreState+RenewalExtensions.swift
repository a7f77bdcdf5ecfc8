#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// The renewal date extensions the store made (migration 12), read and written inside the caller's SQL
/// transaction, so that a check, the extension and its record commit together.
extension LocalStoreState {
    /// The extension request `requestIdentifier` made of subscription `originalID`, if it made one.
    func renewalExtension(of originalID: UInt64, request requestIdentifier: String) throws(StoreError) -> RenewalExtension? {
        try database.query("""
            SELECT transaction_id, effective_date FROM renewal_extensions WHERE original_id = ? AND request_identifier = ?
            """, [.integer(Int64(bitPattern: originalID)), .text(requestIdentifier)]).first.map { row in
            RenewalExtension(originalTransactionID: originalID, transactionID: UInt64(bitPattern: row[0].integer ?? 0),
                             effectiveDate: Self.date(row[1]) ?? Date(timeIntervalSince1970: 0))
        }
    }

    /// How many extensions subscription `originalID` received at or after `date`.
    func renewalExtensionCount(of originalID: UInt64, since date: Date) throws(StoreError) -> Int {
        Int(try database.query("SELECT count(*) FROM renewal_extensions WHERE original_id = ? AND extended >= ?",
                               [.integer(Int64(bitPattern: originalID)), .real(date.timeIntervalSince1970)]).first?.first?.integer ?? 0)
    }

    /// The subscriptions active at `now` whose end moved after their purchase: extended, or in billing retry
    /// within a grace period (a renewal that failed to charge ended the period when it was due, maybe early by
    /// `renew`). A game's record of them may hold the old end.
    func activeTransactionsWithMovedEnds(at now: Date) throws(StoreError) -> [StoreTransaction] {
        try transactions(where: """
            revocation_date IS NULL AND (id IN (SELECT transaction_id FROM renewal_extensions) AND expiration_date > ?1
                                         OR billing_retry = 1 AND grace_expires > ?1)
            """, [.real(now.timeIntervalSince1970)])
    }

    func recordRenewalExtension(_ made: RenewalExtension, request requestIdentifier: String, at date: Date) throws(StoreError) {
        try database.query("""
            INSERT INTO renewal_extensions (original_id, request_identifier, transaction_id, extended, effective_date)
            VALUES (?, ?, ?, ?, ?)
            """, [.integer(Int64(bitPattern: made.originalTransactionID)), .text(requestIdentifier),
                  .integer(Int64(bitPattern: made.transactionID)), .real(date.timeIntervalSince1970),
                  .real(made.effectiveDate.timeIntervalSince1970)])
    }

    /// The request to extend every active subscriber of `productID` that `requestIdentifier` made, if any.
    func massRenewalExtension(_ requestIdentifier: String, productID: String) throws(StoreError) -> MassRenewalExtension? {
        try database.query("""
            SELECT completed, succeeded, failed FROM mass_renewal_extensions WHERE request_identifier = ? AND product_id = ?
            """, [.text(requestIdentifier), .text(productID)]).first.map { row in
            MassRenewalExtension(requestIdentifier: requestIdentifier, productID: productID,
                                 completeDate: Self.date(row[0]) ?? Date(timeIntervalSince1970: 0),
                                 succeededCount: Int(row[1].integer ?? 0), failedCount: Int(row[2].integer ?? 0))
        }
    }

    /// Whether any request to extend every subscriber used `requestIdentifier`, for any product.
    func massRenewalExtensionExists(_ requestIdentifier: String) throws(StoreError) -> Bool {
        try !database.query("SELECT 1 FROM mass_renewal_extensions WHERE request_identifier = ?", [.text(requestIdentifier)]).isEmpty
    }

    func recordMassRenewalExtension(_ done: MassRenewalExtension) throws(StoreError) {
        try database.query("""
            INSERT INTO mass_renewal_extensions (request_identifier, product_id, completed, succeeded, failed) VALUES (?, ?, ?, ?, ?)
            """, [.text(done.requestIdentifier), .text(done.productID), .real(done.completeDate.timeIntervalSince1970),
                  .integer(Int64(done.succeededCount)), .integer(Int64(done.failedCount))])
    }
}
