#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Store updates: purchases from outside a request, messages, and revocations and expirations verified and journaled.
extension StoreWorker {
    func handle(_ update: StoreUpdate) async {
        var update = update
        if case .refundFound(let refunded) = update {
            // Of a transaction the journal holds, or of a subscription it holds (a renewal made and refunded while the
            // game was closed ends the period the journal has).
            guard (try? journal.isRecorded(refunded.id)) == true || (try? journal.holdsAcceptedRecord(of: refunded)) == true else { return }
            update = .revoked(refunded)
        }
        // What a verifier checks runs beside the updates loop, each transaction's updates in order (the entitlements
        // reported at launch among them): a check that hangs holds up no other transaction's update, nor messages,
        // intents or storefront changes.
        if verifier != nil {
            switch update {
            case .purchased(let transaction), .deferredPurchaseCompleted(let transaction), .revoked(let transaction),
                 .expired(let transaction), .entitled(let transaction), .refundFound(let transaction),
                 .gracePeriodEnded(let transaction):
                runUpdateBeside(of: transaction.originalID) { [update] in await self.apply(update) }
                return
            case .declined, .purchaseIntent, .message, .storefrontChanged:
                break
            }
        }
        await apply(update)
    }

    /// Handles one update, in the updates loop or beside it (`handle`).
    private func apply(_ update: StoreUpdate) async {
        switch update {
        case .purchased(let transaction):
            await deliver(transaction, requestID: nil)
        case .deferredPurchaseCompleted(let transaction):
            // The game was told the purchase is deferred: it hears how it ended, also when the transaction was told
            // before in this launch (a purchase of something owned). One the game finished is not told again: no
            // finished transaction is told outside a request, and what it grants the game has (the entitlement
            // stands); a told-again finished one would live only in memory until handed out.
            await deliver(transaction, requestID: nil, endsDeferral: true)
        case .declined(let productID):
            events.push(.declined(productID: productID))
        case .purchaseIntent(let product, let offer):
            // Loaded, so that the game can pay for it at once.
            state.withLock { $0.products[product.id] = product }
            events.push(.purchaseIntent(product: product, offer: offer))
        case .message(let message):
            events.push(.storeKitMessage(message: message))
        case .storefrontChanged(let storefront):
            events.push(.storefrontChanged(storefront: storefront))
        case .expired, .revoked, .refundFound:  // (`refundFound` arrives here as `revoked`: `handle`)
            await applyStatusChange(update)
        case .entitled(let transaction):
            await recordEntitlement(transaction)
        case .gracePeriodEnded(let transaction):
            // Noted before the record changes: a grace end written by a check that raced this one is ended again
            // by that check (`recordEntitlement`).
            flights.withLock { $0.noteGracePeriodEnded(transaction.id, signedAt: transaction.renewalInfoSignedDate ?? now()) }
            if let ended = try? journal.endGracePeriod(of: transaction, now: now()),
               flights.withLock({ $0.insert(.expiryTold, transaction.id) }) {
                events.push(.expired(transaction: ended))
            }
        }
    }

