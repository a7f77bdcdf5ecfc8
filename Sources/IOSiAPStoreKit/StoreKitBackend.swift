#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// The store backend over StoreKit 2 (on Apple platforms, `StoreKitBackend(api: LiveStoreKit())`).
///
/// All of its decisions are here, written against `StoreKitAPI`, so that they are tested on Linux with
/// scripted fakes: products, every purchase result, the `Transaction.updates` listener started when the
/// store opens (purchases made while the game was not running, Ask to Buy approvals, renewals, refunds),
/// `Transaction.unfinished` at launch, restore through `AppStore.sync()` and current entitlements, and
/// StoreKit's verification results, which `verifier` hands to the core.
public final class StoreKitBackend<API: StoreKitAPI>: StoreBackend {
    private let api: API
    private let loaded = Locked<[String: API.Product]>([:])
    private let results: VerificationResults
    private let updateStream: AsyncStream<StoreUpdate>
    private let listener: Task<Void, Never>
    private let intentListener: Task<Void, Never>
    private let messageListener: Task<Void, Never>
    private let storefrontListener: Task<Void, Never>
    private let statusListener: Task<Void, Never>
    private let entitlementReport: Task<Void, Never>
    private let messages: Messages
    /// The products whose purchase StoreKit answered `pending` in this launch, until a transaction of the product
    /// arrives in its updates or a purchase of it succeeds ("Product.PurchaseResult.pending": "If a pending purchase succeeds, StoreKit delivers
    /// the resulting Transaction in the transaction updates"; it says nothing of which purchase a transaction ends,
    /// and the App Store joins a user's repeated requests for one product, so the product is what matches). A
    /// decline creates no transaction: StoreKit tells the app nothing of it.
    private let deferredProducts = Locked<Set<String>>([])

    /// StoreKit's verdicts of this launch, by transaction id and then by the JWS of each copy it judged (its APIs
    /// may hand over differently signed copies of one transaction), for the core's verifier. Only copies this
    /// backend returns to the core are noted (not the subscription status query's), and none is dropped: a check
    /// retried later in the launch needs the verdict on its copy.
    final class VerificationResults: Sendable {
        /// What StoreKit said of one copy.
        enum Verdict {
            case judged(VerificationOutcome)
            /// StoreKit handed no such copy over in this launch, `Transaction.all` included.
            case none
            /// `Transaction.all` did not end within `allTransactionsWait`: the check is to be tried again later.
            case unanswered
        }

        private let outcomes = Locked<[UInt64: [String: VerificationOutcome]]>([:])
        /// What each transaction's copies that StoreKit verified say (`content(of:)`), and when each was signed, by
        /// transaction id.
        private let verifiedContents = Locked<[UInt64: [(content: StoreTransaction, signed: Date?)]]>([:])
        /// How long checks wait for a read of `Transaction.all` (StoreKit documents no bound on the sequence): from
        /// the read's start, so that checks that find it running wait together, not one after another.
        let allTransactionsWait: Duration
        /// A read that has not ended this long after it started is given up and asked anew.
        static var readGivenUpAfter: Duration { .seconds(60) }

        /// A read of `Transaction.all`, noting every copy listed; one per launch, unless one is given up.
        private struct Read: Sendable {
            let task: Task<Void, Never>
            let started: ContinuousClock.Instant
            let ended: Locked<Bool>
        }
        private let read = Locked<Read?>(nil)

        init(allTransactionsWait: Duration) {
            self.allTransactionsWait = allTransactionsWait
        }

        /// Keeps StoreKit's verdict; a transaction from an environment this library does not know fails even
        /// when StoreKit verified it, so that it is never taken for a Production purchase.
        func note(_ result: StoreKitVerified<API.Transaction>) {
            let outcome: VerificationOutcome = switch result {
            case .verified(let transaction) where StoreEnvironment(rawValue: transaction.environment) == nil:
                .failed(StoreKitErrorMapping.unknownEnvironment(transaction.environment))
            case .verified: .verified
            case .unverified(_, let failure): .failed(StoreKitErrorMapping.error(failure))
            }
            outcomes.withLock { $0[result.value.id, default: [:]][result.value.jwsRepresentation] = outcome }
            if outcome == .verified {
                let verified = StoreKitBackend.transaction(result.value)
                let content = Self.content(of: verified), signed = verified.signedDateFromJWS
                verifiedContents.withLock { contents in
                    guard !contents[content.id, default: []].contains(where: { $0.content == content && $0.signed == signed }) else { return }
                    contents[content.id, default: []].append((content, signed))
                }
            }
        }

