import Foundation

/// One unit of work the game asked for; the worker runs them one at a time, in order. (Verifying a
/// payment's transaction, and checking a transaction again, run beside them: see `runBesideJobs`.)
enum StoreJob: Sendable {
    case products(RequestID, [String])
    case payment(RequestID, PaymentRequest, StoreProduct)
    case restore(RequestID)
    case finish(UInt64)
    /// The game's handler of the `revoked` event of this transaction returned: the journal notes the refund told
    /// (see `StoreWorker.delivered`).
    case revocationAnnounced(UInt64)
    /// The App Store's sheets, which wait for the user: shown beside the job loop (see `showSheet`).
    case refundRequest(RequestID, transactionID: UInt64, UIContext?)
    case manageSubscriptions(RequestID, UIContext?)
}

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

/// Which transactions the store holds unfinished, as far as it could say.
private enum UnfinishedInStore: Sendable {
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

/// The state the facade and its worker share.
struct SharedStoreState {
    var isOpen = true
    var nextRequestID: RequestID = 1
    /// Products from the latest products requests, by id: what a payment may name.
    var products: [String: StoreProduct] = [:]
    /// What this launch has done with each transaction (delivered it, told its refund, ...).
    var launch = LaunchMarks()
    /// Products whose purchase is in progress in the store now (counted per product): until it returns, a
    /// request-less delivery of that product waits in `heldDeliveries`, since the charge can be listed
    /// unfinished (and found by launch redelivery) before `purchase` returns it to its payment.
    var purchasesInProgress: [String: Int] = [:]
    var heldDeliveries: [StoreTransaction] = []
}

/// Runs requests against the backend, off the game's thread, and turns results into journal writes and
/// then events, in that order: nothing is announced before it is durable.
///
/// Requests run one at a time, in order, on the job loop (`run`). What waits on a verification server
/// runs beside it (`runBesideJobs`), `verificationConcurrency` at a time: a payment's verification and
/// delivery (with a verifier), the checks of transactions whose verification could not complete, and
/// launch redelivery. A slow server then holds up no request.
final class StoreWorker: Sendable {
    let backend: any StoreBackend
    let journal: Journal
    let events: EventQueue
    let state: Locked<SharedStoreState>
    let verifier: (any TransactionVerifier)?
    /// The grant ledger, for its refund rule: what a refund's take-back deducts.
    private let ledger: GrantLedger
    private let retryPolicy: VerificationRetryPolicy
    /// Work queued to run beside the job loop, and its sink; the sink finishes when the job queue does
    /// (the store closed), so that queuing work afterwards does nothing.
    private let besideJobs: AsyncStream<@Sendable () async -> Void>
    private let besideJobsSink: AsyncStream<@Sendable () async -> Void>.Continuation
    /// The job queue, for the acknowledgements of delivered refunds.
    private let jobsSink: AsyncStream<StoreJob>.Continuation
    /// Bounds the work running beside the job loop.
    private let limiter = AsyncLimiter(limit: StoreWorker.verificationConcurrency)
    /// The tasks of their own that close cancels (retry timers, sheets open for the user), by number; `nil`
    /// once closed.
    private let ownTasks = Locked<(next: Int, running: [Int: Task<Void, Never>])?>((0, [:]))

    /// How many transactions are verified (and delivered) at once beside the job loop.
    static let verificationConcurrency = 4

