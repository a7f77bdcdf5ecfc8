#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// The store's transaction history: read whole or a page at a time, deleted, cleared.
extension LocalStore {
    /// Every transaction this user was charged or shared, oldest first, refunded and expired ones too.
    public func transactionHistory() async throws(StoreError) -> [StoreTransaction] {
        try advanceTime()
        return try allTransactions()
    }

    /// Every transaction the store charged, oldest first (SKTestSession `allTransactions()`).
    public func allTransactions() throws(StoreError) -> [StoreTransaction] {
        try state.withLock { state throws(StoreError) in try state.allTransactions() }
    }

    /// One line of the store's history, for the transaction manager.
    public struct HistoryEntry: Sendable {
        public let transaction: StoreTransaction
        /// Whether the app finished it.
        public let isFinished: Bool
        /// For subscriptions: whether it renews.
        public let autoRenews: Bool
        /// The number of the last write that inserted or changed it (migration 14): the history's order for the
        /// Server API's revision tokens. Unique, and larger for every later write.
        public let revision: Int64

        init(_ row: LocalStoreState.HistoryRow) {
            (transaction, isFinished, autoRenews, revision) = row
        }
    }

    /// The store's history, oldest first, with finish marks.
    public func history() throws(StoreError) -> [HistoryEntry] {
        try state.withLock { state throws(StoreError) in
            try state.history().map(HistoryEntry.init)
        }
    }

    /// One line of the history, or `nil` for an id the store never charged.
    public func historyEntry(id: UInt64) throws(StoreError) -> HistoryEntry? {
        try state.withLock { state throws(StoreError) in
            try state.historyEntry(id: id).map(HistoryEntry.init)
        }
    }

    /// One page of the history (LocalStoreState+HistoryPages.swift): its cost grows with `limit`, not the history.
    public func historyPage(_ filter: TransactionHistoryFilter, after position: HistoryPosition?, descending: Bool,
                            limit: Int) throws(StoreError) -> [HistoryEntry] {
        try state.withLock { state throws(StoreError) in
            try state.historyPage(filter, after: position, descending: descending, limit: limit)
                .map(HistoryEntry.init)
        }
    }

    /// Removes one transaction from the history (SKTestSession `deleteTransaction`).
    public func deleteTransaction(_ id: UInt64) throws(StoreError) {
        try state.withLock { state throws(StoreError) in try state.delete(id) }
    }

    /// Removes every transaction and waiting purchase (SKTestSession `clearTransactions`).
    public func clearTransactions() throws(StoreError) {
        try state.withLock { state throws(StoreError) in
            try state.clear()
            try LocalCustomerSheets.clear(in: state.database)  // the refund requests name the transactions
        }
    }

    /// Clears the history and every control's override: the catalog's settings apply again
    /// (SKTestSession `resetToDefaultState`).
    public func resetToDefaultState() throws(StoreError) {
        try clearTransactions()
        try resetSettings()
    }
}