        /// StoreKit's verdict on this very copy: one on another copy of the transaction (a newer one, or the one
        /// StoreKit handed over while the journal holds a copy StoreKit called unverified) says nothing of it. But a
        /// copy signed apart whose content is one StoreKit verified, signed no later than that one (StoreKit signs a
        /// transaction anew, its `signedDate` with it), passes: granting by it grants only what StoreKit vouched for,
        /// and it never outranks the copy StoreKit verified in the journal (`JournalRecord.ranks`).
        func outcome(for transaction: StoreTransaction) -> VerificationOutcome? {
            guard let jws = transaction.signedJWS else { return nil }
            if let judged = outcomes.withLock({ $0[transaction.id]?[jws] }) { return judged }
            guard let signed = transaction.signedDateFromJWS else { return nil }
            let content = Self.content(of: transaction)
            let vouched = verifiedContents.withLock { contents in
                contents[transaction.id]?.contains { $0.content == content && $0.signed.map { signed <= $0 } == true } == true
            }
            return vouched ? .verified : nil
        }

        /// What a copy says of its transaction, apart from its signatures and what the journal adds to it (a grace
        /// period's end, from the subscription's status).
        private static func content(of transaction: StoreTransaction) -> StoreTransaction {
            var content = transaction
            content.signedJWS = nil
            content.signedRenewalInfo = nil
            content.gracePeriodExpirationDate = nil
            return content
        }

        /// `outcome(for:)`, and when StoreKit has handed no copy of it over in this launch (a copy the journal
        /// checks again whose transaction StoreKit holds finished: neither `Transaction.unfinished` nor the updates
        /// bring it), StoreKit's verdict from `Transaction.all`, read once per launch for every transaction (the
        /// launch may check many such copies again; each read decodes the whole history).
        func verdict(for transaction: StoreTransaction, askingStoreKit api: API) async -> Verdict {
            if let known = outcome(for: transaction) { return .judged(known) }
            guard transaction.signedJWS != nil else { return .none }
            let current = currentRead(api)
            if !current.ended.withLock({ $0 }) {
                let deadline = current.started + allTransactionsWait
                guard ContinuousClock.now < deadline, await Self.ends(current.task, by: deadline) else { return .unanswered }
            }
            return outcome(for: transaction).map(Verdict.judged) ?? .none
        }

        /// The read of `Transaction.all`: the one running or ended, else a new one (also in place of one that has
        /// run for `readGivenUpAfter` without ending: StoreKit may answer a second asking).
        private func currentRead(_ api: API) -> Read {
            read.withLock { read in
                if let read, read.ended.withLock({ $0 }) || ContinuousClock.now - read.started < Self.readGivenUpAfter {
                    return read
                }
                read?.task.cancel()
                let ended = Locked(false)
                let task = Task.detached(executorPreference: SerialThreadExecutor.libraryTasks) {
                    for copy in await api.allTransactions() { self.note(copy) }
                    ended.withLock { $0 = !Task.isCancelled }
                }
                let started = Read(task: task, started: .now, ended: ended)
                read = started
                return started
            }
        }

        /// Whether `task` ends by `deadline`; the task goes on either way (a read that ends late still notes its
        /// verdicts for later checks; closing the store cancels it). Its waits run on the library's thread.
        private static func ends(_ task: Task<Void, Never>, by deadline: ContinuousClock.Instant) async -> Bool {
            await withCheckedContinuation { continuation in
                let answered = Locked(false)
                let answer: @Sendable (Bool) -> Void = { ended in
                    guard answered.withLock({ answered in defer { answered = true }; return !answered }) else { return }
                    continuation.resume(returning: ended)
                }
                Task.detached(executorPreference: SerialThreadExecutor.libraryTasks) { await task.value; answer(true) }
                Task.detached(executorPreference: SerialThreadExecutor.libraryTasks) {
                    try? await Task.sleep(until: deadline, clock: .continuous)
                    answer(false)
                }
            }
        }

        /// Ends the read of `Transaction.all`, if one runs, as the store closes.
        func cancelRead() {
            read.withLock { $0?.task.cancel() }
        }
    }

