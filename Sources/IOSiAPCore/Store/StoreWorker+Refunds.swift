#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Refunds: their take-back, telling them once, and noting them told once the game handled them.
extension StoreWorker {
    /// Notes the refunds handled by the game that the job loop has not noted yet: close calls it before it
    /// lets the journal's directory go.
    func noteDeliveredRevocations() {
        let ids = flights.withLock { $0.ids(.revocationToNote) }
        for id in ids { acknowledgeRefund(id) }
    }

    /// Notes refund `id` told, taking back its grant in the same commit if its recording could not (by the game's
    /// refund rule now). A failure leaves it to tell: told again, and taken back then, at the next launch.
    func acknowledgeRefund(_ id: UInt64) {
        try? journal.acknowledgeRefund(id, deductingCurrency: ledger.deductsRefundedConsumables)
    }

    /// How a refund recorded now takes back its grant: in the same commit, by the game's refund rule, once the game
    /// has started taking events (it sets the rule before its first poll); before that, when the refund is noted
    /// told, by the rule of that moment.
    func refundTakeBack() -> Journal.TakeBack {
        events.hasStartedDraining ? .now(deductingCurrency: ledger.deductsRefundedConsumables) : .whenTold
    }

    /// Called on the game's thread once the game's handler of an event returned normally (for the event
    /// sequence: once the game asks for the next event): a `revoked` is noted told in the journal by the worker
    /// (no disk write on the polling thread), or by close if the worker has not yet. Until that write, the
    /// refund is told again at each launch (a crash before it, a handler that threw, or a refund handled
    /// after close, is told once more: the ledger takes back once, a game should take back per transaction id).
    func delivered(_ event: StoreEvent) {
        guard case .revoked(let transaction) = event else { return }
        state.withLock { state in
            guard state.isOpen else { return }
            _ = flights.withLock { $0.insert(.revocationToNote, transaction.id) }
            jobsSink.yield(.revocationAnnounced(transaction.id))
        }
    }

    /// Queues `revoked` for `transaction` unless this launch has queued it already. A refund whose take-back the
    /// commit that recorded it left for later (`takeBack`, before the game's first poll) is taken back as the
    /// event is handed out, by the game's refund rule then: the game's handler never sees the refunded grant
    /// still counted, however often it fails.
    func tellRevocationOnce(_ transaction: StoreTransaction, takeBack: Journal.TakeBack) {
        if flights.withLock({ $0.insert(.revocationTold, transaction.id) }) {
            if takeBack == .whenTold { ledger.takeBackAtHandOut(transaction.id) }
            events.push(.revoked(transaction: transaction))
        }
    }
}
