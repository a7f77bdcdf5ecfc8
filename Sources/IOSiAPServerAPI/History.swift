import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPSignedData

/// The revision token of Get Transaction History and Get Refund History: a place in the history by revision (the
/// number of the last write that inserted or changed a transaction, `LocalStore.HistoryEntry.revision`). Opaque to
/// clients: base64url of `v2:<revision>` of the last transaction returned, or `v2:start` before any. Ascending, a
/// page holds what was written after the place, so a client that keeps the last token and asks again later gets
/// every transaction written or changed since, whatever its dates (a renewal the store's clock wrote late with a
/// past purchase date, a refund dated earlier), as Apple's revisions bring updates; a changed one comes again.
/// A token of version 1 (`v1:<modified date in ms>:<id>`, made before revisions) reads as the start: nothing is
/// skipped, what was served comes again.
extension HistoryPosition {
    /// The place a `revision` query argument names (nil: the start). 400 (4000005) for a token this server did not
    /// make, or more than one.
    static func decode(_ values: [String?]) throws(ServerAPIError) -> HistoryPosition? {
        guard let first = values.first else { return nil }
        guard values.count == 1, let token = first, token.utf8.count <= 128, let bytes = Base64URL.decode(token) else {
            throw .invalidRequestRevision
        }
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: ":", omittingEmptySubsequences: false)
        switch (parts.count, parts.first) {
        case (2, "v2") where parts[1] == "start":
            return nil
        case (2, "v2"):
            // Written as this server writes it: a non-negative decimal, nothing else.
            guard let revision = Int64(parts[1]), revision >= 0, String(revision) == parts[1] else { throw .invalidRequestRevision }
            return HistoryPosition(revision: revision)
        case (2, "v1") where parts[1] == "start":
            return nil
        case (3, "v1") where Int64(parts[1]) != nil && UInt64(parts[2]) != nil:
            return nil
        default:
            throw .invalidRequestRevision
        }
    }

    static func token(_ position: HistoryPosition?) -> String {
        Base64URL.encode(Array("v2:\(position.map { String($0.revision) } ?? "start")".utf8))
    }
}

/// Get Transaction History's query: its filters, sort and revision, as Apple documents them
/// (developer.apple.com/documentation/appstoreserverapi/get-transaction-history): `startDate`, `endDate`
/// (milliseconds; a transaction's purchaseDate ≥ startDate and < endDate), `productId`, `productType`
/// (AUTO_RENEWABLE, NON_RENEWABLE, CONSUMABLE, NON_CONSUMABLE), `subscriptionGroupIdentifier`,
/// `inAppOwnershipType` (FAMILY_SHARED, PURCHASED), `revoked` (true: revoked only; false: the others),
/// `sort` (ASCENDING by default, DESCENDING) by the revision of a transaction's last change, `revision`.
struct HistoryQuery {
    var filter = TransactionHistoryFilter()
    var descending = false
    var cursor: HistoryPosition?

    private static let productTypeNames: [String: ProductType] = [
        "AUTO_RENEWABLE": .autoRenewable, "NON_RENEWABLE": .nonRenewing, "CONSUMABLE": .consumable, "NON_CONSUMABLE": .nonConsumable,
    ]

    private init() {}

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
        cursor = try HistoryPosition.decode(request.values("revision"))
    }

    /// A date in milliseconds since 1970, non-negative and representable.
    private static func date(_ values: [String?], _ error: ServerAPIError) throws(ServerAPIError) -> Date? {
        guard let first = values.first else { return nil }
        guard values.count == 1, let first, let milliseconds = Int64(first), milliseconds >= 0,
              milliseconds <= 253_402_300_799_999 else { throw error }  // up to the year 9999
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Get Refund History's: the refunded transactions, ascending, from the request's `revision`.
    static func refunds(_ request: ServerAPIRequest) throws(ServerAPIError) -> HistoryQuery {
        var query = HistoryQuery()
        query.filter.revoked = true
        query.cursor = try HistoryPosition.decode(request.values("revision"))
        return query
    }

    typealias Page = (transactions: [StoreTransaction], revision: String, hasMore: Bool)

    /// One page of the history that matches, in the order asked for, from the whole history in memory: the
    /// reference `page(from:)` answers as.
    func page(of transactions: [ServerAPITransaction]) -> Page {
        let position = { (entry: ServerAPITransaction) in HistoryPosition(revision: entry.revision) }
        let sorted = transactions.filter { filter.matches($0.transaction, isFinished: $0.isFinished) }
            .sorted { descending ? position($0) > position($1) : position($0) < position($1) }
        let remaining = sorted.drop { entry in
            guard let cursor else { return false }
            return descending ? position(entry) >= cursor : position(entry) <= cursor
        }
        let page = Array(remaining.prefix(ServerAPI.pageSize))
        return (page.map(\.transaction), HistoryPosition.token(page.last.map(position) ?? cursor), remaining.count > page.count)
    }

    /// The same page read from the store a page at a time: the same answer, whatever the history's length.
    func page(from store: any TransactionHistoryPaging) throws(StoreError) -> Page {
        let rows = try store.historyPage(filter, after: cursor, descending: descending, limit: ServerAPI.pageSize + 1)
        let page = rows.prefix(ServerAPI.pageSize)
        return (page.map(\.transaction), HistoryPosition.token(page.last.map { HistoryPosition(revision: $0.revision) } ?? cursor),
                rows.count > page.count)
    }
}