    /// StoreKit's messages the game has been told of and not shown yet, by the id made for each; and the ids
    /// already shown, so that a second display is told apart from an id never given.
    final class Messages: Sendable {
        private struct State {
            var nextID = 1
            var waiting: [String: API.Message] = [:]
            var displayed = Set<String>()
        }
        private let state = Locked(State())

        /// Keeps `message` and returns it as the game is told of it.
        func keep(_ message: API.Message) -> StoreMessage {
            let id = state.withLock { state in
                let id = String(state.nextID)
                state.nextID += 1
                state.waiting[id] = message
                return id
            }
            return StoreMessage(id: id, reason: message.reason)
        }

        /// Runs `show` on message `id` and forgets it once shown; an unknown or shown id throws. The message is
        /// taken out before it is shown, so that callers on several threads show it once; a show that fails
        /// puts it back.
        func display(_ id: String, _ show: (API.Message) throws(StoreError) -> Void) throws(StoreError) {
            let taken = state.withLock { state -> (message: API.Message?, shown: Bool) in
                guard let message = state.waiting.removeValue(forKey: id) else { return (nil, state.displayed.contains(id)) }
                state.displayed.insert(id)
                return (message, false)
            }
            guard let message = taken.message else {
                if taken.shown { throw StoreError(.wrongState, "App Store message \(id) was displayed already") }
                throw StoreError(.invalidArgument, "no App Store message '\(id)' was delivered to this game")
            }
            do {
                try show(message)
            } catch {
                state.withLock { state in
                    state.displayed.remove(id)
                    state.waiting[id] = message
                }
                throw error
            }
        }
    }

    public convenience init(api: API) {
        self.init(api: api, allTransactionsWait: .seconds(10))
    }

