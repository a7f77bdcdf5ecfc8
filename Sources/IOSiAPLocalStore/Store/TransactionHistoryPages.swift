#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPVerification

/// Which transactions of the history a page holds: Get Transaction History's filters
/// (developer.apple.com/documentation/appstoreserverapi/get-transaction-history). Empty sets and `nil` filter nothing.
public struct TransactionHistoryFilter: Sendable, Equatable {
    /// purchaseDate ≥ start.
    public var start: Date?
    /// purchaseDate < end.
    public var end: Date?
    public var productIDs: Set<String> = []
    public var productTypes: Set<ProductType> = []
    /// Subscription group ids; "" matches what belongs to none.
    public var groupIDs: Set<String> = []
    public var ownership: OwnershipType?
    /// true: refunded only; false: the others.
    public var revoked: Bool?
    /// Leaves out consumables the app finished (version 1 of the endpoint).
    public var leavesOutFinishedConsumables = false

    public init() {}

    /// Whether `transaction` (finished or not) passes.
    public func matches(_ transaction: StoreTransaction, isFinished: Bool) -> Bool {
        if leavesOutFinishedConsumables, transaction.productType == .consumable, isFinished { return false }
        if let start, transaction.purchaseDate < start { return false }
        if let end, transaction.purchaseDate >= end { return false }
        if !productIDs.isEmpty, !productIDs.contains(transaction.productID) { return false }
        if !productTypes.isEmpty, !productTypes.contains(transaction.productType) { return false }
        if !groupIDs.isEmpty, !groupIDs.contains(transaction.subscriptionGroupID ?? "") { return false }
        if let ownership, transaction.ownershipType != ownership { return false }
        if let revoked, transaction.isRevoked != revoked { return false }
        return true
    }
}

/// A place in the history in the order of its writes: a transaction's revision (`LocalStore.HistoryEntry.revision`),
/// the number of the last write that inserted or changed it. A later write of any transaction, whatever its dates,
/// sorts after every place already given out.
public struct HistoryPosition: Sendable, Hashable, Comparable {
    public let revision: Int64

    public init(revision: Int64) {
        self.revision = revision
    }

    public static func < (lhs: HistoryPosition, rhs: HistoryPosition) -> Bool {
        lhs.revision < rhs.revision
    }
}

/// Reading the history a page at a time, at a cost that grows with the page, not the history; `LocalStore` is one.
public protocol TransactionHistoryPaging: Sendable {
    /// One transaction and whether the app finished it, or `nil`.
    func historyEntry(id: UInt64) throws(StoreError) -> LocalStore.HistoryEntry?
    /// Up to `limit` transactions that pass `filter`, after `position` (before it, `descending`), by revision.
    func historyPage(_ filter: TransactionHistoryFilter, after position: HistoryPosition?, descending: Bool,
                     limit: Int) throws(StoreError) -> [LocalStore.HistoryEntry]
}
