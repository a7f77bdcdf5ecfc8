import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPSignedData

/// A position in a sorted history: the revision token of Get Transaction History and Get Refund History.
/// Opaque to clients: base64url of `v1:<modified date in ms>:<transaction id>` of the last transaction
/// returned, or `v1:start` before any. A page holds what sorts after the position, so a transaction that
/// changes after it was returned (a refund moves its modified date) comes again in a later page, as
/// Apple's revisions bring updates.
struct PageCursor: Equatable {
    let milliseconds: Int64
    let id: UInt64

    /// The cursor of a `revision` query argument (nil: the first page). 400 (4000005) for a token this
    /// server did not make, or more than one.
    static func decode(_ values: [String?]) throws(ServerAPIError) -> PageCursor? {
        guard let first = values.first else { return nil }
        guard values.count == 1, let token = first, token.utf8.count <= 128, let bytes = Base64URL.decode(token) else {
            throw .invalidRequestRevision
        }
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: ":", omittingEmptySubsequences: false)
        if parts == ["v1", "start"] { return nil }
        guard parts.count == 3, parts[0] == "v1", let milliseconds = Int64(parts[1]), let id = UInt64(parts[2]) else {
            throw .invalidRequestRevision
        }
        return PageCursor(milliseconds: milliseconds, id: id)
    }

    static func token(_ cursor: PageCursor?) -> String {
        Base64URL.encode(Array((cursor.map { "v1:\($0.milliseconds):\($0.id)" } ?? "v1:start").utf8))
    }

    /// The same place as the store reads pages by.
    var position: HistoryPosition { HistoryPosition(milliseconds: milliseconds, id: id) }

    init(milliseconds: Int64, id: UInt64) {
        self.milliseconds = milliseconds
        self.id = id
    }

    init(_ position: HistoryPosition) {
        self.init(milliseconds: position.milliseconds, id: position.id)
    }

    /// Up to a page of `items` after `cursor`, sorted by `date` then id, and the revision of the next page.
    static func page(_ items: [StoreTransaction], after cursor: PageCursor?, descending: Bool,
                     date: (StoreTransaction) -> Date) -> (transactions: [StoreTransaction], revision: String, hasMore: Bool) {
        let keyed = items.map { (key: PageCursor(milliseconds: Int64(Milliseconds(date($0)).value), id: $0.id), transaction: $0) }
            .sorted { descending ? $0.key > $1.key : $0.key < $1.key }
        let remaining = keyed.drop { entry in
            guard let cursor else { return false }
            return descending ? entry.key >= cursor : entry.key <= cursor
        }
        let page = Array(remaining.prefix(ServerAPI.pageSize))
        return (page.map(\.transaction), token(page.last?.key ?? cursor), remaining.count > page.count)
    }
}

extension PageCursor: Comparable {
    static func < (lhs: PageCursor, rhs: PageCursor) -> Bool {
        (lhs.milliseconds, lhs.id) < (rhs.milliseconds, rhs.id)
    }
}

/// Get Transaction History's query: its filters, sort and revision, as Apple documents them
/// (developer.apple.com/documentation/appstoreserverapi/get-transaction-history): `startDate`, `endDate`
/// (milliseconds; a transaction's purchaseDate ≥ startDate and < endDate), `productId`, `productType`
/// (AUTO_RENEWABLE, NON_RENEWABLE, CONSUMABLE, NON_CONSUMABLE), `subscriptionGroupIdentifier`,
/// `inAppOwnershipType` (FAMILY_SHARED, PURCHASED), `revoked` (true: revoked only; false: the others),
/// `sort` (ASCENDING by default, DESCENDING) by the date a transaction last changed, `revision`.
struct HistoryQuery {
    var filter = TransactionHistoryFilter()
    var descending = false
    var cursor: PageCursor?

    private static let productTypeNames: [String: ProductType] = [
        "AUTO_RENEWABLE": .autoRenewable, "NON_RENEWABLE": .nonRenewing, "CONSUMABLE": .consumable, "NON_CONSUMABLE": .nonConsumable,
    ]

    init(_ request: ServerAPIRequest) throws(ServerAPIError) {
        filter.start = try Self.date(request.values("startDate"), .invalidStartDate)
        filter.end = try Self.date(request.values("endDate"), .invalidEndDate)
        if let start = filter.start, let end = filter.end, start > end { throw .startDateAfterEndDate }
        for value in request.values("productId") {
            guard let value, !value.isEmpty, value.utf8.count <= 256 else { throw .invalidProductID }
            filter.productIDs.insert(value)
        }
        for value in request.values("productType") {
            guard let value, let type = Self.productTypeNames[value] else { throw .invalidProductType }
            filter.productTypes.insert(type)
        }
        for value in request.values("subscriptionGroupIdentifier") {
            guard let value, !value.isEmpty, value.utf8.count <= 256 else { throw .invalidSubscriptionGroupIdentifier }
            filter.groupIDs.insert(value)
        }
        let ownerships = request.values("inAppOwnershipType")
        if let first = ownerships.first {
            guard ownerships.count == 1, let first, let type = OwnershipType(rawValue: first) else { throw .invalidInAppOwnershipType }
            filter.ownership = type
        }
        // Apple's Python library sends Python's str(bool): "True" / "False"; other clients "true" / "false".
        let revokedValues = request.values("revoked")
        if let first = revokedValues.first {
            switch (revokedValues.count, first?.lowercased()) {
            case (1, "true"): filter.revoked = true
            case (1, "false"): filter.revoked = false
            default: throw .invalidRevoked
            }
        }
        let sorts = request.values("sort")
        if let first = sorts.first {
            switch (sorts.count, first) {
            case (1, "ASCENDING"): descending = false
            case (1, "DESCENDING"): descending = true
            default: throw .invalidSort
            }
        }
        cursor = try PageCursor.decode(request.values("revision"))
    }

    /// A date in milliseconds since 1970, non-negative and representable.
    private static func date(_ values: [String?], _ error: ServerAPIError) throws(ServerAPIError) -> Date? {
        guard let first = values.first else { return nil }
        guard values.count == 1, let first, let milliseconds = Int64(first), milliseconds >= 0,
              milliseconds <= 253_402_300_799_999 else { throw error }  // up to the year 9999
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// One page of the history that matches, in the order asked for, from the whole history in memory.
    func page(of transactions: [ServerAPITransaction]) -> (transactions: [StoreTransaction], revision: String, hasMore: Bool) {
        let matching = transactions.filter { filter.matches($0.transaction, isFinished: $0.isFinished) }.map(\.transaction)
        return PageCursor.page(matching, after: cursor, descending: descending) { $0.revocationDate ?? $0.purchaseDate }
    }

    /// The same page read from the store a page at a time: the same answer, whatever the history's length.
    func page(from store: any TransactionHistoryPaging) throws(StoreError) -> (transactions: [StoreTransaction], revision: String, hasMore: Bool) {
        let rows = try store.historyPage(filter, after: cursor?.position, descending: descending, limit: ServerAPI.pageSize + 1)
        let page = rows.prefix(ServerAPI.pageSize).map(\.transaction)
        return (page, PageCursor.token(page.last.map { PageCursor(HistoryPosition(of: $0)) } ?? cursor), rows.count > page.count)
    }
}
