import Foundation
import IOSiAPCore

/// The history a page at a time (`TransactionHistoryPaging`): SQLite filters, sorts by the index on the
/// modified date (migration 12) and stops at the page's end, so a page costs the same at 100 or 100,000
/// transactions.
extension LocalStoreState {
    /// `HistoryPosition(of:)`'s milliseconds, computed by SQLite bit for bit as Swift computes them: a stored date
    /// becomes a `Date` (seconds since 2001, the reference date), back to seconds since 1970, times 1000, rounded
    /// down, within `Milliseconds`' range. The index of migration 12 is on this expression, written the same.
    static let modifiedMilliseconds = """
        max(0, min(CAST(((coalesce(revocation_date, purchase_date) - 978307200.0) + 978307200.0) * 1000.0 AS INTEGER), \
        253402300799999))
        """

    typealias HistoryRow = (transaction: StoreTransaction, finished: Bool, autoRenew: Bool)

    func historyEntry(id: UInt64) throws(StoreError) -> HistoryRow? {
        try historyRows("id = ?", [.integer(Int64(bitPattern: id))], order: "id", limit: 1).first
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
        let direction = descending ? "DESC" : "ASC"
        let batch = filter.ownership == nil ? max(0, limit) : max(limit, 100)
        var page: [HistoryRow] = []
        var after = position
        while page.count < limit {
            var clauses = conditions
            var values = parameters
            if let after {
                clauses.append("(\(Self.modifiedMilliseconds), id) \(descending ? "<" : ">") (?, ?)")
                values += [.integer(after.milliseconds), .integer(Int64(bitPattern: after.id))]
            }
            let rows = try historyRows(clauses.isEmpty ? "1" : clauses.joined(separator: " AND "), values,
                                       order: "\(Self.modifiedMilliseconds) \(direction), id \(direction)", limit: batch)
            page += rows.filter { filter.matches($0.transaction, isFinished: $0.finished) }.prefix(limit - page.count)
            guard rows.count == batch, let last = rows.last else { break }
            after = HistoryPosition(of: last.transaction)
        }
        return page
    }

    private func historyRows(_ condition: String, _ parameters: [SQLiteValue], order: String, limit: Int) throws(StoreError) -> [HistoryRow] {
        let count = Self.transactionColumns.split(separator: ",").count
        return try database.query("""
            SELECT \(Self.transactionColumns), finished, auto_renew FROM transactions WHERE \(condition) ORDER BY \(order) LIMIT ?
            """, parameters + [.integer(Int64(limit))]).map { row in
            (decodeTransaction(row), row[count].integer == 1, row[count + 1].integer == 1)
        }
    }
}