    /// `allTransactionsWait`: how long a check waits for `Transaction.all` before it is tried again later.
    /// `statusRetry`: when a subscription status the launch could not read is read again.
    package init(api: API, allTransactionsWait: Duration, statusRetry: VerificationRetryPolicy = VerificationRetryPolicy()) {
        self.api = api
        let messages = Messages()
        self.messages = messages
        let results = VerificationResults(allTransactionsWait: allTransactionsWait)
        self.results = results
        let (stream, sink) = AsyncStream<StoreUpdate>.makeStream()
        updateStream = stream
        // Started now, when the store opens, so that nothing StoreKit reports before the game asks is missed. The
        // listeners run on the library's own thread, not on Swift's concurrency pool: a pool the game keeps busy
        // delays nothing StoreKit reports.
        let updates = api.transactionUpdates()
        let deferredProducts = self.deferredProducts
        listener = Task.detached(executorPreference: SerialThreadExecutor.libraryTasks) {
            for await update in updates {
                results.note(update)
                let transaction = Self.transaction(update.value)
                if transaction.isRevoked {
                    sink.yield(.revoked(transaction))
                } else if deferredProducts.withLock({ $0.remove(transaction.productID) }) != nil {
                    // Perhaps the transaction the game was told of before (StoreKit answers a purchase of something
                    // owned with it): the game, told the purchase is deferred, hears how it ended.
                    sink.yield(.deferredPurchaseCompleted(transaction))
                } else {
                    sink.yield(.purchased(transaction))
                }
            }
            sink.finish()
        }
        let intents = api.purchaseIntents()
        let loaded = self.loaded
        intentListener = Task.detached(executorPreference: SerialThreadExecutor.libraryTasks) {
            for await intent in intents {
                loaded.withLock { $0[intent.product.id] = intent.product }  // so that the game can pay for it at once
                sink.yield(.purchaseIntent(Self.product(intent.product), offer: intent.offer))
            }
        }
        // Listening to Message.messages from the store's opening is what keeps StoreKit from showing its sheets
        // over the game: each is kept until the game displays it.
        let storeKitMessages = api.messages()
        messageListener = Task.detached(executorPreference: SerialThreadExecutor.libraryTasks) {
            for await message in storeKitMessages { sink.yield(.message(messages.keep(message))) }
        }
        let storefronts = api.storefrontUpdates()
        storefrontListener = Task.detached(executorPreference: SerialThreadExecutor.libraryTasks) {
            for await countryCode in storefronts { sink.yield(.storefrontChanged(countryCode)) }
        }
        // A renewal that fails while the game runs changes no transaction: its status says that the subscription is
        // kept through a grace period, and until when. Reported as an entitlement, so the record learns the end. And
        // a status out of grace (in billing retry, or expired: neither entitles, "Product.SubscriptionInfo.RenewalState")
        // ends a grace period the record holds, when that ends before the date it stated.
        let statuses = api.subscriptionStatusUpdates()
        statusListener = Task.detached(executorPreference: SerialThreadExecutor.libraryTasks) {
            for await status in statuses {
                var transaction = Self.transaction(status.transaction.value)
                guard transaction.productType == .autoRenewable else { continue }
                if status.state == .inBillingRetryPeriod || status.state == .expired {
                    if status.renewalInfoVerified, case .verified = status.transaction {
                        transaction.signedRenewalInfo = status.renewalInfoJWS  // when the store said so
                        sink.yield(.gracePeriodEnded(transaction))
                    }
                    continue
                }
                guard let end = Self.graceEnd(of: status, for: transaction) else { continue }
                transaction.gracePeriodExpirationDate = end
                transaction.signedRenewalInfo = status.renewalInfoJWS  // the signed source of that end, for a verifier
                results.note(status.transaction)
                sink.yield(.entitled(transaction))
            }
        }
        // What the user owns, as StoreKit holds it on the device without a sign-in: a reinstall or a new phone
        // starts with an empty journal, and is entitled at launch all the same. And the refunds StoreKit holds: one
        // made while the app was closed need not come through Transaction.updates again.
        entitlementReport = Task.detached(executorPreference: SerialThreadExecutor.libraryTasks) {
            let (entitled, statusUnread) = await Self.currentEntitlementsWithGrace(api, results)
            for transaction in entitled {
                guard !Task.isCancelled else { return }
                sink.yield(.entitled(transaction))
            }
            // The newest copy of each subscription StoreKit no longer lists as an entitlement: one that ended while
            // the app was closed (replaced by an upgrade on another device, say) updates the copy the journal holds,
            // which would otherwise entitle to the end it once stated.
            let entitledChains = Set(entitled.filter { $0.productType == .autoRenewable }.map(\.originalID))
            var newestEnded: [UInt64: StoreKitVerified<API.Transaction>] = [:]
            for copy in await api.allTransactions() {
                guard !Task.isCancelled else { return }
                if copy.value.revocationDate != nil {
                    results.note(copy)
                    sink.yield(.refundFound(Self.transaction(copy.value)))
                } else if copy.value.productType == .autoRenewable, !entitledChains.contains(copy.value.originalID),
                          newestEnded[copy.value.originalID].map({ ($0.value.purchaseDate, $0.value.id) < (copy.value.purchaseDate, copy.value.id) }) ?? true {
                    newestEnded[copy.value.originalID] = copy
                }
            }
            // StoreKit lists a subscription in billing grace among the current entitlements ("Transaction.
            // currentEntitlements": subscribed or in grace period): one it no longer lists is out of any grace period
            // the record holds for it.
            for copy in newestEnded.values.sorted(by: { $0.value.id < $1.value.id }) {
                guard !Task.isCancelled else { return }
                results.note(copy)
                sink.yield(.entitled(Self.transaction(copy.value)))
                if case .verified = copy { sink.yield(.gracePeriodEnded(Self.transaction(copy.value))) }
            }
            await Self.readGraceAgain(of: statusUnread, api, results, sink, statusRetry)
        }
    }

    /// Subscriptions StoreKit lists as entitlements past their expiration date (a billing grace period keeps them)
    /// whose group's status could not be read at launch (offline): the status is read again on `retry`'s delays until
    /// it answers or the store closes, and each is reported again with the grace period's end it gives. Otherwise a
    /// reinstalled subscriber in grace would wait for the next launch to be entitled.
    private static func readGraceAgain(of waiting: [StoreTransaction], _ api: API, _ results: VerificationResults,
                                       _ sink: AsyncStream<StoreUpdate>.Continuation, _ retry: VerificationRetryPolicy) async {
        var waiting = Dictionary(grouping: waiting.filter { ($0.expirationDate ?? .distantFuture) <= Date() }) { $0.subscriptionGroupID ?? "" }
        var attempt = 1
        while !waiting.isEmpty {
            do { try await Task.sleep(for: retry.delay(before: attempt)) } catch { return }  // closed
            attempt += 1
            for (group, transactions) in waiting {
                guard let statuses = try? await api.subscriptionStatuses(groupID: group) else { continue }
                waiting[group] = nil
                for var transaction in transactions {
                    guard let status = statuses.first(where: { $0.transaction.value.id == transaction.id }),
                          let end = graceEnd(of: status, for: transaction), !Task.isCancelled else { continue }
                    transaction.gracePeriodExpirationDate = end
                    transaction.signedRenewalInfo = status.renewalInfoJWS
                    results.note(status.transaction)
                    sink.yield(.entitled(transaction))
                }
            }
        }
    }