    init(backend: any StoreBackend, journal: Journal, events: EventQueue, ledger: GrantLedger, verifier: (any TransactionVerifier)?,
         retryPolicy: VerificationRetryPolicy, jobs: AsyncStream<StoreJob>.Continuation) {
        self.backend = backend
        self.journal = journal
        self.events = events
        self.ledger = ledger
        self.state = Locked(SharedStoreState())
        self.verifier = verifier
        self.retryPolicy = retryPolicy
        let (besideJobs, besideJobsSink) = AsyncStream<@Sendable () async -> Void>.makeStream()
        self.besideJobs = besideJobs
        self.besideJobsSink = besideJobsSink
        self.jobsSink = jobs
        // Closing finishes the job queue: the work beside it stops being taken then too, and the tasks of their
        // own are cancelled (what they would queue after close is not taken anyway).
        let ownTasks = self.ownTasks
        jobs.onTermination = { _ in
            besideJobsSink.finish()
            let running = ownTasks.withLock { tasks in
                defer { tasks = nil }
                return tasks?.running.values.map { $0 } ?? []
            }
            for task in running { task.cancel() }
        }
    }

    func run(_ job: StoreJob) async {
        switch job {
        case .refundRequest, .manageSubscriptions:
            showSheet(job)
        case .products(let requestID, let ids):
            await requestProducts(requestID, ids)
        case .payment(let requestID, let request, let product):
            await pay(requestID, request, product)
        case .restore(let requestID):
            await restore(requestID)
        case .finish(let transactionID):
            // The journal already holds the finish mark; a failure here only means the store keeps the
            // transaction unfinished, and the next launch's sync finishes it again.
            try? await backend.finish(transactionID: transactionID)
        case .revocationAnnounced(let transactionID):
            // Failing (the take-back with it too), the refund stays to tell: told again at the next launch.
            // Written, then let go: a close meanwhile finds it still to note and writes it before it lets
            // the journal's directory go (writing twice is harmless: the second finds it told).
            guard state.withLock({ $0.launch.contains(.revocationToNote, transactionID) }) else { return }
            acknowledgeRefund(transactionID)
            state.withLock { $0.launch.remove(.revocationToNote, transactionID) }
        }
    }

    /// Shows a refund request or manage subscriptions sheet in a task of its own, where it may wait for the user
    /// for minutes without holding up later requests, the verifications beside them (it takes no turn of
    /// theirs) or close, and queues the one event that says how it ended. A close meanwhile cancels it like any
    /// request in progress: no further event.
    private func showSheet(_ job: StoreJob) {
        switch job {
        case .refundRequest(let requestID, let transactionID, let uiContext):
            runUntilClose {
                let result: Result<RefundRequestOutcome, StoreError>
                do throws(StoreError) {
                    result = .success(try await self.backend.beginRefundRequest(transactionID: transactionID, uiContext: uiContext))
                } catch {
                    result = .failure(error)
                }
                self.events.push(.refundRequestFinished(requestID: requestID, transactionID: transactionID, result: result))
            }
        case .manageSubscriptions(let requestID, let uiContext):
            runUntilClose {
                var failure: StoreError?
                do throws(StoreError) {
                    try await self.backend.showManageSubscriptions(uiContext: uiContext)
                } catch {
                    failure = error
                }
                self.events.push(.manageSubscriptionsClosed(requestID: requestID, error: failure))
            }
        default:
            return
        }
    }

    /// Notes the refunds handled by the game that the job loop has not noted yet: close calls it before it
    /// lets the journal's directory go.
    func noteDeliveredRevocations() {
        let ids = state.withLock { $0.launch.ids(.revocationToNote) }
        for id in ids { acknowledgeRefund(id) }
    }

    /// Notes refund `id` told, taking back its grant in the same commit if its recording could not (by the game's
    /// refund rule now). A failure leaves it to tell: told again, and taken back then, at the next launch.
    private func acknowledgeRefund(_ id: UInt64) {
        try? journal.acknowledgeRefund(id, deductingCurrency: ledger.deductsRefundedConsumables)
    }

    /// How a refund recorded now takes back its grant: in the same commit, by the game's refund rule, once the game
    /// has started taking events (it sets the rule before its first poll); before that, when the refund is noted
    /// told, by the rule of that moment.
    private func refundTakeBack() -> Journal.TakeBack {
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
            _ = state.launch.insert(.revocationToNote, transaction.id)
            jobsSink.yield(.revocationAnnounced(transaction.id))
        }
    }

