#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The store facade: products requests, payments, restores, finish and entitlements, with the results
/// delivered as `StoreEvent`s (C: `iosiap_store`).
///
/// Request calls validate their input, queue the work and return a `RequestID` at once; they never call
/// back into the game. Results are journaled, then queued, and reach the game through `poll` (once per
/// frame, on the game's thread) or the `events` sequence. All methods are safe from any thread.
public final class PurchaseStore: Sendable {
    /// The entitlements as last computed, from which read of the journal, and the span of time they hold for:
    /// asked every frame, they are computed again only after a write or when a transaction's start or end passes.
    private let entitlementView = Locked<EntitlementView?>(nil)
    private struct EntitlementView {
        var generation: Int
        var from: Date
        var until: Date
        var entitlements: [StoreTransaction]
    }

    private let worker: StoreWorker
    let ledger: GrantLedger
    private let jobs: AsyncStream<StoreJob>.Continuation
    private let now: @Sendable () -> Date
    private let executor: SerialThreadExecutor

    /// Opens the store over `backend`, keeping the journal in `stateDirectory`.
    ///
    /// Transactions left unfinished by earlier launches are delivered again, each as a `purchased` event
    /// without a request id (with what the backend still holds unfinished), beside the game's first requests:
    /// their verification holds up no request.
    /// - Parameters:
    ///   - verifier: checks every transaction before the game hears of it (on the device or on a server);
    ///     `nil` delivers them unchecked.
    ///   - retryPolicy: when a verification that could not complete is tried again.
    public convenience init(backend: any StoreBackend, stateDirectory: StateDirectory, verifier: (any TransactionVerifier)? = nil,
                            retryPolicy: VerificationRetryPolicy = VerificationRetryPolicy(),
                            now: @escaping @Sendable () -> Date = { Date() }) throws(StoreError) {
        try self.init(stateDirectory: stateDirectory, retryPolicy: retryPolicy, now: now) { () throws(StoreError) in
            (backend, verifier)
        }
    }