    /// The longest billing grace period the App Store gives (App Store Connect: 3, 16 or 28 days): a grace period's
    /// end later than this after the expiration is not believed.
    static var longestGracePeriod: TimeInterval { 28 * 86_400 }

    /// `Transaction.currentEntitlements`, each noted for the verifier, each subscription with its billing grace
    /// period's end: StoreKit keeps a subscription whose renewal failed among the entitlements through its grace
    /// period, but its transaction carries only the expiration date; the group's status carries the grace period's
    /// end (`RenewalInfo.gracePeriodExpirationDate`). Taken only from renewal info StoreKit verified, for the same
    /// transaction, and at most `longestGracePeriod` after the expiration. A subscription whose group's status cannot
    /// be read (offline) is kept without a grace period's end (the launch's report reads it again later,
    /// `readGraceAgain`): a restore still gives it, and this report never
    /// lowers a grace period's end the core holds (`StoreWorker.recordEntitlement`; the same signed copy without it
    /// keeps it too, `JournalRecord`, but a differently signed copy from a restore or an update replaces it).
    /// Also returns the subscriptions whose group's status could not be read.
    static func currentEntitlementsWithGrace(_ api: API, _ results: VerificationResults) async
        -> (entitled: [StoreTransaction], statusUnread: [StoreTransaction]) {
        var entitled: [StoreTransaction] = [], statusUnread: [StoreTransaction] = []
        var graceEnds: [String: [UInt64: Date]?] = [:]  // by group (nil: its status could not be read), by transaction id
        for entitlement in await api.currentEntitlements() {
            var transaction = Self.transaction(entitlement.value)
            if transaction.productType == .autoRenewable, let group = transaction.subscriptionGroupID {
                if graceEnds[group] == nil {
                    graceEnds[group] = .some(await Self.graceEnds(api, group: group))
                }
                if let ends = graceEnds[group] ?? nil {
                    transaction.gracePeriodExpirationDate = ends[transaction.id].flatMap { end in
                        believable(graceEnd: end, of: transaction) ? end : nil
                    }
                } else {
                    statusUnread.append(transaction)
                }
            }
            results.note(entitlement)
            entitled.append(transaction)
        }
        return (entitled, statusUnread)
    }

    /// The grace periods' ends in `group` by transaction id, from verified renewal info only; nil when StoreKit
    /// could not say.
    private static func graceEnds(_ api: API, group: String) async -> [UInt64: Date]? {
        guard let statuses = try? await api.subscriptionStatuses(groupID: group) else { return nil }
        return statuses.reduce(into: [:]) { ends, status in
            if status.state == .inGracePeriod, status.renewalInfoVerified, let end = status.gracePeriodExpirationDate {
                ends[status.transaction.value.id] = end
            }
        }
    }

    /// The grace period's end a status gives `transaction` (its own), if it is in one: from verified renewal info
    /// only, and believed only as `believable` says.
    private static func graceEnd(of status: StoreKitSubscriptionStatus<API.Transaction>, for transaction: StoreTransaction) -> Date? {
        guard status.state == .inGracePeriod, status.renewalInfoVerified, let end = status.gracePeriodExpirationDate,
              transaction.productType == .autoRenewable, believable(graceEnd: end, of: transaction) else { return nil }
        return end
    }

    /// A grace period's end is believed at most `longestGracePeriod` after the transaction's expiration.
    private static func believable(graceEnd end: Date, of transaction: StoreTransaction) -> Bool {
        guard let expiration = transaction.expirationDate else { return false }
        return end <= expiration + longestGracePeriod
    }

    deinit {
        close()
    }

    /// The verifier to open the `PurchaseStore` with: StoreKit's own verdict on each transaction, so that a
    /// transaction StoreKit could not verify arrives as `verificationFailed`.
    public var verifier: any TransactionVerifier { StoreKitResultVerifier(results: results, api: api) }