    /// Runs the work queued beside the job loop until the store closes, `verificationConcurrency` items at
    /// a time, launch redelivery's among them. An item whose turn comes after close is dropped:
    /// what it would have delivered is still unfinished (in the journal or the store) and comes back at
    /// the next launch.
    func runBesideJobs() async {
        await withDiscardingTaskGroup { group in
            // Reading the launch lists may take a while (the store's list): payments' work runs meanwhile.
            group.addTask { await self.queueLaunchRedelivery() }
            for await work in besideJobs {
                group.addTask {
                    await self.limiter.run {
                        guard self.state.withLock({ $0.isOpen }) else { return }
                        await work()
                    }
                }
            }
        }
    }

    /// Queues `work` to run beside the job loop; after close, does nothing.
    private func runBeside(_ work: @escaping @Sendable () async -> Void) {
        besideJobsSink.yield(work)
    }

    func handle(_ update: StoreUpdate) async {
        switch update {
        case .purchased(let transaction):
            await deliver(transaction, requestID: nil)
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
        case .expired, .revoked:
            await applyStatusChange(update)
        }
    }

    /// Journals a revocation or an expiration once it is verified like a purchase, so that nothing unsigned
    /// changes the journal, then tells the game. One that fails verification changes nothing; one whose
    /// verification cannot complete is said once and checked again later, until it completes.
    private func applyStatusChange(_ update: StoreUpdate, attempt: Int = 0) async {
        let transaction: StoreTransaction
        switch update {
        case .revoked(let changed), .expired(let changed): transaction = changed
        case .purchased, .declined, .purchaseIntent, .message, .storefrontChanged: return
        }
        // A refund the record holds already is told by whoever recorded it, or was told (a store reports refunds
        // again at launch), or is told again at launch; one being checked now is told by that check. The record's
        // refund state says so, not its copy: a refunded copy an expiry wrote recorded the refund too.
        var isRevocation = false
        if case .revoked = update {
            guard ((try? journal.refundState(of: transaction.id)) ?? .notRefunded) == .notRefunded,
                  state.withLock({ $0.launch.insert(.revocationInFlight, transaction.id) }) else { return }
            isRevocation = true
        }
        defer { if isRevocation { state.withLock { $0.launch.remove(.revocationInFlight, transaction.id) } } }
        let check = await verifiedStatusChange(update, transaction, attempt: attempt)
        guard check.passed else { return }
        let verdict = check.verdict
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
                events.push(.expired(transaction: transaction))
                if written.recordedRefund { tellRevocationOnce(transaction, takeBack: takeBack) }
            }
        } catch {
            // Not journaled: the store reports it again (revocations with its entitlements); an expired
            // subscription still ends by the expiration date the journal already has.
        }
    }

    // MARK: - Jobs

    private func requestProducts(_ requestID: RequestID, _ ids: [String]) async {
        do {
            let found = try await backend.products(for: ids)
            let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let products = ids.compactMap { byID[$0] }
            state.withLock { state in
                for product in products { state.products[product.id] = product }
            }
            events.push(.productsReceived(requestID: requestID, products: products,
                                          invalidProductIDs: ids.filter { byID[$0] == nil }))
        } catch {
            events.push(.productsFailed(requestID: requestID, error: error))
        }
    }

    private func pay(_ requestID: RequestID, _ request: PaymentRequest, _ product: StoreProduct) async {
        events.push(.purchasing(requestID: requestID, productID: product.id, quantity: request.quantity))
        state.withLock { $0.purchasesInProgress[product.id, default: 0] += 1 }
        let outcome: PurchaseOutcome
        do {
            outcome = try await backend.purchase(request, product: product)
        } catch {
            releaseHeldDeliveries(purchasing: product.id, paid: nil)
            events.push(.failed(requestID: requestID, productID: product.id, error: error))
            return
        }
        if case .purchased(let transaction) = outcome {
            releaseHeldDeliveries(purchasing: product.id, paid: transaction.id)
        } else {
            releaseHeldDeliveries(purchasing: product.id, paid: nil)
        }
        switch outcome {
        case .purchased(let transaction):
            @Sendable func deliverPayment() async {
                await deliver(transaction, requestID: requestID)
                state.withLock { $0.launch.remove(.deliveredByPayment, transaction.id) }
            }
            if verifier == nil {
                // Nothing to wait for: delivered at once, before any update the purchase caused (an
                // upgrade's `expired`).
                await deliverPayment()
            } else {
                // Verified beside the job loop: a slow server holds up no later request. The store keeps
                // the transaction unfinished until the game finishes it, so a close meanwhile loses nothing.
                runBeside { await deliverPayment() }
            }
        case .cancelled:
            events.push(.cancelled(requestID: requestID, productID: product.id))
        case .deferred:
            events.push(.deferred(requestID: requestID, productID: product.id))
        }
    }

    /// Ends a purchase of `productID` in progress: its charge (`paid`), if any, is now told by its payment, and
    /// once no purchase of the product is in progress, the request-less deliveries held meanwhile go out, but
    /// not the payment's own charge.
    private func releaseHeldDeliveries(purchasing productID: String, paid: UInt64?) {
        let released: [StoreTransaction] = state.withLock { state in
            if let paid { _ = state.launch.insert(.deliveredByPayment, paid) }
            let remaining = (state.purchasesInProgress[productID] ?? 1) - 1
            state.purchasesInProgress[productID] = remaining > 0 ? remaining : nil
            guard remaining <= 0 else { return [] }
            let released = state.heldDeliveries.filter { $0.productID == productID }
            state.heldDeliveries.removeAll { $0.productID == productID }
            return released
        }
        for transaction in released { queuePurchasedOnce(transaction, requestID: nil) }
    }

    /// Restores what the store says the user owns. Without a verifier it all happens here; with one, each
    /// transaction is verified, recorded and told beside the job loop (`runBeside`, through the same limiter
    /// as payments and launch redelivery), so that a slow server holds up no later request, and the last
    /// of them to end queues the one `restoreFinished`, after every `restored`. A close meanwhile cancels
    /// the restore like any request in progress: it gets no further event.
    private func restore(_ requestID: RequestID) async {
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
            runBeside {
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
        do {
            // Restoring charges nothing, so what the journal first hears of here is recorded finished,
            // unless the store still holds it unfinished: a purchase not yet delivered (launch redelivery
            // or an update is about to), which a finished mark would have it take for delivered.
            let written = try journal.written(transaction, finished: !heldUnfinished.contains(transaction.id), verdict: verdict,
                                              telling: true, takeBack: refundTakeBack())
            outcome = judged(transaction, verdict, written.record)
        } catch {
            progress.fail(error)
            return
        }
        switch outcome {
        case .failed(let error):
            events.push(.verificationFailed(requestID: nil, transaction: transaction, error: error))
        case .retryLater(let error):
            // Not verified, so not restored: a later restore checks it again.
            events.push(.verificationFailed(requestID: nil, transaction: transaction,
                                            error: StoreError(.verificationRetryable, error.message)))
        case .verified, nil:
            events.push(.restored(requestID: requestID, transaction: transaction))
            progress.countRestored()
        }
    }

    private func finishRestore(_ requestID: RequestID, _ progress: RestoreProgress) {
        let result: Result<Int, StoreError> = progress.error.map { .failure($0) } ?? .success(progress.restored)
        events.push(.restoreFinished(requestID: requestID, result: result))
    }

    /// Queues `revoked` for `transaction` unless this launch has queued it already. A refund whose take-back the
    /// commit that recorded it left for later (`takeBack`, before the game's first poll) is taken back as the
    /// event is handed out, by the game's refund rule then: the game's handler never sees the refunded grant
    /// still counted, however often it fails.
    private func tellRevocationOnce(_ transaction: StoreTransaction, takeBack: Journal.TakeBack) {
        if state.withLock({ $0.launch.insert(.revocationTold, transaction.id) }) {
            if takeBack == .whenTold { ledger.takeBackAtHandOut(transaction.id) }
            events.push(.revoked(transaction: transaction))
        }
    }

    /// The ids of the transactions the store holds unfinished now, or none if `skipped`. A store that cannot
    /// list them counts as holding every one: a transaction wrongly kept unfinished comes back as a purchase
    /// the game finishes again, while one wrongly marked finished would never be delivered.
    private func unfinishedIDsInStore(unless skipped: Bool = false) async -> UnfinishedInStore {
        if skipped { return .listed([]) }
        guard let held = try? await backend.unfinishedTransactions() else { return .unknown }
        return .listed(Set(held.map(\.id)))
    }

    /// Launch redelivery and the other work beside the job loop, until the store closes: see
    /// `runBesideJobs`. The store's launch calls it beside the job loop.
    func redeliverUnfinished() async {
        await runBesideJobs()
    }

    /// Queues the delivery again of the journal's unfinished transactions, then of what the store still
    /// holds unfinished but the journal lacks (a crash between the charge and the journal write), and the
    /// finish marks the store missed, after telling again the refunds still to tell (no handler of them returned
    /// before). The store is asked first, and its copy of a transaction wins over the
    /// journal's: it may be newer (refunded while the game was closed), and StoreKit gives its verdicts as it
    /// hands transactions over. The journal's copy, judged with its recorded verdict, serves for the rest;
    /// a journal row that cannot be decoded, and that the store no longer holds, is told as
    /// `journalRowUnreadable` (and kept). The work runs beside the request jobs, `verificationConcurrency` transactions at a time, so that a
    /// slow verification server holds up neither requests nor the other transactions.
    private func queueLaunchRedelivery() async {
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
        for transaction in fromStore where !journaledIDs.contains(transaction.id) {
            if (try? journal.isFinished(transaction.id)) == true {
                work.append { try? await self.backend.finish(transactionID: transaction.id) }
            } else {
                work.append { await self.redeliver(transaction) }
            }
        }
        work.forEach(runBeside)
    }

    /// Tells the game of each journal row it cannot read, once per launch (launch redelivery and the
    /// entitlement reads may both come across it).
    func reportUnreadable(_ rows: [Journal.UnreadableRow]) {
        for row in rows where state.withLock({ $0.launch.insert(.unreadableRowReported, row.transactionID) }) {
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

    // MARK: - Delivery

    /// The verdict on `transaction`, or `nil` when the store does not verify: the backend's own failure if
    /// it forces one, else the verifier's.
    /// `recorded` is the journal's verdict from an earlier launch, for a transaction it delivers again.
    private func verify(_ transaction: StoreTransaction, recorded: RecordedVerdict? = nil) async -> VerificationOutcome? {
        guard let verifier else { return nil }
        if let forced = backend.forcedVerificationFailure(of: transaction) { return .failed(forced) }
        if let recorded { return await verifier.verify(transaction, recorded: recorded) }
        return await verifier.verify(transaction)
    }

    /// What the game is told of a transaction the journal has just recorded with `verdict` as `record`: the
    /// verifier's verdict; with none, the one its record holds, which is never weakened: a transaction a verifier
    /// failed, or has not passed yet, in an earlier launch is told as failed again, and is no entitlement, until a
    /// verifier passes it. (The same rule made the record told, or not, in that commit: `allowsTelling`.)
    private func judged(_ transaction: StoreTransaction, _ verdict: VerificationOutcome?, _ record: JournalRecord) -> VerificationOutcome? {
        guard verdict == nil, record.verdict == .notVerified else { return verdict }
        return .failed(StoreError(.verificationInvalidSignature, "transaction \(transaction.id) did not pass verification in an "
            + "earlier launch, and no verifier is set to check it again"))
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
            events.push(.verificationFailed(requestID: nil, transaction: transaction, error: error))
        case .retryLater(let error):
            if attempt == 0 {
                events.push(.verificationFailed(requestID: nil, transaction: transaction,
                                                error: StoreError(.verificationRetryable, error.message)))
            }
            retry(attempt: attempt + 1) { await self.applyStatusChange(update, attempt: attempt + 1) }
        }
        return (false, outcome)
    }

    /// Queues `check` beside the job loop after the retry policy's delay before attempt `attempt`: each
    /// transaction waits on a timer of its own. Closing ends the timers: nothing is queued after it.
    private func retry(attempt: Int, _ check: @escaping @Sendable () async -> Void) {
        let sink = besideJobsSink
        let delay = retryPolicy.delay(before: attempt)
        runUntilClose {
            guard (try? await Task.sleep(for: delay)) != nil else { return }  // cancelled: closed
            sink.yield(check)
        }
    }

    /// Runs `body` in a task of its own, which close cancels: for waits that must hold up neither the job loop,
    /// the work beside it, nor close (a retry timer, a sheet open for the user). After close, starts nothing.
    /// On the library's own thread, not Swift's concurrency pool: a pool the game keeps busy delays no retry or sheet.
    private func runUntilClose(_ body: @escaping @Sendable () async -> Void) {
        let tasks = ownTasks
        tasks.withLock { state in
            guard let number = state?.next else { return }  // closed
            state?.next += 1
            state?.running[number] = Task.detached(executorPreference: SerialThreadExecutor.libraryTasks) {
                await body()
                tasks.withLock { _ = $0?.running.removeValue(forKey: number) }
            }
        }
    }

    /// Verifies a purchased transaction if the store has a verifier, journals it with the verdict, then
    /// queues its event. (Verifying first spares a second commit for the verdict; a crash before the journal
    /// write loses nothing, since the store still holds the transaction unfinished.) Outside a request, a
    /// transaction finished before is not delivered again (it is never granted twice), nor one already
    /// queued in this launch.
    private func deliver(_ transaction: StoreTransaction, requestID: RequestID?, attempt: Int = 0,
                         recorded verdict: RecordedVerdict? = nil) async {
        let checked = await verify(transaction, recorded: verdict)
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
        if requestID == nil && written.found == .knownFinished { return }
        switch outcome {
        case .failed(let error):
            events.push(.verificationFailed(requestID: requestID, transaction: transaction, error: error))
            return
        case .retryLater(let error):
            // Still unfinished in the journal: nothing is lost. Said once, retried quietly until it completes.
            if attempt == 0 {
                events.push(.verificationFailed(requestID: requestID, transaction: transaction,
                                                error: StoreError(.verificationRetryable, error.message)))
            }
            retry(attempt: attempt + 1) { await self.deliver(transaction, requestID: nil, attempt: attempt + 1) }
            return
        case .verified, nil:
            break
        }
        if let requestID {
            // A request always ends. A store answers a purchase of something already owned with the
            // transaction that grants it, possibly finished long ago: granting ownership again is harmless.
            state.withLock { _ = $0.launch.insert(.delivered, transaction.id) }
            events.push(.purchased(requestID: requestID, transaction: transaction))
        } else {
            queuePurchasedOnce(transaction, requestID: nil)
        }
    }

    private func queuePurchasedOnce(_ transaction: StoreTransaction, requestID: RequestID?) {
        let isFirst = state.withLock { state in
            guard !state.launch.contains(.deliveredByPayment, transaction.id) else { return false }
            if state.purchasesInProgress[transaction.productID] != nil {
                // Perhaps the charge of a purchase still in progress: decided once it returns.
                state.heldDeliveries.append(transaction)
                return false
            }
            return state.launch.insert(.delivered, transaction.id)
        }
        if isFirst { events.push(.purchased(requestID: requestID, transaction: transaction)) }
    }
}
