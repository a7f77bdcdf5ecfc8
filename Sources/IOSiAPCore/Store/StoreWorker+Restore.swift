#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How far a restore got: its transactions still to end, how many were restored, the first journal error.
private final class RestoreProgress: Sendable {
    private struct Counts {
        var remaining: Int
        var restored = 0
        var error: StoreError?
    }

    private let counts: Locked<Counts>

    init(remaining: Int) { counts = Locked(Counts(remaining: remaining)) }

    var restored: Int { counts.withLock { $0.restored } }
    var error: StoreError? { counts.withLock { $0.error } }

    func countRestored() { counts.withLock { $0.restored += 1 } }
    func fail(_ error: StoreError) { counts.withLock { $0.error = $0.error ?? error } }

    /// Counts one transaction as ended; says whether it was the last.
    func completeOne() -> Bool {
        counts.withLock { counts in
            counts.remaining -= 1
            return counts.remaining == 0
        }
    }
}

/// Restoring purchases: what the store says the user owns, verified, recorded and told.
extension StoreWorker {
    /// Restores what the store says the user owns. Without a verifier it all happens here; with one, each
    /// transaction is verified, recorded and told beside the job loop (`runBeside`, in the requests' lane with
    /// payments, never behind launch redelivery or retries), so that a slow server holds up no later request, and the last
    /// of them to end queues the one `restoreFinished`, after every `restored`. A close meanwhile cancels
    /// the restore like any request in progress: it gets no further event.
    func restore(_ requestID: RequestID) async {
        let owned: [StoreTransaction]
        do {
            owned = try await backend.restore()
        } catch {
            events.push(.restoreFinished(requestID: requestID, result: .failure(error)))
            return
        }
        let heldUnfinished = await unfinishedIDsInStore(unless: owned.isEmpty)
        let progress = RestoreProgress(remaining: owned.count)
        guard verifier != nil, !owned.isEmpty else {
            for transaction in owned {
                await restoreOne(transaction, requestID, heldUnfinished: heldUnfinished, progress)
            }
            finishRestore(requestID, progress)
            return
        }
        for transaction in owned {
            runBeside(.requests) {
                await self.restoreOne(transaction, requestID, heldUnfinished: heldUnfinished, progress)
                if progress.completeOne() { self.finishRestore(requestID, progress) }
            }
        }
    }

    /// Verifies, records and tells one restored transaction. A journal write that fails tells nothing of it
    /// and makes the restore end failed.
    private func restoreOne(_ transaction: StoreTransaction, _ requestID: RequestID,
                            heldUnfinished: UnfinishedInStore, _ progress: RestoreProgress) async {
        // Run in order (no verifier), the restore stops at its first journal error, as it always did.
        if verifier == nil && progress.error != nil { return }
        let verdict = await verify(transaction)
        let outcome: VerificationOutcome?
        let takeBack = refundTakeBack()
        let written: Journal.Written
        do {
            // Restoring charges nothing, so what the journal first hears of here is recorded finished,
            // unless the store still holds it unfinished: a purchase not yet delivered (launch redelivery
            // or an update is about to), which a finished mark would have it take for delivered.
            written = try journal.written(transaction, finished: !heldUnfinished.contains(transaction.id), verdict: verdict,
                                          telling: true, takeBack: takeBack)
            outcome = judged(transaction, verdict, written.record)
        } catch {
            progress.fail(error)
            return
        }
        if written.record.refund != .notRefunded {
            // Refunded (this copy, or one recorded before, which a stale listed copy does not undo): never restored,
            // which would hand back what was refunded. A refund this write recorded is told.
            if written.recordedRefund { tellRevocationOnce(transaction, takeBack: takeBack) }
            return
        }
        switch outcome {
        case .failed(let error):
            events.push(.verificationFailed(requestID: nil, transaction: transaction, error: error))
        case .retryLater(let error):
            // Not verified, so not restored: checked again on the retry timer, as a delivery is (a newest renewal
            // waiting for its check keeps the older period from entitling), and by a later restore.
            events.push(.verificationFailed(requestID: nil, transaction: transaction,
                                            error: StoreError(.verificationRetryable, error.message)))
            if written.record.verdict == .notVerified { checkAgainLater(transaction) }
        case .verified, nil:
            events.push(.restored(requestID: requestID, transaction: transaction))
            progress.countRestored()
        }
    }

    private func finishRestore(_ requestID: RequestID, _ progress: RestoreProgress) {
        let result: Result<Int, StoreError> = progress.error.map { .failure($0) } ?? .success(progress.restored)
        events.push(.restoreFinished(requestID: requestID, result: result))
    }
}