    public func products(for ids: [String]) async throws(StoreError) -> [StoreProduct] {
        let found: [API.Product]
        do { found = try await api.products(for: ids) } catch { throw StoreKitErrorMapping.error(error) }
        loaded.withLock { loaded in
            for product in found { loaded[product.id] = product }
        }
        return found.map(Self.product)
    }

    public func purchase(_ request: PaymentRequest, product: StoreProduct) async throws(StoreError) -> PurchaseOutcome {
        guard let storeKitProduct = loaded.withLock({ $0[product.id] }) else {
            throw StoreError(.unknownProduct, "product '\(product.id)' was not loaded from StoreKit")
        }
        let result: StoreKitPurchaseResult<API.Transaction>
        do {
            result = try await api.purchase(storeKitProduct, quantity: request.quantity, appAccountToken: request.appAccountToken,
                                            promotionalOffer: request.promotionalOffer, promotionalOfferJWS: request.promotionalOfferJWS,
                                            introductoryOfferEligibilityJWS: request.introductoryOfferEligibilityJWS,
                                            winBackOfferID: request.winBackOfferID, uiContext: request.uiContext)
        } catch .userCancelled {
            return .cancelled  // StoreKit sometimes throws it instead of returning it: still not a failure
        } catch {
            throw StoreKitErrorMapping.error(error)
        }
        switch result {
        case .success(let verified):
            results.note(verified)
            // Its answer is the purchase of the product: a deferral of it waits no longer (StoreKit may also bring
            // this transaction through its updates, which must not end a deferral again).
            deferredProducts.withLock { _ = $0.remove(product.id) }
            return .purchased(Self.transaction(verified.value))
        case .userCancelled:
            return .cancelled
        case .pending:
            deferredProducts.withLock { _ = $0.insert(product.id) }
            return .deferred
        }
    }

    /// Starts StoreKit's offer code sheet; what the user redeems arrives through `Transaction.updates`, as a
    /// purchase without a request.
    public func presentOfferCodeRedeemSheet(uiContext: UIContext?) throws(StoreError) {
        do { try api.presentOfferCodeRedeemSheet(uiContext: uiContext) } catch { throw StoreKitErrorMapping.error(error) }
    }

    /// StoreKit's refund request sheet; a refund Apple grants later arrives through `Transaction.updates` as a
    /// revoked transaction. The user backing out is cancelled, also when StoreKit throws it.
    public func beginRefundRequest(transactionID: UInt64, uiContext: UIContext?) async throws(StoreError) -> RefundRequestOutcome {
        let status: StoreKitRefundRequestStatus
        do {
            status = try await api.beginRefundRequest(transactionID: transactionID, uiContext: uiContext)
        } catch .userCancelled {
            return .cancelled
        } catch {
            throw StoreKitErrorMapping.error(error)
        }
        switch status {
        case .success: return .submitted
        case .userCancelled: return .cancelled
        }
    }

    /// StoreKit's manage subscriptions sheet; what the user changes there arrives through `Transaction.updates`.
    public func showManageSubscriptions(uiContext: UIContext?) async throws(StoreError) {
        do { try await api.showManageSubscriptions(uiContext: uiContext) } catch { throw StoreKitErrorMapping.error(error) }
    }

    /// Shows a message StoreKit sent and the game was told of; it is forgotten once StoreKit was asked to show
    /// it, kept when that cannot start (a missing UI context), so that the game may try again.
    public func displayMessage(id: String, uiContext: UIContext?) throws(StoreError) {
        guard api.hasMessages else {
            throw StoreError(.unsupportedPlatform, "StoreKit has no App Store messages on this platform (iOS and visionOS only)")
        }
        try messages.display(id) { message throws(StoreError) in
            do throws(StoreKitFailure) { try api.display(message, uiContext: uiContext) } catch { throw StoreKitErrorMapping.error(error) }
        }
    }

    /// `AppStore.sync()`, then `Transaction.currentEntitlements`. Sync asks the user to sign in; one who dismisses
    /// that (`userCancelled`) still has what StoreKit holds on the device, which `currentEntitlements` gives without
    /// a sign-in, so the restore gives that rather than failing with nothing. Any other failure fails the restore.
    public func restore() async throws(StoreError) -> [StoreTransaction] {
        do { try await api.sync() } catch .userCancelled {} catch { throw StoreKitErrorMapping.error(error) }
        return await Self.currentEntitlementsWithGrace(api, results).entitled.filter { $0.productType.isRestorable && !$0.isRevoked }
    }

