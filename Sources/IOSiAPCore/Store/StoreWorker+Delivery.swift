#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Delivery: verifying a purchased transaction, journaling it with its verdict, and queuing its event once.
extension StoreWorker {
    /// The verdict on `transaction`, or `nil` when the store does not verify: the backend's own failure if
    /// it forces one, else the verifier's.
    /// `recorded` is the journal's verdict from an earlier launch, for a transaction it delivers again.
    /// A refunded copy of a transaction the journal holds as accepted (verified, or recorded while nothing verified),
    /// or of a subscription it holds so (a refunded renewal), is not asked about (`nil`): refunds fail safe
    /// (DESIGN.md promise 9), so it takes effect whatever a server says or fails to say; a forged one can only take
    /// from its own player. The refund of a transaction the journal never accepted still waits for a verdict.
    func verify(_ transaction: StoreTransaction, recorded: RecordedVerdict? = nil) async -> VerificationOutcome? {
        guard let verifier else { return nil }
        if transaction.isRevoked, (try? journal.holdsAcceptedRecord(of: transaction)) == true { return nil }
        if let forced = backend.forcedVerificationFailure(of: transaction) { return .failed(forced) }
        if let recorded { return await verifier.verify(transaction, recorded: recorded) }
        return await verifier.verify(transaction)
    }

    /// What the game is told of a transaction the journal has just recorded with `verdict` as `record`: the
    /// verifier's verdict; with none, the one its record holds, which is never weakened: a transaction a verifier
    /// failed, or has not passed yet, in an earlier launch is told as failed again, and is no entitlement, until a
    /// verifier passes it. (The same rule made the record told, or not, in that commit: `allowsTelling`.)
    func judged(_ transaction: StoreTransaction, _ verdict: VerificationOutcome?, _ record: JournalRecord) -> VerificationOutcome? {
        guard verdict == nil, record.verdict == .notVerified else { return verdict }
        return .failed(StoreError(.verificationInvalidSignature, "transaction \(transaction.id) did not pass verification in an "
            + "earlier launch, and no verifier is set to check it again"))
    }

    /// Verifies a purchased transaction if the store has a verifier, journals it with the verdict, then
    /// queues its event. (Verifying first spares a second commit for the verdict; a crash before the journal
    /// write loses nothing, since the store still holds the transaction unfinished.) Outside a request, a
    /// transaction finished before is not delivered again (it is never granted twice), nor one already
    /// queued in this launch.
    /// A retry (attempt > 0) is judged with the verdict the journal holds then on this very copy, as the launch's
    /// re-check is; a verdict on another copy of the transaction says nothing of this one.
    func deliver(_ transaction: StoreTransaction, requestID: RequestID?, attempt: Int = 0,
                         recorded verdict: RecordedVerdict? = nil, endsDeferral: Bool = false) async {
        let recorded = attempt > 0 ? ((try? journal.recordedVerdict(of: transaction)) ?? verdict) : verdict
        let checked = await verify(transaction, recorded: recorded)
        // A retry (attempt > 0) holds its transaction's `checkScheduled` mark until its chain ends.
        var checksAgain = false
        defer { if attempt > 0 && !checksAgain { flights.withLock { $0.remove(.checkScheduled, transaction.id) } } }
        let written: Journal.Written
        let outcome: VerificationOutcome?
        let takeBack = refundTakeBack()
        do {
            // Told in the same commit if the verdict lets it be told now: then `finish` accepts it.
            written = try journal.written(transaction, verdict: checked, telling: true, takeBack: takeBack)
            outcome = judged(transaction, checked, written.record)
        } catch {
            // Charged but not durable: say so. The store keeps the transaction unfinished and it is
            // delivered again at the next launch.
            if let requestID {
                events.push(.failed(requestID: requestID, productID: transaction.productID, error: StoreError(
                    .storageFailure, "purchase of '\(transaction.productID)' completed but could not be journaled "
                        + "(\(error.message)); it will be delivered again at the next launch")))
            }
            return
        }
        if written.record.refund != .notRefunded {
            // Refunded (this copy, or one recorded before): never delivered as a purchase, which would hand out
            // what was refunded. A request still ends.
            if written.recordedRefund { tellRevocationOnce(transaction, takeBack: takeBack) }
            if let requestID {
                events.push(.failed(requestID: requestID, productID: transaction.productID, error: StoreError(
                    .wrongState, "purchase of '\(transaction.productID)' completed as transaction \(transaction.id), which was refunded")))
            }
            return
        }
        // A transaction finished before is not told again outside a request; its copy is still checked until a
        // verifier answers, since its verdict decides what it entitles to.
        let quiet = requestID == nil && written.found == .knownFinished
        switch outcome {
        case .failed(let error):
            if !quiet && firstTelling(.failureTold, transaction, requestID, endsDeferral) {
                events.push(.verificationFailed(requestID: requestID, transaction: transaction, error: error))
            }
            return
        case .retryLater(let error):
            // Nothing is lost: the journal holds it unfinished, or finished with the verdict it had. Said once,
            // retried quietly until it completes; a finished one only while no verifier has passed the copy held.
            if attempt == 0 && !quiet && firstTelling(.retryableFailureTold, transaction, requestID, endsDeferral) {
                events.push(.verificationFailed(requestID: requestID, transaction: transaction,
                                                error: StoreError(.verificationRetryable, error.message)))
            }
            if attempt > 0 {
                checksAgain = true
                retry(attempt: attempt + 1) { await self.deliver(transaction, requestID: nil, attempt: attempt + 1) }
            } else if !quiet || written.record.verdict == .notVerified {
                checkAgainLater(transaction)
            }
            return
        case .verified, nil:
            // A failure after this pass is news again (a flaky server: fail, pass, fail).
            flights.withLock { $0.remove([.failureTold, .retryableFailureTold], transaction.id) }
            if quiet { return }
        }
        if let requestID {
            // A request always ends. A store answers a purchase of something already owned with the
            // transaction that grants it, possibly finished long ago: granting ownership again is harmless.
            flights.withLock { _ = $0.insert(.delivered, transaction.id) }
            tellPurchase(.purchased(requestID: requestID, transaction: transaction))
        } else if endsDeferral, flights.withLock({ flights in
            // Told again though told before in this launch: it ends the deferral the game was told of. Not while a
            // payment delivers it (that one's answer tells it), nor while a purchase of its product runs: held
            // until that one returns, then told unless its answer was this transaction (`releaseHeldDeliveries`).
            guard !flights.contains(.deliveredByPayment, transaction.id) else { return false }
            if flights.holdIfPurchaseInProgress(transaction) {
                _ = flights.insert(.endsDeferral, transaction.id)
                return false
            }
            _ = flights.insert(.delivered, transaction.id)
            return true
        }) {
            tellPurchase(.purchased(requestID: nil, transaction: transaction))
        } else if endsDeferral {
            return
        } else {
            queuePurchasedOnce(transaction, requestID: nil)
        }
    }

