#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// The history a page at a time (`TransactionHistoryPaging`): SQLite filters, reads in revision order through the
/// index of migration 14 and stops at the page's end, so a page costs the same at 100 or 100,000 transactions.
extension LocalStoreState {
    typealias HistoryRow = (transaction: StoreTransaction, finished: Bool, autoRenew: Bool, revision: Int64)

    func historyEntry(id: UInt64) throws(StoreError) -> HistoryRow? {
        try historyRows("id = ?", [.integer(Int64(bitPattern: id))], order: "id", limit: 1).first
    }

    /// Every transaction with whether the app finished it, whether it renews and its revision, oldest id first.
    func history() throws(StoreError) -> [HistoryRow] {
        try historyRows("1", [], order: "id", limit: -1)
    }

    func historyPage(_ filter: TransactionHistoryFilter, after position: HistoryPosition?, descending: Bool,
                     limit: Int) throws(StoreError) -> [HistoryRow] {
        var conditions: [String] = []
        var parameters: [SQLiteValue] = []
        func list<Value>(_ column: String, _ values: Set<Value>, _ value: (Value) -> SQLiteValue) {
            guard !values.isEmpty else { return }
            conditions.append("\(column) IN (\(Array(repeating: "?", count: values.count).joined(separator: ", ")))")
            parameters += values.map(value)
        }
        if filter.leavesOutFinishedConsumables {
            conditions.append("NOT (product_type = \(ProductType.consumable.rawValue) AND finished = 1)")
        }
        // Dates compared as `Date`s compare: seconds since the reference date.
        if let start = filter.start {
            conditions.append("(purchase_date - 978307200.0) >= ?")
            parameters.append(.real(start.timeIntervalSinceReferenceDate))
        }
        if let end = filter.end {
            conditions.append("(purchase_date - 978307200.0) < ?")
            parameters.append(.real(end.timeIntervalSinceReferenceDate))
        }
        list("product_id", filter.productIDs) { .text($0) }
        list("product_type", filter.productTypes) { .integer(Int64($0.rawValue)) }
        list("coalesce(subscription_group_id, '')", filter.groupIDs) { .text($0) }
        if let revoked = filter.revoked { conditions.append(revoked ? "revocation_date IS NOT NULL" : "revocation_date IS NULL") }
        // What SQLite does not filter (the owner) is filtered here, as `matches` does for a whole history, batch by
        // batch from the last row looked at; SQLite's rows pass it otherwise, in one batch.
        let batch = filter.ownership == nil ? max(0, limit) : max(limit, 100)
        var page: [HistoryRow] = []
        var after = position?.revision
        while page.count < limit {
            var clauses = conditions
            var values = parameters
            if let after {
                clauses.append("revision \(descending ? "<" : ">") ?")
                values.append(.integer(after))
            }
            let rows = try historyRows(clauses.isEmpty ? "1" : clauses.joined(separator: " AND "), values,
                                       order: "revision \(descending ? "DESC" : "ASC")", limit: batch)
            page += rows.filter { filter.matches($0.transaction, isFinished: $0.finished) }.prefix(limit - page.count)
            guard rows.count == batch, let last = rows.last else { break }
            after = last.revision
        }
        return page
    }

    private func historyRows(_ condition: String, _ parameters: [SQLiteValue], order: String, limit: Int) throws(StoreError) -> [HistoryRow] {
        let count = Self.transactionColumns.split(separator: ",").count
        return try database.query("""
            SELECT \(Self.transactionColumns), finished, auto_renew, revision FROM transactions WHERE \(condition) ORDER BY \(order) LIMIT ?
            """, parameters + [.integer(Int64(limit))]).map { row in
            (decodeTransaction(row), row[count].integer == 1, row[count + 1].integer == 1, row[count + 2].integer ?? 0)
        }
    }
}