    public func unfinishedTransactions() async throws(StoreError) -> [StoreTransaction] {
        await api.unfinishedTransactions().map { unfinished in
            results.note(unfinished)
            return Self.transaction(unfinished.value)
        }
    }

    public func finish(transactionID: UInt64) async throws(StoreError) {
        await api.finish(transactionID: transactionID)
    }

    public var canMakePayments: Bool { api.canMakePayments }

    public func storefront() async throws(StoreError) -> String {
        guard let code = await api.storefrontCountryCode() else {
            throw StoreError(.storeUnreachable, "StoreKit: no storefront is known (the App Store cannot be reached)")
        }
        return code
    }

    /// StoreKit's App Transaction, only when StoreKit verified it and it names an environment this library
    /// knows: an unverified record is never handed to the game as if it were the App Store's.
    public func appTransaction() async throws(StoreError) -> StoreAppTransaction {
        let result: StoreKitVerified<StoreKitAppTransaction>
        do { result = try await api.appTransaction() } catch { throw StoreKitErrorMapping.error(error) }
        let app: StoreKitAppTransaction
        switch result {
        case .unverified(_, let failure): throw StoreKitErrorMapping.error(failure)
        case .verified(let verified): app = verified
        }
        guard let environment = StoreEnvironment(rawValue: app.environment) else {
            throw StoreKitErrorMapping.unknownEnvironment(app.environment)
        }
        return StoreAppTransaction(
            environment: environment, bundleID: app.bundleID, appVersion: app.appVersion, originalAppVersion: app.originalAppVersion,
            originalPurchaseDate: app.originalPurchaseDate, signedDate: app.signedDate, preorderDate: app.preorderDate,
            appID: app.appID, appVersionID: app.appVersionID, appTransactionID: app.appTransactionID,
            originalPlatform: app.originalPlatform, deviceVerification: app.deviceVerification.base64EncodedString(),
            deviceVerificationNonce: app.deviceVerificationNonce, signedJWS: app.jwsRepresentation)
    }

    public func subscriptionStatus(groupID: String) async throws(StoreError) -> StoreSubscriptionStatus? {
        let statuses: [StoreKitSubscriptionStatus<API.Transaction>]
        do { statuses = try await api.subscriptionStatuses(groupID: groupID) } catch { throw StoreKitErrorMapping.error(error) }
        // With Family Sharing, or a level changed, there can be several. Apple's guidance is to give the service of
        // the highest level the user is entitled to: among the statuses that entitle (subscribed, in a grace period),
        // the product of the highest level (level 1 is the highest) comes first; then the others by state.
        let levels = await subscriptionLevels(of: statuses.map(\.transaction.value.productID))
        let ranked = statuses.sorted { first, second in
            Self.rank(first, levels) < Self.rank(second, levels)
        }
        guard let status = ranked.first else { return nil }
        var transaction = Self.transaction(status.transaction.value)
        transaction.signedRenewalInfo = status.renewalInfoJWS
        return StoreSubscriptionStatus(state: status.state, transaction: transaction, willAutoRenew: status.willAutoRenew,
                                  autoRenewProductID: status.autoRenewProductID ?? transaction.productID,
                                  expirationReason: status.expirationReason, isInBillingRetry: status.isInBillingRetry,
                                  gracePeriodExpirationDate: status.gracePeriodExpirationDate,
                                  signedRenewalInfo: status.renewalInfoJWS)
    }

    /// How a status ranks for the service it gives (lower first): entitling ones by level, then the others by state.
    private static func rank(_ status: StoreKitSubscriptionStatus<API.Transaction>, _ levels: [String: Int]) -> (Int, Int, Int) {
        let level = levels[status.transaction.value.productID] ?? Int.max
        let entitles = status.state == .subscribed || status.state == .inGracePeriod
        return entitles ? (0, level, status.state.entitlementRank) : (1, status.state.entitlementRank, level)
    }