    /// Opens the store on `stateDirectory` over the backend and verifier `makeBackend` makes, called only once
    /// the directory is this store's (its journal's lock taken): an open refused because another store holds
    /// the directory never makes a backend, so a backend that keeps its own state there (the local store)
    /// changes nothing. If `makeBackend` throws, the directory is let go and the error is thrown.
    public init(stateDirectory: StateDirectory, retryPolicy: VerificationRetryPolicy = VerificationRetryPolicy(),
                now: @escaping @Sendable () -> Date = { Date() },
                makeBackend: () throws(StoreError) -> (backend: any StoreBackend, verifier: (any TransactionVerifier)?))
        throws(StoreError) {
        let journal = try Journal(directory: stateDirectory)
        let backend: any StoreBackend
        let verifier: (any TransactionVerifier)?
        do {
            (backend, verifier) = try makeBackend()
        } catch {
            journal.releaseDirectory()
            throw error
        }
        let (stream, continuation) = AsyncStream<StoreJob>.makeStream()
        let flights = Locked(TransactionFlights())
        let ledger = GrantLedger(journal: journal, flights: flights) { continuation.yield(.finish($0)) }
        let events = EventQueue()
        let worker = StoreWorker(backend: backend, journal: journal, events: events, ledger: ledger, flights: flights,
                                 verifier: verifier, retryPolicy: retryPolicy, jobs: continuation, now: now)
        self.worker = worker
        self.now = now
        self.ledger = ledger
        jobs = continuation
        let executor = SerialThreadExecutor(name: "iosiap.worker")
        self.executor = executor
        let updates = backend.updates()
        Task.detached(executorPreference: executor) {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await job in stream where worker.state.withLock({ $0.isOpen }) { await worker.run(job) }
                }
                // Beside the jobs: a slow verification of what an earlier launch left holds up no request.
                group.addTask { await worker.redeliverUnfinished() }
                group.addTask {
                    for await update in updates { await worker.handle(update) }
                }
            }
            // Both streams ended (the store closed): the worker's thread may go.
            executor.stop()
        }
    }

    deinit {
        close()
    }

    // MARK: - Requests

    /// Asks the store for products. Duplicate ids are asked once. Ends in `productsReceived` (with the
    /// invalid ids) or `productsFailed`. C: `iosiap_request_products`.
    @discardableResult
    public func requestProducts(_ productIDs: [String]) throws(StoreError) -> RequestID {
        let ids = try RequestValidation.uniqueProductIDs(productIDs)
        return try submit { .products($0, ids) }
    }

    /// Asks the store to buy a product loaded by an earlier products request. Emits `purchasing`, then ends
    /// in `purchased`, `cancelled`, `failed` or `deferred`. Bad input throws and charges nothing.
    /// C: `iosiap_request_payment`.
    @discardableResult
    public func requestPayment(_ request: PaymentRequest) throws(StoreError) -> RequestID {
        let loaded = worker.state.withLock { $0.products[request.productID] }
        let product = try RequestValidation.validatePayment(request, product: loaded)
        return try submit { .payment($0, request, product) }
    }

    /// Buys `quantity` of a loaded product, redeeming a promotional offer if one is given. See
    /// `requestPayment(_:)`.
    @discardableResult
    public func requestPayment(productID: String, quantity: Int = 1, appAccountToken: UUID? = nil,
                               promotionalOffer: SignedPromotionalOffer? = nil) throws(StoreError) -> RequestID {
        try requestPayment(PaymentRequest(productID: productID, quantity: quantity, appAccountToken: appAccountToken,
                                          promotionalOffer: promotionalOffer))
    }

    /// Asks the store for what the user owns. Emits `restored` for each non-consumable and active
    /// subscription, then always ends in exactly one `restoreFinished`. C: `iosiap_request_restore`.
    @discardableResult
    public func requestRestore() throws(StoreError) -> RequestID {
        try submit { .restore($0) }
    }

    /// Marks a transaction as granted, so it is not delivered again. Idempotent; an id the journal never
    /// recorded is an `unknownTransaction` error, and one the game was never told as `purchased` or `restored`
    /// (the id of a `verificationFailed`, whose check has not passed) is refused with `notDelivered`, finishing
    /// nothing: it is delivered once a verifier passes it. C: `iosiap_finish_transaction`.
    public func finish(transactionID: UInt64) throws(StoreError) {
        try ensureOpen()
        if try worker.journal.markFinished(transactionID) {
            jobs.yield(.finish(transactionID))
        }
        worker.flights.withLock { _ = $0.insert(.finished, transactionID) }
    }

    // MARK: - Events

    /// Delivers up to `limit` queued events to `handler` on the calling thread and returns how many it
    /// delivered. Cheap when nothing is queued: call it once per frame. It does not wait for the disk: the
    /// ledger's grants were committed by the worker (except for purchases queued before the first poll, see
    /// `registerGrant`). A `revoked` is told once `handler` has returned: it is not told again at the next
    /// launch. C: `iosiap_poll`.
    @discardableResult
    public func poll(limit: Int = .max, _ handler: (StoreEvent) -> Void) -> Int {
        deliverEvents(limit: limit) { event in
            handler(event)
            return true
        }
    }

    /// `poll`, with a handler that says whether it handled each event: one it did not handle (a C++ delegate
    /// threw) is not noted told, so a `revoked` among them is told again at the next launch.
    /// C: `iosiap_poll` with `iosiap_event_not_handled`.
    package func deliverEvents(limit: Int, to handler: (StoreEvent) -> Bool) -> Int {
        let batch = worker.events.drain(limit: limit)
        guard !batch.isEmpty else { return 0 }
        var delivered = 0
        for event in batch {
            guard let event = worker.handOut(event) else { continue }
            if handler(event) { worker.delivered(event) }
            delivered += 1
        }
        return delivered
    }

    /// The events as an `AsyncSequence`; it drains the same queue as `poll`, so use one or the other. An event
    /// counts as handled once the game asks for the next one: a `revoked` whose loop ended before (a throw, a
    /// `break`, a cancelled task) is told again at the next launch.
    public var events: StoreEventSequence { StoreEventSequence(queue: worker.events, worker: worker) }

    // MARK: - Grant ledger

    /// Lets the ledger grant `productID`: its purchases are then granted and finished in one journal
    /// transaction on the store's worker thread before their event is queued, which reads `granted` instead
    /// of `purchased`. Register at launch, before the first poll: a purchase queued before its product was
    /// registered (one redelivered at launch) is granted as it leaves the queue, if the game has not polled
    /// before it was queued. Those grants, and the take-backs of refunds told before the first poll or again at
    /// launch (`Journal.TakeBack.whenTold`), are the only commits `poll` makes.
    /// C: `iosiap_ledger_register_currency`, `..._entitlement`.
    public func registerGrant(_ grant: Grant, for productID: String) throws(StoreError) {
        try ensureOpen()
        try ledger.register(grant, for: productID)
    }

    /// The ledger's balance of `currency`. C: `iosiap_ledger_balance`.
    public func balance(of currency: String) throws(StoreError) -> Int64 {
        try ensureOpen()
        return try worker.journal.balance(of: currency)
    }

    /// Takes `amount` (above 0) from the balance of `currency`; `insufficientBalance` if it is lower, and
    /// then nothing changes. C: `iosiap_ledger_spend`.
    public func spend(_ amount: Int64, of currency: String) throws(StoreError) {
        try ensureOpen()
        guard amount > 0 else { throw StoreError(.invalidArgument, "amount to spend must be above 0, not \(amount)") }
        try worker.journal.spend(amount, of: currency)
    }

    /// Whether a product registered with `.entitlement(name)` entitles the user now.
    /// C: `iosiap_ledger_has_entitlement`.
    public func hasEntitlement(_ name: String) throws(StoreError) -> Bool {
        try ensureOpen()
        let products = ledger.products(grantingEntitlement: name)
        guard !products.isEmpty else { return false }
        return try currentEntitlements().contains { products.contains($0.productID) }
    }

    /// Whether a refund takes back the currency its purchase granted (as far as the balance allows).
    /// Off by default. Set it before the first poll: a refund is taken back on the worker in the commit that
    /// records it, or, if it was recorded before the first poll, in the one that notes it told once the game's
    /// handler of it returned, by the setting of that moment. C: `iosiap_ledger_set_deduct_refunds`.
    public func setDeductsRefundedConsumables(_ deducts: Bool) {
        ledger.setDeductsRefundedConsumables(deducts)
    }

    // MARK: - State

    /// The product loaded by a products request, if any. C: `iosiap_store_product`.
    public func product(id: String) -> StoreProduct? {
        worker.state.withLock { $0.products[id] }
    }

    /// The non-consumables owned and the subscriptions active now, without revoked ones. A transaction a verifier
    /// failed or has not passed entitles to nothing; as the newest of its subscription's chain it still decides
    /// the subscription from its purchase date on, so an older verified one does not keep it. A journal row that
    /// cannot be decoded hides no other: it cannot be verified, so it entitles to nothing, and the game hears of it
    /// once per launch as `journalRowUnreadable`. The journal is decoded again only after it changed: between
    /// changes a call costs what the non-consumable rows cost, however many consumables were bought.
    /// C: `iosiap_entitlements`.
    public func currentEntitlements() throws(StoreError) -> [StoreTransaction] {
        try ensureOpen()
        let (generation, rows) = try worker.journal.entitlingRows()
        let now = now()
        if let view = entitlementView.withLock({ $0 }), view.generation == generation, view.from <= now, now < view.until {
            return view.entitlements
        }
        worker.reportUnreadable(rows.unreadable)
        let entitling = Set(rows.readable.filter { JournalRecord.entitles($0.verdict) }.map(\.transaction.id))
        let transactions = rows.readable.map(\.transaction)
        let entitlements = Entitlements.current(from: transactions, at: now) { entitling.contains($0.id) }
        // Until the next moment one of these transactions starts (or comes within the clock skew tolerance of it), ends
        // or leaves its grace period, the answer stands.
        let until = transactions.flatMap {
            [$0.purchaseDate - Entitlements.clockSkewTolerance, $0.purchaseDate, $0.expirationDate, $0.gracePeriodExpirationDate]
                .compactMap { $0 }
        }.filter { $0 > now }.min() ?? .distantFuture
        entitlementView.withLock { $0 = EntitlementView(generation: generation, from: now, until: until, entitlements: entitlements) }
        return entitlements
    }

    /// Whether a verifier checks each transaction before the game hears of it (StoreKit's verdict, the device's
    /// check, a server); `false` when transactions are delivered unchecked (the local store opened without
    /// verification: for development). C: `iosiap_store_verifies`.
    public var verifiesTransactions: Bool { worker.verifier != nil }

    /// Whether the user owns `productID` now. C: `iosiap_is_entitled`.
    public func isEntitled(to productID: String) throws(StoreError) -> Bool {
        try currentEntitlements().contains { $0.productID == productID }
    }

    /// The transactions delivered but not finished yet. A journal row that cannot be decoded is left out and
    /// told once per launch as `journalRowUnreadable`.
    public func unfinishedTransactions() throws(StoreError) -> [StoreTransaction] {
        try ensureOpen()
        let rows = try worker.journal.unfinishedTransactionsReadingPastDamage()
        worker.reportUnreadable(rows.unreadable)
        return rows.readable
    }

    /// The user's storefront, ISO 3166-1 alpha-3, e.g. "USA". C: `iosiap_storefront`.
    public func storefront() async throws(StoreError) -> String {
        try ensureOpen()
        return try await askBackend { backend throws(StoreError) in try await backend.storefront() }
    }

    /// Where the subscription of `groupID` stands, with its renewal info; `nil` when the user never subscribed
    /// in it. With Family Sharing the user may hold two in a group (their own, a family member's): the one that
    /// entitles most answers. The local store refuses a group its catalog does not have (`invalidArgument`, as
    /// `isEligibleForIntroOffer` does); the StoreKit backend checks no group and answers `nil` when StoreKit
    /// reports no status for it. C: `iosiap_subscription_status`.
    public func subscriptionStatus(groupID: String) async throws(StoreError) -> StoreSubscriptionStatus? {
        try ensureOpen()
        try RequestValidation.validateGroupID(groupID)
        return try await askBackend { backend throws(StoreError) in try await backend.subscriptionStatus(groupID: groupID) }
    }

    /// Whether a payment for a subscription of `groupID` would get the product's introductory offer now (for a
    /// product: its `subscription.groupID`). The local store answers as it charges (a user who never subscribed
    /// in the group), and refuses a group its catalog does not have; the StoreKit backend passes StoreKit's answer
    /// on for any group. C: `iosiap_is_eligible_for_intro_offer`.
    public func isEligibleForIntroOffer(groupID: String) async throws(StoreError) -> Bool {
        try ensureOpen()
        try RequestValidation.validateGroupID(groupID)
        return try await askBackend { backend throws(StoreError) in try await backend.isEligibleForIntroOffer(groupID: groupID) }
    }

    /// Every transaction of this user as the store holds it, oldest first: refunded, revoked, expired and
    /// finished ones too, for a purchase history screen or support (StoreKit: `Transaction.all`; StoreKit's
    /// unverified ones are left out). It does not change what the game was told: nothing is redelivered or
    /// finished. C: `iosiap_transaction_history`.
    public func transactionHistory() async throws(StoreError) -> [StoreTransaction] {
        try ensureOpen()
        return try await askBackend { backend throws(StoreError) in try await backend.transactionHistory() }
    }

    /// The app's own signed purchase record: the version the user first got and when, for a paid-to-free
    /// migration or a pre-order bonus, with its JWS for the game's server. On StoreKit it may reach the App
    /// Store (and ask the user to sign in) the first time; StoreKit's verification failures are thrown.
    /// C: `iosiap_app_transaction`.
    public func appTransaction() async throws(StoreError) -> StoreAppTransaction {
        try ensureOpen()
        return try await askBackend { backend throws(StoreError) in try await backend.appTransaction() }
    }

    /// Whether this user may make payments. C: `iosiap_can_make_payments`.
    public var canMakePayments: Bool { worker.backend.canMakePayments }

    /// Shows the App Store's sheet where the user enters an offer code, in the game's UI (`uiContext`: its
    /// window scene on iOS and visionOS, its view controller or window on macOS; StoreKit:
    /// `AppStore.presentOfferCodeRedeemSheet`; `unsupportedPlatform` on tvOS). It returns once the sheet is asked for: a code the user redeems reaches the game
    /// as a `purchased` event without a request, carrying offer type `offerCode` and the code's reference name.
    /// The local store records the call (`LocalStore.offerCodeRedeemSheetRequests`); `iosiap-store
    /// redeem-code` plays what the user enters. C: `iosiap_present_offer_code_redeem_sheet`.
    public func presentOfferCodeRedeemSheet(uiContext: UIContext? = nil) throws(StoreError) {
        try ensureOpen()
        try worker.backend.presentOfferCodeRedeemSheet(uiContext: uiContext)
    }

    /// Asks the App Store for a refund of a transaction: shows its refund request sheet in the game's UI
    /// (`uiContext`: as for the offer code sheet; StoreKit: `Transaction.beginRefundRequest(for:in:)`). Ends in
    /// exactly one `refundRequestFinished`: submitted (Apple decides later; a refund granted arrives as
    /// `revoked`), cancelled by the user, or failed (`duplicateRefundRequest` when the transaction was refunded
    /// or has a request pending, `unknownTransaction`, `unsupportedPlatform` on tvOS). Transaction id
    /// 0 is refused at once. The local store keeps the request pending until `iosiap-store approve-refund` or
    /// `decline-refund`. C: `iosiap_begin_refund_request`.
    @discardableResult
    public func beginRefundRequest(transactionID: UInt64, uiContext: UIContext? = nil) throws(StoreError) -> RequestID {
        guard transactionID != 0 else { throw StoreError(.invalidArgument, "transaction id 0 names no transaction") }
        return try submit { .refundRequest($0, transactionID: transactionID, uiContext) }
    }

    /// Shows the App Store's sheet where the user manages subscriptions, near the game's window scene
    /// (`uiContext`; StoreKit: `AppStore.showManageSubscriptions(in:)`, iOS and visionOS only). It returns at
    /// once with the request id that `manageSubscriptionsClosed` carries when the sheet closes (with the error if
    /// it could not be shown), so the game can refresh, and tell two sheets apart. What the user changed arrives
    /// as its own events. The local store records the call (`LocalStore.manageSubscriptionsShown()`) and closes
    /// it at once: its controls (auto-renew off, a plan change) play what the user does there.
    /// C: `iosiap_show_manage_subscriptions`.
    @discardableResult
    public func showManageSubscriptions(uiContext: UIContext? = nil) throws(StoreError) -> RequestID {
        try submit { .manageSubscriptions($0, uiContext) }
    }

    /// Shows the App Store message `id` (from a `storeKitMessage` event) near the game's window scene
    /// (`uiContext`; StoreKit: `message.display(in:)`, iOS and visionOS only). It returns once the sheet is asked
    /// for. Throws `invalidArgument` for an id this store never delivered, `wrongState` for one already shown,
    /// `unsupportedPlatform` where StoreKit has no messages or without a UI context on StoreKit. The local store
    /// records the display (`LocalStore.messages()`, `iosiap-store messages`). C: `iosiap_display_message`.
    public func displayMessage(id: String, uiContext: UIContext? = nil) throws(StoreError) {
        try ensureOpen()
        try worker.backend.displayMessage(id: id, uiContext: uiContext)
    }

    /// Whether the store is open.
    public var isOpen: Bool { worker.state.withLock { $0.isOpen } }

    /// Stops the store: later calls fail with `storeNotOpen` (requests, finish, the ledger, entitlements:
    /// the journal's directory is released for another store), and closing cancels the requests still
    /// waiting or running: they get no further event. A purchase one of them made is journaled (or still
    /// unfinished in the store) and is delivered at the next launch, or was granted by the ledger already. Events already queued can still be
    /// polled; then `events` ends. Closing twice does nothing.
    /// C: `iosiap_store_close`.
    public func close() {
        shutDown()
        executor.detach()  // its thread ends by itself, once the job in progress is done
    }

    /// Closes the store, then waits until its worker thread and the backend's own threads (the local store's
    /// watcher) have ended, at most `timeout` each (a server verification in progress can take longer); says
    /// whether they have. It blocks the calling thread: for a caller on a thread of its own, like the C ABI's
    /// close. Async code awaits `closeAndWaitForWorker(timeout:) async`, or uses `close()`.
    @available(*, noasync, message: "blocks a thread of the concurrency pool; await closeAndWaitForWorker(timeout:) async instead")
    @discardableResult
    package func closeAndWaitForWorker(timeout: Duration) -> Bool {
        shutDown()
        let workerEnded = executor.join(timeout: timeout)
        return worker.backend.waitUntilStopped(timeout: timeout) && workerEnded
    }

    /// `closeAndWaitForWorker(timeout:)` for async code: the close and the wait run on a thread of their own,
    /// never on one of Swift's concurrency pool (which the worker's last tasks may need to end).
    @discardableResult
    package func closeAndWaitForWorker(timeout: Duration) async -> Bool {
        await onThreadOfItsOwn(name: "iosiap.close") { self.closeAndWaitForWorker(timeout: timeout) }
    }

    private func shutDown() {
        let wasOpen = worker.state.withLock { state in
            defer { state.isOpen = false }
            if state.isOpen { jobs.finish() }
            return state.isOpen
        }
        guard wasOpen else { return }
        worker.events.close()
        worker.backend.close()
        worker.noteDeliveredRevocations()  // refunds the game was handed: not told again at the next launch
        worker.journal.releaseDirectory()
    }

    /// Queues an event as the worker would (a purchase is settled with the ledger first, on the calling thread):
    /// for the package's benchmarks, which measure delivery alone.
    package func enqueue(_ event: StoreEvent) {
        if case .purchased = event {
            worker.tellPurchase(event)
        } else {
            worker.events.push(event)
        }
    }

    /// Blocks the calling thread until an event is queued or the store is closed: for a thread that
    /// delivers events (the C ABI's `IOSIAP_DELIVERY_THREAD`). Async code awaits `waitForEvents() async`.
    @available(*, noasync, message: "blocks a thread of the concurrency pool; await waitForEvents() async instead")
    package func waitForEvents() {
        worker.events.waitForEvents()
    }

    /// `waitForEvents()`, waited for on a thread of its own: for async code (tests), which must not block a
    /// thread of Swift's concurrency pool.
    package func waitForEvents() async {
        await onThreadOfItsOwn(name: "iosiap.wait-for-events") { self.waitForEvents() }
    }

    /// The journal, for benchmarks and tests that write a history directly.
    package var journal: Journal { worker.journal }

    /// Waits until the store's worker has done everything it was given so far: the jobs queued, the updates
    /// the backend sent, the work beside them, and what each of those set off in turn, up to where it waits on
    /// something outside (a verification server, a sheet the user reads, a retry timer). Then every event that
    /// came of them is queued: the positive sign a test needs before it says nothing more arrives.
    package func waitUntilWorkerIdle() async {
        await executor.waitUntilIdle()
    }

    // MARK: - Private

    /// Runs a query of the backend on the library's own thread, never on one of Swift's concurrency pool: the local
    /// store answers with SQLite under its locks (behind a look of its watcher in progress, or a write lock another
    /// process holds for seconds), which must not block a thread the game's tasks need.
    private func askBackend<Value: Sendable>(
        _ query: @escaping @Sendable (any StoreBackend) async throws(StoreError) -> Value
    ) async throws(StoreError) -> Value {
        let backend = worker.backend
        return try await withTaskExecutorPreference(SerialThreadExecutor.libraryTasks) { () async throws(StoreError) -> Value in
            try await query(backend)
        }
    }

    private func ensureOpen() throws(StoreError) {
        guard isOpen else { throw StoreError(.storeNotOpen, "the store was closed") }
    }

    /// Numbers and queues a job under the lock that `close` takes: a request is either refused or queued
    /// before the queue closes.
    private func submit(_ makeJob: (RequestID) -> StoreJob) throws(StoreError) -> RequestID {
        let requestID: RequestID? = worker.state.withLock { state in
            guard state.isOpen else { return nil }
            defer { state.nextRequestID += 1 }
            jobs.yield(makeJob(state.nextRequestID))
            return state.nextRequestID
        }
        guard let requestID else { throw StoreError(.storeNotOpen, "the store was closed") }
        return requestID
    }
}