    /// Records a transaction the store says the user owns now, told nothing, when the journal does not hold it (a
    /// reinstall, a new device): unless the store holds it unfinished (launch redelivery tells it) or a delivery of
    /// it runs in this launch. A copy the journal holds is replaced only on an unrevoked record (never a pending
    /// refund's) that the journal accepted or holds finished (a restore's copy whose check failed or could not
    /// complete, which StoreKit may since have signed anew: the copy it lists then passes where the held one can get
    /// no verdict), or by a later grace period's end on a record still waiting for its delivery's verdict (the
    /// status brings it once; the delivery's own check passes the copy without it): that record, passed now, is
    /// told as a purchase here, once. Only by a copy as new or newer (the journal's ranking), and never to lower a grace
    /// period's end. A refunded copy comes as `revoked`. One whose check fails or cannot
    /// complete is not recorded: the store lists it again at the next launch. One whose check cannot complete, or
    /// met while the store cannot list its unfinished transactions, is also checked again on the retry timer in
    /// this launch, one chain per transaction, which checks the copy
    /// reported last: a reinstalled player is entitled once a server answers, not a launch later. (A restore records
    /// failed verdicts: it tells them; this report tells nothing.)
    func recordEntitlement(_ transaction: StoreTransaction, attempt: Int = 0) async {
        guard !transaction.isRevoked else { return }
        var transaction = transaction
        if flights.withLock({ $0.isStaleGracePeriod(transaction) }) {
            // A grace period the store has said since is over (a report read before that, retried or late).
            transaction.gracePeriodExpirationDate = nil
            transaction.signedRenewalInfo = nil
        }
        var waitsForDelivery = false
        if let held = try? journal.recordedCopy(of: transaction.id) {
            let grace = transaction.gracePeriodExpirationDate ?? .distantPast, heldGrace = held.gracePeriodExpirationDate ?? .distantPast
            guard !held.isRevoked, grace >= heldGrace, held.signedJWS != transaction.signedJWS || grace > heldGrace else { return }
            if (try? journal.holdsAcceptedRecord(of: held)) != true && (try? journal.isFinished(held.id)) != true {
                guard grace > heldGrace else { return }
                waitsForDelivery = true
            }
        } else {
            let inFlight = flights.withLock { $0.contains(.delivered, transaction.id) || $0.contains(.deliveredByPayment, transaction.id) }
            guard !inFlight else { return }
            switch await unfinishedIDsInStore() {
            case .listed(let ids):
                guard !ids.contains(transaction.id) else { return }
            case .unknown:
                // Perhaps unfinished, which launch redelivery could not list either: asked again later.
                checkEntitlementAgainLater(transaction, attempt: attempt)
                return
            }
        }
        let verdict = await verify(transaction)
        switch verdict {
        case .verified, nil:
            let written = try? journal.written(transaction, finished: true, verdict: verdict, telling: waitsForDelivery,
                                               takeBack: refundTakeBack())
            if flights.withLock({ $0.isStaleGracePeriod(transaction) }) {
                // The store said the grace period is over while this copy was checked: that end must not stand.
                _ = try? journal.endGracePeriod(of: transaction, now: now())
            }
            if waitsForDelivery, let record = written?.record, record.told, !record.finished {
                queuePurchasedOnce(transaction, requestID: nil)
            }
        case .failed:
            return
        case .retryLater:
            checkEntitlementAgainLater(transaction, attempt: attempt)
        }
    }

    /// `recordEntitlement` of `transaction` again on the retry timer, unless a chain of retries of it is waiting:
    /// that one takes the copy reported last.
    private func checkEntitlementAgainLater(_ transaction: StoreTransaction, attempt: Int) {
        guard flights.withLock({ $0.keepEntitlementToCheck(transaction) }) else { return }  // its chain checks this copy
        retry(attempt: attempt + 1) {
            guard let newest = self.flights.withLock({ $0.takeEntitlementToCheck(transaction.id) }) else { return }
            await self.recordEntitlement(newest, attempt: attempt + 1)
        }
    }