    /// The subscription level of each product, from the products loaded, else asked of StoreKit (and kept). A level
    /// StoreKit cannot give is left out: that product ranks after the others of its kind.
    private func subscriptionLevels(of productIDs: [String]) async -> [String: Int] {
        let missing = Set(productIDs).filter { id in loaded.withLock { $0[id] } == nil }
        if !missing.isEmpty, let found = try? await api.products(for: missing.sorted()) {
            loaded.withLock { loaded in for product in found { loaded[product.id] = product } }
        }
        return loaded.withLock { loaded in
            productIDs.reduce(into: [:]) { levels, id in levels[id] = loaded[id]?.subscription?.level }
        }
    }

    public func isEligibleForIntroOffer(groupID: String) async throws(StoreError) -> Bool {
        await api.isEligibleForIntroOffer(groupID: groupID)
    }

    /// `Transaction.all`, oldest first; a transaction StoreKit could not verify is left out, as an unverified App
    /// Transaction is: the history never shows the game what the App Store did not sign.
    public func transactionHistory() async throws(StoreError) -> [StoreTransaction] {
        await api.allTransactions().compactMap { result -> StoreTransaction? in
            guard case .verified(let transaction) = result, StoreEnvironment(rawValue: transaction.environment) != nil else { return nil }
            return Self.transaction(transaction)
        }.sorted { ($0.purchaseDate, $0.id) < ($1.purchaseDate, $1.id) }
    }

    public func updates() -> AsyncStream<StoreUpdate> { updateStream }

    public func close() {
        listener.cancel()
        intentListener.cancel()
        messageListener.cancel()
        storefrontListener.cancel()
        statusListener.cancel()
        entitlementReport.cancel()
        results.cancelRead()
    }

    // MARK: - Mapping

    static func product(_ product: API.Product) -> StoreProduct {
        StoreProduct(id: product.id, type: product.type, displayName: product.displayName, description: product.description,
                     price: product.price, currencyCode: product.currencyCode, displayPrice: product.displayPrice,
                     subscription: product.subscription)
    }

    /// StoreKit's environment name as a `StoreEnvironment`. A name this library does not know is not Production:
    /// it becomes `.xcode`, the least trusted environment StoreKit itself reports (locally signed, nothing
    /// charged), and `VerificationResults.note` fails the transaction's verification, so it is never granted.
    static func environment(_ name: String) -> StoreEnvironment {
        StoreEnvironment(rawValue: name) ?? .xcode
    }

    static func transaction(_ transaction: API.Transaction) -> StoreTransaction {
        StoreTransaction(
            id: transaction.id, originalID: transaction.originalID, productID: transaction.productID,
            productType: transaction.productType, quantity: transaction.purchasedQuantity,
            purchaseDate: transaction.purchaseDate, originalPurchaseDate: transaction.originalPurchaseDate,
            expirationDate: transaction.expirationDate, revocationDate: transaction.revocationDate,
            revocationReason: transaction.revocationReason, appAccountToken: transaction.appAccountToken,
            environment: environment(transaction.environment), storefront: transaction.storefrontCountryCode,
            ownershipType: transaction.ownershipType, reason: transaction.reason,
            subscriptionGroupID: transaction.subscriptionGroupID, signedJWS: transaction.jwsRepresentation,
            offer: transaction.offer)
    }
}

/// Verifies by StoreKit's verdict: StoreKit checked the JWS on the device before handing it over. It fails
/// closed: a copy is verified only by StoreKit's verified verdict on that copy (the same JWS) in this launch or,
/// for one the journal delivers again, by the verified verdict the journal kept from an earlier launch.
struct StoreKitResultVerifier<API: StoreKitAPI>: TransactionVerifier {
    let results: StoreKitBackend<API>.VerificationResults
    let api: API

    func verify(_ transaction: StoreTransaction) async -> VerificationOutcome {
        await verify(transaction, recorded: .notVerified)
    }

    func verify(_ transaction: StoreTransaction, recorded: RecordedVerdict) async -> VerificationOutcome {
        switch await results.verdict(for: transaction, askingStoreKit: api) {
        case .judged(let outcome): outcome
        case _ where recorded == .verified: .verified
        case .none: .failed(Self.noVerdict(transaction))
        case .unanswered: .retryLater(StoreError(.verificationRetryable, "StoreKit's Transaction.all did not answer in time "
                                                 + "for transaction \(transaction.id); it is checked again later"))
        }
    }

    private static func noVerdict(_ transaction: StoreTransaction) -> StoreError {
        StoreError(.verificationInvalidSignature,
                   "StoreKit has not verified transaction \(transaction.id) in this launch, nor had any earlier launch")
    }
}
