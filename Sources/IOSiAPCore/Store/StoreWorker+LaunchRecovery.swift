#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which transactions the store holds unfinished, as far as it could say.
enum UnfinishedInStore: Sendable {
    case listed(Set<UInt64>)
    /// It could not list them: any may be.
    case unknown

    func contains(_ id: UInt64) -> Bool {
        switch self {
        case .listed(let ids): ids.contains(id)
        case .unknown: true
        }
    }
}

/// Launch recovery: the unfinished transactions and untold refunds delivered again, unreadable journal rows told.
extension StoreWorker {
    /// The ids of the transactions the store holds unfinished now, or none if `skipped`. A store that cannot
    /// list them counts as holding every one: a transaction wrongly kept unfinished comes back as a purchase
    /// the game finishes again, while one wrongly marked finished would never be delivered.
    func unfinishedIDsInStore(unless skipped: Bool = false) async -> UnfinishedInStore {
        if skipped { return .listed([]) }
        guard let held = try? await backend.unfinishedTransactions() else { return .unknown }
        return .listed(Set(held.map(\.id)))
    }

    /// Queues the delivery again of the journal's unfinished transactions, then of what the store still
    /// holds unfinished but the journal lacks (a crash between the charge and the journal write), and the
    /// finish marks the store missed, after telling again the refunds still to tell (no handler of them returned
    /// before); with a verifier, finished transactions no verifier has passed are checked again, telling nothing
    /// but a refund the check records. The store is asked first, and its copy of a transaction wins over the
    /// journal's: it may be newer (refunded while the game was closed), and StoreKit gives its verdicts as it hands
    /// transactions over. The journal's copy, judged with its recorded verdict, serves for the rest; a journal row
    /// that cannot be decoded, and that the store no longer holds, is told as `journalRowUnreadable` (and kept).
    /// The work runs beside the request jobs in the background lane, `verificationConcurrency` transactions at a
    /// time, so that a slow verification server holds up neither requests (payments and restores have a lane of
    /// their own) nor the other transactions.
    func queueLaunchRedelivery() async {
        // Refunds recorded but still to tell (closed or killed before a handler of them returned, or it threw):
        // told again.
        if let unannounced = try? journal.unannouncedRevocations() {
            // Whether an earlier launch took each back is not known here: the take-back at hand-out does it once.
            for transaction in unannounced.readable { tellRevocationOnce(transaction, takeBack: .whenTold) }
            reportUnreadable(unannounced.unreadable)
        }
        let fromStore = (try? await backend.unfinishedTransactions()) ?? []
        let storeCopies = Dictionary(fromStore.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let journaled = (try? journal.unfinishedTransactionsWithVerdicts()) ?? (readable: [], unreadable: [])
        let journaledIDs = Set(journaled.readable.map(\.transaction.id) + journaled.unreadable.map(\.transactionID))
        var work: [@Sendable () async -> Void] = journaled.readable.map { transaction, verdict in
            if let current = storeCopies[transaction.id] {
                return { await self.redeliver(current) }
            }
            return { await self.deliver(transaction, requestID: nil, recorded: verdict) }
        }
        // A damaged row hides no other. The store's copy, if it still holds one, stands in for it (and
        // rewrites the row once it passes); otherwise the game hears which purchase the journal cannot read.
        for row in journaled.unreadable {
            if let current = storeCopies[row.transactionID] {
                work.append { await self.redeliver(current) }
            } else {
                reportUnreadable([row])
            }
        }
        // Finished transactions no verifier has passed (a restore recorded them failed, or left their check to
        // retry): checked again quietly, since their verdict decides what they entitle to, at most a bounded round
        // of them per launch (`Journal.finishedTransactionsNotVerified`). Without a verifier nothing would change them.
        for (transaction, verdict) in (verifier == nil ? nil : try? journal.finishedTransactionsNotVerified()) ?? [] {
            work.append { await self.deliver(transaction, requestID: nil, recorded: verdict) }
        }
        for transaction in fromStore where !journaledIDs.contains(transaction.id) {
            if (try? journal.isFinished(transaction.id)) == true {
                work.append { try? await self.backend.finish(transactionID: transaction.id) }
            } else {
                work.append { await self.redeliver(transaction) }
            }
        }
        for item in work { runBeside(.background, item) }
    }

    /// Tells the game of each journal row it cannot read, once per launch (launch redelivery and the
    /// entitlement reads may both come across it).
    func reportUnreadable(_ rows: [Journal.UnreadableRow]) {
        for row in rows where flights.withLock({ $0.insert(.unreadableRowReported, row.transactionID) }) {
            events.push(.journalRowUnreadable(transactionID: row.transactionID, productID: row.productID, error: row.error))
        }
    }

    /// A transaction the store still holds unfinished: a purchase to deliver, or a refund to apply.
    private func redeliver(_ transaction: StoreTransaction) async {
        if transaction.isRevoked {
            await applyStatusChange(.revoked(transaction))
        } else {
            await deliver(transaction, requestID: nil)
        }
    }
}