    /// Journals a revocation or an expiration once it is verified like a purchase, so that nothing unsigned
    /// changes the journal, then tells the game. One that fails verification changes nothing; one whose
    /// verification cannot complete is said once and checked again later, until it completes.
    func applyStatusChange(_ update: StoreUpdate, attempt: Int = 0) async {
        let transaction: StoreTransaction
        switch update {
        case .revoked(let changed), .expired(let changed): transaction = changed
        case .purchased, .deferredPurchaseCompleted, .declined, .purchaseIntent, .message, .storefrontChanged, .entitled,
             .refundFound, .gracePeriodEnded: return
        }
        // A refund the record holds already is told by whoever recorded it, or was told (a store reports refunds
        // again at launch), or is told again at launch; one being checked now is told by that check. The record's
        // refund state says so, not its copy: a refunded copy an expiry wrote recorded the refund too. A record
        // whose row cannot be read takes the copy, which mends the row (and tells nothing again).
        var isRevocation = false
        if case .revoked = update {
            guard !((try? journal.holdsReadableRefund(of: transaction.id)) ?? false),
                  flights.withLock({ $0.insert(.revocationInFlight, transaction.id) }) else { return }
            isRevocation = true
        }
        defer { if isRevocation { flights.withLock { $0.remove(.revocationInFlight, transaction.id) } } }
        let check = await verifiedStatusChange(update, transaction, attempt: attempt)
        guard check.passed else { return }
        let verdict = check.verdict
        // Judged: the chain of retries of this transaction's refund or expiry ends. One it kept that says more (a
        // refund met while this expiry waited) is applied next.
        let waiting = flights.withLock { $0.takeStatusChangeToCheck(transaction.id) }
        defer { if let waiting, waiting != update { runUpdateBeside(of: transaction.originalID) { await self.applyStatusChange(waiting) } } }
        do {
            if case .revoked = update {
                // Recorded finished (a revoked transaction has nothing left to grant: it must never come back
                // as a purchase) and to tell, its grant taken back in the same commit: told again at each launch
                // until a handler of it returned. Not if another path recorded it meanwhile: that one tells it.
                let takeBack = refundTakeBack()
                if try journal.recordRevocation(transaction, verdict: verdict, takeBack: takeBack) {
                    tellRevocationOnce(transaction, takeBack: takeBack)
                }
            } else {
                // Recorded so that entitlements see it: finished if new, unless the store still holds it
                // unfinished. Then it is a purchase never delivered (the game died between the charge and the
                // journal write), and launch redelivery may not have listed it yet: a finished mark would have
                // it finished unseen. It is delivered first, and stays unfinished until the game (or the
                // ledger) finishes it.
                // A refunded copy is never delivered: that would hand out what was refunded. It records the refund
                // (when the record did not hold it): told after the expiry, once.
                var undelivered = false
                if !transaction.isRevoked, try !journal.isRecorded(transaction.id) {
                    undelivered = await unfinishedIDsInStore().contains(transaction.id)
                }
                let takeBack = refundTakeBack()
                let written = try journal.written(transaction, finished: !undelivered, verdict: verdict, telling: undelivered,
                                                  takeBack: takeBack)
                if undelivered && written.found != .knownFinished { queuePurchasedOnce(transaction, requestID: nil) }
                backend.endRecorded(transactionID: transaction.id)
                if flights.withLock({ $0.insert(.expiryTold, transaction.id) }) { events.push(.expired(transaction: transaction)) }
                if written.recordedRefund { tellRevocationOnce(transaction, takeBack: takeBack) }
            }
        } catch {
            // Not journaled: the store reports it again (revocations with its entitlements); an expired
            // subscription still ends by the expiration date the journal already has.
        }
    }

    /// Whether a revocation or an expiration passed (or nothing verifies), with the verdict to journal it with.
    /// One that did not pass changes nothing the journal holds, and the game hears why; a check that could not
    /// complete is tried again.
    private func verifiedStatusChange(_ update: StoreUpdate, _ transaction: StoreTransaction,
                                      attempt: Int) async -> (passed: Bool, verdict: VerificationOutcome?) {
        let outcome = await verify(transaction)
        switch outcome {
        case .verified, nil:
            return (true, outcome)
        case .failed(let error):
            _ = flights.withLock { $0.takeStatusChangeToCheck(transaction.id) }  // judged: its chain ends
            events.push(.verificationFailed(requestID: nil, transaction: transaction, error: error))
        case .retryLater(let error):
            // One chain of retries per transaction, however often the store reports its refund or expiry meanwhile
            // (at launch and by its watcher, say): it checks the report that says most, and the game hears once.
            let isFirst = flights.withLock { $0.keepStatusChangeToCheck(update, of: transaction) }
            if attempt == 0 && isFirst {
                events.push(.verificationFailed(requestID: nil, transaction: transaction,
                                                error: StoreError(.verificationRetryable, error.message)))
            }
            if attempt == 0 {
                // A refund of a transaction the journal does not hold waits in the record, not only in the timer
                // below: written finished, pending (no entitlement, no refund recorded yet), it is checked again at
                // later launches (`finishedTransactionsNotVerified`, a bounded round each) until a verifier answers; one that passes records
                // the refund and tells it once. A store that reports a refund once (StoreKit) loses nothing to a close.
                if case .revoked = update, (try? journal.isRecorded(transaction.id)) == false {
                    _ = try? journal.written(transaction, finished: true, verdict: outcome, takeBack: refundTakeBack())
                }
            }
            // The chain goes on from its own attempts; a report met meanwhile only leaves what it says to check.
            if isFirst || attempt > 0 {
                retry(attempt: attempt + 1) {
                    guard let newest = self.flights.withLock({ $0.statusChangeToCheck(transaction.id) }) else { return }
                    await self.applyStatusChange(newest, attempt: attempt + 1)
                }
            }
        }
        return (false, outcome)
    }
}