    /// Whether a failure marked `told` is told now: always in answer to a request or as the end of a deferral the
    /// game was told of (each must end), else once per transaction in a launch until a check passes it.
    private func firstTelling(_ told: TransactionFlights.Mark, _ transaction: StoreTransaction, _ requestID: RequestID?,
                              _ endsDeferral: Bool) -> Bool {
        requestID != nil || endsDeferral || flights.withLock { $0.insert(told, transaction.id) }
    }

    /// Checks `transaction` again on the retry timer, through `deliver`, unless a chain of retries of it is
    /// scheduled already.
    func checkAgainLater(_ transaction: StoreTransaction) {
        guard flights.withLock({ $0.insert(.checkScheduled, transaction.id) }) else { return }
        retry(attempt: 1) { await self.deliver(transaction, requestID: nil, attempt: 1) }
    }

    func queuePurchasedOnce(_ transaction: StoreTransaction, requestID: RequestID?) {
        let isFirst = flights.withLock { flights in
            guard !flights.contains(.deliveredByPayment, transaction.id) else { return false }
            // Perhaps the charge of a purchase still in progress: decided once it returns.
            if flights.holdIfPurchaseInProgress(transaction) { return false }
            return flights.insert(.delivered, transaction.id)
        }
        if isFirst { tellPurchase(.purchased(requestID: requestID, transaction: transaction)) }
    }

    /// What the game is handed for `event` as it leaves the queue, on the game's thread, or `nil` for nothing: a
    /// request-less purchase the game finished after it was queued (a purchase is told until the game finishes it,
    /// never after), or whose refund the game was handed first (a grant must not follow the refund of what it
    /// grants; a purchase queued before its refund goes out first, as queued), then the grant ledger's work at
    /// hand-out (`GrantLedger.apply`). Memory only: no I/O on the game's thread.
    func handOut(_ event: StoreEvent) -> StoreEvent? {
        switch event {
        case .purchased(nil, let transaction):
            if flights.withLock({ $0.contains(.finished, transaction.id) || $0.contains(.revocationHandedOut, transaction.id) }) {
                ledger.drop(event)
                return nil
            }
        case .revoked(let transaction):
            flights.withLock { _ = $0.insert(.revocationHandedOut, transaction.id) }
        default:
            break
        }
        return ledger.apply(event)
    }

    /// Queues a purchase for the game: a product the game registered with the grant ledger is granted and finished
    /// first, in one commit on this thread, and told as `granted` once durable (`GrantLedger.settle`). After close
    /// nothing is granted or queued: the purchase is still unfinished, and granted at the next launch. A
    /// request-less purchase whose record was refunded meanwhile (one held while a payment of its product ran) is
    /// neither granted nor queued.
    func tellPurchase(_ purchase: StoreEvent) {
        if case .purchased(nil, let transaction) = purchase, isRecordedRefunded(transaction.id) { return }
        guard !events.isClosed, let settled = ledger.settle(purchase, beforeFirstPoll: !events.hasStartedDraining) else { return }
        events.push(settled)
    }

    /// Whether the journal records a refund of transaction `id` (an unreadable record counts as none).
    private func isRecordedRefunded(_ id: UInt64) -> Bool {
        ((try? journal.refundState(of: id)) ?? .notRefunded) != .notRefunded
    }
}
