import Foundation
import IOSiAPCore
import IOSiAPVerification

/// A local App Store: sells the products of an Xcode `.storekit` catalog on any platform, keeps what the
/// simulated user owns in the state directory, and can be told to defer, cancel or fail (the controls).
///
/// It is a `StoreBackend`: open a `PurchaseStore` over it. Its controls are the StoreKitTest
/// `SKTestSession` equivalents; they are stored in the state directory, so they survive restarts (but the
/// locale and storefront, which `LocalPurchaseStore.open` sets at each open).
public final class LocalStore: StoreBackend, RenewalDateExtending, TransactionHistoryPaging {
    /// The catalog it sells.
    public let catalog: Catalog
    /// The app's bundle id, as signed transactions carry it.
    public let bundleID: String
    /// The environment signed transactions name.
    public let environment: StoreEnvironment
    private let signer: TransactionSigner
    private let clockwork: LocalStoreClockwork
    private let offers: PromotionalOffers

    private let state: Locked<LocalStoreState>
    private let now: @Sendable () -> Date
    private let updateStream: AsyncStream<StoreUpdate>
    private let updateSink: AsyncStream<StoreUpdate>.Continuation
    /// How many times the game asked for the offer code sheet (`presentOfferCodeRedeemSheet`).
    private let offerCodeSheets = Locked(0)
    /// Started by `updates()`, when a purchase store has taken the state directory: a store opened only to
    /// be refused, or by the transaction manager, watches nothing.
    private let watcher = Locked<PeriodicWatcher?>(nil)
    /// App Store Server Notifications V2: the URL, the outbox, the sender (LocalStore+Notifications.swift).
    let notifications: LocalStoreNotifications

    /// How often the store looks for changes another process made to its state (a refund from the
    /// transaction manager): one cheap `PRAGMA data_version` each time, off the game's thread.
    public static let externalChangeInterval: Duration = .milliseconds(250)

    /// Opens the local store for `catalog` with its state in `stateDirectory`.
    /// - Parameters:
    ///   - environment: what transactions say they come from; `sandbox` by default, like TestFlight.
    ///   - now: the clock, replaceable in tests.
    public init(catalog: Catalog, stateDirectory: StateDirectory, bundleID: String = "com.example.game",
                environment: StoreEnvironment = .sandbox,
                now: @escaping @Sendable () -> Date = { Date() }) throws(StoreError) {
        self.catalog = catalog
        self.bundleID = bundleID
        self.environment = environment
        self.now = now
        signer = TransactionSigner(chain: try SigningChainFiles.loadOrCreate(in: stateDirectory), bundleID: bundleID)
        offers = PromotionalOffers(signer: catalog.promotionalOfferSigner(bundleID: bundleID))
        let state = Locked(try LocalStoreState(directory: stateDirectory, environment: environment))
        let (stream, sink) = AsyncStream<StoreUpdate>.makeStream()
        self.state = state
        (updateStream, updateSink) = (stream, sink)
        // Refunds made while no game ran (the transaction manager, another process): every refund is reported
        // at launch, as StoreKit reports them through its updates; the core applies those its journal has
        // not recorded and drops the rest.
        for revoked in try state.withLock({ state throws(StoreError) in try state.revokedTransactions() }) {
            sink.yield(.revoked(revoked))
        }
        clockwork = LocalStoreClockwork(catalog: catalog, signer: signer, state: state, now: now, sink: sink)
        notifications = try LocalStoreNotifications(directory: stateDirectory, environment: environment, signer: signer, state: state, now: now)
    }

    /// The catalog file and bundle id the state directory was last opened with (for the transaction manager).
    public static func remembered(in directory: StateDirectory) throws(StoreError) -> (catalogPath: String?, bundleID: String?) {
        let path = directory.file("localstore.sqlite")
        guard FileManager.default.fileExists(atPath: path) else { return (nil, nil) }
        let database = try SQLiteDatabase(path: path, create: false)
        func value(_ key: String) throws(StoreError) -> String? {
            try database.query("SELECT value FROM settings WHERE key = ?", [.text(key)]).first?.first?.text
        }
        return (try value(LocalStoreSettings.Key.catalogPath), try value(LocalStoreSettings.Key.bundleID))
    }

    /// Opens the local store for the `.storekit` file at `catalogURL`.
    public convenience init(catalogURL: URL, stateDirectory: StateDirectory,
                            bundleID: String = "com.example.game") throws(StoreError) {
        try self.init(catalog: Catalog.load(contentsOf: catalogURL), stateDirectory: stateDirectory, bundleID: bundleID)
    }

    /// Renews the subscriptions whose period is over (or announces their end), then collects what other
    /// processes changed; the game hears of each through `updates()`. Called every `externalChangeInterval`,
    /// and by the controls that move time.
    func advanceTime() throws(StoreError) {
        try clockwork.advanceTime()
    }

    // MARK: - StoreBackend

    public func products(for ids: [String]) async throws(StoreError) -> [StoreProduct] {
        let settings = try currentSettings()
        try failIfSimulated(.loadProducts, settings)
        return ids.compactMap { catalog.product(id: $0) }.map { clockwork.storeProduct($0, settings) }
    }

    public func purchase(_ request: PaymentRequest, product: StoreProduct) async throws(StoreError) -> PurchaseOutcome {
        let settings = try currentSettings()
        try failIfSimulated(.purchase, settings)
        guard let item = catalog.product(id: request.productID) else {
            throw StoreError(.storeProductNotAvailable, "product '\(request.productID)' is not in the catalog")
        }
        let offer = try request.promotionalOffer.map { (signed) throws(StoreError) in
            try offers.check(signed, for: item, appAccountToken: request.appAccountToken, at: now())
        }
        let offerJWS = try request.promotionalOfferJWS.map { (signed) throws(StoreError) in try offers.check(signed, for: item, at: now()) }
        let introEligibility = try request.introductoryOfferEligibilityJWS.map { (jws) throws(StoreError) in
            try offers.checkIntroductoryOfferEligibility(jws, for: item, at: now())
        }
        if settings.purchaseDialogResponse == .cancel { return .cancelled }
        return try state.withLock { state throws(StoreError) in
            try state.database.transaction { () throws(StoreError) in
                if let signed = request.promotionalOffer { try offers.redeem(signed.nonce, for: item, in: state, at: now()) }
                if let offerJWS { try offers.redeem(offerJWS.claims, for: item, in: state, at: now()) }
                let introAllowed = try introEligibility.map { (claims) throws(StoreError) in
                    try offers.redeemIntroductoryOfferEligibility(claims, in: state, at: now())
                }
                let winBack = try request.winBackOfferID.map { (id) throws(StoreError) in
                    try SubscriptionOfferRules.winBackOffer(id, of: item, catalog: catalog, in: state, timeRate: settings.timeRate, at: now())
                }
                if settings.askToBuyEnabled || settings.interruptedPurchasesEnabled {
                    // The offer and the introductory offer decision wait with the purchase: a parent's approval
                    // charges the price they give.
                    try state.addPendingPurchase(request, introductoryOfferAllowed: introAllowed,
                                                 kind: settings.askToBuyEnabled ? .askToBuy : .interrupted, at: now())
                    return .deferred
                }
                return .purchased(try charge(item, request, offer: offer ?? offerJWS?.terms ?? winBack,
                                             introductoryOfferAllowed: introAllowed, settings, in: state))
            }
        }
    }

    public func restore() async throws(StoreError) -> [StoreTransaction] {
        let settings = try currentSettings()
        try failIfSimulated(.appStoreSync, settings)
        try advanceTime()
        return try state.withLock { state throws(StoreError) in try state.ownedTransactions(at: now()) }
    }

    public func unfinishedTransactions() async throws(StoreError) -> [StoreTransaction] {
        try state.withLock { state throws(StoreError) in try state.unfinishedTransactions() }
    }

    public func finish(transactionID: UInt64) async throws(StoreError) {
        try state.withLock { state throws(StoreError) in try state.markFinished(transactionID) }
    }

    public var canMakePayments: Bool { true }

    /// Records the call: the local store has no sheet to show. What the user would enter there is played with
    /// `redeemOfferCode(productID:referenceName:)` (`iosiap-store redeem-code`). The Offer Code Redeem Sheet
    /// simulated error fails it, as StoreKitTest fails the sheet.
    public func presentOfferCodeRedeemSheet(uiContext: UIContext?) throws(StoreError) {
        try failIfSimulated(.offerCodeRedeem, try currentSettings())
        offerCodeSheets.withLock { $0 += 1 }
    }

    /// How many times the game asked this store for the offer code sheet.
    public var offerCodeRedeemSheetRequests: Int { offerCodeSheets.withLock { $0 } }

    /// Plays the refund request sheet: the request is recorded pending in the state directory (it survives
    /// relaunches) until `approveRefundRequest` or `declineRefundRequest` (`iosiap-store approve-refund`,
    /// `decline-refund`). The user closes the sheet without sending it when the purchase dialog answers cancel;
    /// the Refund Request Sheet simulated error fails it. A transaction this store never charged fails with
    /// `unknownTransaction`, one refunded or with a request pending with `duplicateRefundRequest`.
    public func beginRefundRequest(transactionID: UInt64, uiContext: UIContext?) async throws(StoreError) -> RefundRequestOutcome {
        let settings = try currentSettings()
        try failIfSimulated(.refundRequest, settings)
        return try state.withLock { state throws(StoreError) in
            guard try state.transaction(id: transactionID) != nil else {
                throw StoreError(.unknownTransaction, "the local store never charged transaction \(transactionID)")
            }
            if settings.purchaseDialogResponse == .cancel { return .cancelled }
            try LocalCustomerSheets.addRefundRequest(for: transactionID, at: now(), in: state)
            return .submitted
        }
    }

    /// Every refund request the game made, oldest first (`iosiap-store refund-requests`).
    public func refundRequests() throws(StoreError) -> [RefundRequest] {
        try state.withLock { state throws(StoreError) in try LocalCustomerSheets.refundRequests(in: state.database) }
    }

    /// Plays the manage subscriptions sheet: the call is recorded (`manageSubscriptionsShown()`) and the sheet
    /// closes at once; what the user would do there is played with the controls (`setAutoRenew`, a purchase of
    /// another level of the group). The Manage Subscriptions Sheet simulated error fails it.
    public func showManageSubscriptions(uiContext: UIContext?) async throws(StoreError) {
        try failIfSimulated(.manageSubscriptions, try currentSettings())
        try state.withLock { state throws(StoreError) in try LocalCustomerSheets.recordManageSubscriptions(at: now(), in: state.database) }
    }

    /// How many times a game showed the manage subscriptions sheet on this state directory, and when it last did.
    public func manageSubscriptionsShown() throws(StoreError) -> (count: Int, last: Date?) {
        try state.withLock { state throws(StoreError) in try LocalCustomerSheets.manageSubscriptionsShown(in: state.database) }
    }

    public func storefront() async throws(StoreError) -> String {
        try currentSettings().storefront.code
    }

    /// Where the user's subscription in `groupID` stands. With Family Sharing the user can hold two in one group,
    /// their own and a family member's, each with its status as StoreKit reports them; the one that entitles most
    /// answers (the user's own on a tie). A group the catalog does not have is an error, as for
    /// `isEligibleForIntroOffer`: a typo must not read as "never subscribed".
    public func subscriptionStatus(groupID: String) async throws(StoreError) -> StoreSubscriptionStatus? {
        try requireGroup(groupID)
        try failIfSimulated(.subscriptionStatus, try currentSettings())
        try advanceTime()
        let current = now()
        return try state.withLock { state throws(StoreError) in
            let chains = try state.subscriptionChains()
            var statuses: [StoreSubscriptionStatus] = []
            for ownership in [OwnershipType.purchased, .familyShared] {
                guard let latest = try state.latestSubscription(inGroup: groupID, ownership: ownership) else { continue }
                statuses.append(Self.status(of: latest, chain: chains.first { $0.latest.id == latest.id }, at: current))
            }
            return statuses.min { $0.state.entitlementRank < $1.state.entitlementRank }
        }
    }

    /// The status of the subscription whose newest transaction is `latest` (`chain`: how it goes on; `nil` once
    /// refunded) at `current`.
    private static func status(of latest: StoreTransaction, chain: LocalStoreState.SubscriptionChain?, at current: Date) -> StoreSubscriptionStatus {
        let inGrace = (latest.gracePeriodExpirationDate ?? .distantPast) > current
        let status: StoreSubscriptionStatus.State = latest.isRevoked ? .revoked
            : (latest.expirationDate ?? .distantPast) > current ? .subscribed
            : chain?.state.billingRetry == true ? (inGrace ? .inGracePeriod : .inBillingRetryPeriod) : .expired
        let renewal = chain?.state
        return StoreSubscriptionStatus(state: status, transaction: latest, willAutoRenew: renewal?.autoRenew ?? false,
                                  autoRenewProductID: renewal?.renewProductID ?? latest.productID,
                                  expirationReason: status == .subscribed ? nil
                                      : renewal?.expirationIntent.flatMap(StoreSubscriptionStatus.ExpirationReason.init(rawValue:)),
                                  isInBillingRetry: renewal?.billingRetry ?? false,
                                  gracePeriodExpirationDate: status == .inGracePeriod ? latest.gracePeriodExpirationDate : nil,
                                  signedRenewalInfo: latest.signedRenewalInfo)
    }

    /// Eligible as a payment would find it: a user who never subscribed in the group gets its introductory offer
    /// (SubscriptionOfferRules). A group the catalog does not have is an error, likely a typo in the game.
    public func isEligibleForIntroOffer(groupID: String) async throws(StoreError) -> Bool {
        try requireGroup(groupID)
        return try state.withLock { state throws(StoreError) in try SubscriptionOfferRules.isEligibleForIntroOffer(inGroup: groupID, in: state) }
    }

    /// Refuses a subscription group the catalog does not have, with the same error for every query about one.
    private func requireGroup(_ groupID: String) throws(StoreError) {
        guard catalog.products.contains(where: { $0.subscription?.groupID == groupID }) else {
            throw StoreError(.invalidArgument, "the catalog has no subscription group '\(groupID)'")
        }
    }

    /// Every transaction this user was charged or shared, oldest first, refunded and expired ones too.
    public func transactionHistory() async throws(StoreError) -> [StoreTransaction] {
        try advanceTime()
        return try allTransactions()
    }

    /// Called once, by the purchase store that opens on this store after it has taken the state directory's
    /// lock: only then does this store write what the transaction manager reads (the catalog and bundle id
    /// a game last opened the directory with) and start watching time and other processes' writes.
    public func updates() -> AsyncStream<StoreUpdate> {
        clockwork.gameListens.withLock { $0 = true }
        clockwork.rememberStorefront()
        // What changed while no game listened, which the first look at the state took in without telling anyone.
        try? clockwork.tellExtendedSubscriptions()
        try? clockwork.tellUntoldEnds()
        // Best effort: the transaction manager can also be told the catalog (--catalog).
        try? rememberCatalog()
        let clockwork = self.clockwork
        watcher.withLock { watcher in
            guard watcher == nil else { return }
            // Subscription time moves on, and other processes write: both are looked at off the game's thread.
            watcher = PeriodicWatcher(name: "iosiap.localstore", interval: Self.externalChangeInterval) {
                try? clockwork.advanceTime()
            }
        }
        // A game running alone notifies too (when a notification URL is set), off its paths.
        try? startNotificationSender()
        return updateStream
    }

    /// Has the watcher look at the state now (what `externalChangeInterval` does: time, other processes' writes)
    /// and returns once a look that started after the call has ended, its updates sent; at once when no game
    /// listens (nothing looks then). The sign, for tests, that nothing more comes of what happened before.
    package func lookNow() async {
        await watcher.withLock { $0 }?.runNow()
    }

    /// Returns once `count` looks of the watcher that started after the call have ended, at its own pace (every
    /// `externalChangeInterval`): for tests of what it finds by itself. At once when no game listens.
    package func waitForLooks(_ count: Int) async {
        await watcher.withLock { $0 }?.waitForRuns(count)
    }

    /// Stops the watcher and the notification sender and ends the update stream, without waiting: a look or a
    /// POST in progress finishes on its own (nothing is told or recorded after close). `waitUntilStopped` waits.
    public func close() {
        watcher.withLock { $0 }?.requestStop()
        notifications.stopSender()
        updateSink.finish()
    }

    /// Waits, after `close`, until the watcher's and the notification sender's threads have ended (a look in
    /// progress, a POST freeing libcurl's handles), at most `timeout` for each; says whether they have. It blocks
    /// the calling thread: the C ABI's close calls it, so that nothing of the store runs once it returns.
    @available(*, noasync, message: "blocks a thread of the concurrency pool")
    public func waitUntilStopped(timeout: Duration) -> Bool {
        let watcherEnded = watcher.withLock { $0 }?.join(timeout: timeout) ?? true
        return notifications.joinStoppedSenders(timeout: timeout) && watcherEnded
    }

    /// A simulated verification error (`setSimulatedError(_:for: .verification)`) fails every transaction's
    /// verification with that code, as StoreKitTest makes `VerificationResult` unverified.
    public func forcedVerificationFailure(of transaction: StoreTransaction) -> StoreError? {
        (try? currentSettings()).flatMap { simulatedError(.verification, $0) }
    }

    deinit {
        // Without waiting (the last reference may go on any thread): the watcher's thread ends on its own.
        watcher.withLock { $0 }?.requestStop()
        notifications.stopSender()
    }

    public func appTransaction() async throws(StoreError) -> StoreAppTransaction {
        try failIfSimulated(.appTransaction, try currentSettings())
        return try signAppTransaction()
    }

    /// The App Transaction the game gets now, signed with the store's chain (LocalAppTransaction.swift); no
    /// simulated error applies (for the transaction manager and tests).
    public func signAppTransaction() throws(StoreError) -> StoreAppTransaction {
        let signedDate = now()
        let record = try state.withLock { state throws(StoreError) in try LocalAppTransaction.record(in: state.database, at: signedDate) }
        return try LocalAppTransaction.sign(record, signer: signer, environment: environment, at: signedDate)
    }

    /// Sets the app version the user first got, which App Transactions sign from now on, and the current
    /// one (`nil`: the same); kept in the state directory (LocalAppTransaction.swift).
    public func setOriginalAppVersion(_ version: String, appVersion: String? = nil) throws(StoreError) {
        try state.withLock { state throws(StoreError) in
            try LocalAppTransaction.setVersions(original: version, current: appVersion, in: state.database, at: now())
        }
    }

    // MARK: - Controls (SKTestSession)

    /// The settings in force: the catalog's with the controls' overrides.
    public func currentSettings() throws(StoreError) -> LocalStoreSettings {
        try clockwork.settings()
    }

    /// Turns Ask to Buy on or off (SKTestSession `askToBuyEnabled`).
    public func setAskToBuyEnabled(_ enabled: Bool) throws(StoreError) {
        try setOverride(LocalStoreSettings.Key.askToBuy, enabled ? "1" : "0")
    }

    /// Makes `api` fail with `error`, or stops it failing with `nil`
    /// (StoreKitTest `setSimulatedError(_:forAPI:)`).
    public func setSimulatedError(_ error: StoreErrorCode?, for api: FailableAPI) throws(StoreError) {
        try setOverride(LocalStoreSettings.Key.simulatedError(api), error.map { String($0.rawValue) } ?? "none")
    }

    /// Sets what the simulated user answers in the purchase sheet.
    public func setPurchaseDialogResponse(_ response: PurchaseDialogResponse) throws(StoreError) {
        try setOverride(LocalStoreSettings.Key.purchaseDialog, response.rawValue)
    }

    /// Changes the storefront (SKTestSession `storefront`): prices use its currency from the next request. A game
    /// running on this state directory receives `storefrontChanged` when it differs from the one in force (from
    /// another process, such as `iosiap-store storefront`, within a second).
    public func setStorefront(_ code: String) throws(StoreError) {
        let storefront = try Self.knownStorefront(code)
        try state.withLock { state throws(StoreError) in
            try state.setOverride(LocalStoreSettings.Key.storefront, storefront.code)
            try clockwork.tellStorefrontChange(in: state)
        }
    }

    private static func knownStorefront(_ code: String) throws(StoreError) -> AppStoreStorefront {
        guard let storefront = AppStoreStorefront(code: code) else {
            throw StoreError(.invalidArgument, AppStoreStorefront.unknownMessage(code))
        }
        return storefront
    }

    /// Changes the locale titles and prices are shown in (SKTestSession `locale`).
    public func setLocale(_ locale: String) throws(StoreError) {
        guard LocaleIdentifier.isWellFormed(locale) else {
            throw StoreError(.invalidArgument, "malformed locale '\(locale)': a language with an optional script and region, "
                             + "e.g. en_US, de or zh_Hans_CN")
        }
        try setOverride(LocalStoreSettings.Key.locale, locale)
    }

    /// The locale override, or the catalog's (`nil`), for a store being opened.
    func setLocaleOverride(_ locale: String?) throws(StoreError) {
        if let locale { try setLocale(locale) } else { try setOverride(LocalStoreSettings.Key.locale, nil) }
    }

    /// The storefront override, or the catalog's (`nil`), for a store being opened: the game opens with it, so
    /// it is not told as a change.
    func setStorefrontOverride(_ code: String?) throws(StoreError) {
        let storefront = try code.map(Self.knownStorefront)
        try state.withLock { state throws(StoreError) in
            try state.setOverride(LocalStoreSettings.Key.storefront, storefront?.code)
            try clockwork.rememberStorefront(in: state)
        }
    }

    /// Sets how fast subscription time runs (SKTestSession `timeRate`).
    public func setTimeRate(_ rate: TimeRate) throws(StoreError) {
        try setOverride(LocalStoreSettings.Key.timeRate, String(rate.rawValue))
    }

    /// Drops every override: the catalog's settings apply again (SKTestSession `resetToDefaultState`,
    /// without touching transactions).
    public func resetSettings() throws(StoreError) {
        try state.withLock { state throws(StoreError) in
            try state.database.execute("DELETE FROM settings")
        }
        try rememberCatalog()
    }

    /// Records this store's catalog file and bundle id as the ones the state directory was last opened with
    /// (`remembered(in:)`), as a game's store does when it starts listening: `iosiap-store` given `--catalog`
    /// once opens the directory with it afterwards.
    public func rememberCatalog() throws(StoreError) {
        try setOverride(LocalStoreSettings.Key.catalogPath, catalog.sourcePath)
        try setOverride(LocalStoreSettings.Key.bundleID, bundleID)
    }

    /// The purchases waiting for approval.
    public func pendingPurchases() throws(StoreError) -> [PendingPurchase] {
        try state.withLock { state throws(StoreError) in try state.pendingPurchases() }
    }

    /// Interrupts purchases on or off (SKTestSession `interruptedPurchasesEnabled`): an interrupted purchase
    /// ends in `deferred` until `resolveInterruptedPurchase`, then reaches the game as `purchased`.
    public func setInterruptedPurchasesEnabled(_ enabled: Bool) throws(StoreError) {
        try setOverride(LocalStoreSettings.Key.interrupted, enabled ? "1" : "0")
    }

    /// The user resolves an interrupted purchase (SKTestSession `resolveIssueForTransaction`): it is charged
    /// and reaches the game as a `purchased` update.
    @discardableResult
    public func resolveInterruptedPurchase(_ pendingID: Int64) throws(StoreError) -> StoreTransaction {
        try completePendingPurchase(pendingID, kind: .interrupted)
    }

    /// Approves a deferred purchase: it is charged and reaches the game as a `purchased` update.
    @discardableResult
    public func approveAskToBuy(_ pendingID: Int64) throws(StoreError) -> StoreTransaction {
        try completePendingPurchase(pendingID, kind: .askToBuy)
    }

    private func completePendingPurchase(_ pendingID: Int64, kind: PendingPurchase.Kind) throws(StoreError) -> StoreTransaction {
        let settings = try currentSettings()
        let transaction = try state.withLock { state throws(StoreError) in
            try state.database.transaction { () throws(StoreError) in
                let pending = try state.removePendingPurchase(pendingID, kind: kind)
                guard let item = catalog.product(id: pending.productID) else {
                    throw StoreError(.storeProductNotAvailable, "product '\(pending.productID)' is not in the catalog")
                }
                let request = PaymentRequest(productID: pending.productID, quantity: pending.quantity,
                                             appAccountToken: pending.appAccountToken)
                // A promotional or win-back offer waited with the purchase: its id names it (ids are unique across types).
                let offer = try pending.offerID.map { (id) throws(StoreError) in
                    guard let redeemed = item.redeemedOffer(id: id) else { return try PromotionalOffers.terms(id, of: item) }
                    return redeemed
                }
                return try charge(item, request, offer: offer, introductoryOfferAllowed: pending.introductoryOfferAllowed, settings,
                                  pendingID: pending.id, in: state)
            }
        }
        updateSink.yield(.purchased(transaction))
        return transaction
    }

    /// Declines a deferred purchase: nothing is charged and the game gets a `declined` update.
    public func declineAskToBuy(_ pendingID: Int64) throws(StoreError) {
        let pending = try state.withLock { state throws(StoreError) in try state.removePendingPurchase(pendingID, kind: .askToBuy) }
        updateSink.yield(.declined(productID: pending.productID))
    }

    /// Refunds a transaction (SKTestSession `refundTransaction(identifier:)`): it is revoked now, the game
    /// receives a `revoked` update and loses what it entitled.
    @discardableResult
    public func refund(transactionID: UInt64, reason: RevocationReason = .refundedForOtherReason) throws(StoreError) -> StoreTransaction {
        try refund(transactionID, reason: reason) { _ throws(StoreError) in }
    }

    /// Approves the pending refund request for a transaction (`iosiap-store approve-refund`): it is refunded now,
    /// in the same commit, and the game receives `revoked` (a game closed now receives it at its next launch).
    @discardableResult
    public func approveRefundRequest(transactionID: UInt64, reason: RevocationReason = .refundedForOtherReason) throws(StoreError) -> StoreTransaction {
        try refund(transactionID, reason: reason) { state throws(StoreError) in
            try LocalCustomerSheets.resolveRefundRequest(for: transactionID, as: .approved, at: now(), in: state.database)
        }
    }

    /// Declines the pending refund request for a transaction (`iosiap-store decline-refund`): the transaction
    /// stays as it was and the game hears nothing, as from the App Store.
    public func declineRefundRequest(transactionID: UInt64) throws(StoreError) {
        try state.withLock { state throws(StoreError) in
            try LocalCustomerSheets.resolveRefundRequest(for: transactionID, as: .declined, at: now(), in: state.database)
        }
    }

    /// Refunds a transaction, and does `alongside` in the same commit. A refund request still pending for it
    /// (a refund made another way: `refund`, the end of Family Sharing) is approved in that commit too: nothing
    /// is left to decide, and it is never declined after the refund.
    private func refund(_ transactionID: UInt64, reason: RevocationReason,
                        alongside: (LocalStoreState) throws(StoreError) -> Void) throws(StoreError) -> StoreTransaction {
        let settings = try currentSettings()
        let transaction = try state.withLock { state throws(StoreError) in
            try state.database.transaction { () throws(StoreError) in
                try alongside(state)
                try LocalCustomerSheets.resolvePendingRefundRequest(for: transactionID, as: .approved, at: now(), in: state.database)
                // The App Store re-signs a refunded transaction: its payload now carries the revocation.
                return try sign(try state.revoke(transactionID, reason: reason, at: now()), settings, in: state)
            }
        }
        updateSink.yield(.revoked(transaction))
        return transaction
    }

    // MARK: - Controls: subscriptions over time, the history

    /// Ends a subscription now, without renewing (SKTestSession `expireSubscription`): the game receives
    /// `expired`.
    public func expireSubscription(productID: String) throws(StoreError) {
        let settings = try currentSettings()
        try state.withLock { state throws(StoreError) in
            let chain = try activeChain(productID, in: state)
            try state.database.transaction { () throws(StoreError) in
                try state.updateChain(chain.latest.id) { $0.autoRenew = false; $0.expiration = now() }
                _ = try clockwork.resign(chain.latest.id, settings, in: state)
            }
        }
        try advanceTime()
    }

    /// Renews a subscription now (SKTestSession `forceRenewalOfSubscription`): the game receives the
    /// renewal as a `purchased` event with reason RENEWAL.
    public func forceRenewal(productID: String) throws(StoreError) {
        let settings = try currentSettings()
        try state.withLock { state throws(StoreError) in
            let chain = try activeChain(productID, in: state)
            guard chain.state.autoRenew else { throw StoreError(.wrongState, "auto-renew of '\(productID)' is off") }
            let shortened = try state.database.transaction { () throws(StoreError) in
                try state.updateChain(chain.latest.id) { $0.expiration = now() }
                return try clockwork.resign(chain.latest.id, settings, in: state)
            }
            // The period ended early: the game's record of it learns the new end (an update it has finished
            // is recorded without a new event).
            updateSink.yield(.purchased(shortened))
        }
        try advanceTime()
    }

    /// Extends a subscription's current period by `days` days (1…90), as the App Store Server API's Extend a
    /// Subscription Renewal Date does, under Apple's rules (`RenewalExtender`): the subscription `originalTransactionID`
    /// names must be active and paid, and be extended at most twice in 365 days; a repeated `requestIdentifier`
    /// answers its first result without extending again. Its newest transaction is re-signed with the later end,
    /// and a game on the state directory receives it as a `purchased` update (its record learns the new end).
    public func extendRenewalDate(originalTransactionID: UInt64, days: Int,
                                  requestIdentifier: String) throws(StoreError) -> RenewalExtensionOutcome {
        try RenewalExtender(clockwork: clockwork).extend(originalTransactionID, days: days, requestIdentifier: requestIdentifier)
    }

    /// Extends the renewal date of every active subscriber of `productID` (in `storefronts`, alpha-3 codes;
    /// `nil`: all) by `days` days, as Extend Subscription Renewal Dates for All Active Subscribers does; at once.
    public func extendRenewalDates(productID: String, days: Int, requestIdentifier: String,
                                   storefronts: Set<String>? = nil) throws(StoreError) -> MassRenewalExtension {
        try RenewalExtender(clockwork: clockwork).extendAll(productID: productID, days: days, requestIdentifier: requestIdentifier,
                                                            storefronts: storefronts)
    }

    /// The request to extend every subscriber of `productID` that `requestIdentifier` made, or `nil`.
    public func massRenewalExtension(productID: String, requestIdentifier: String) throws(StoreError) -> MassRenewalExtension? {
        try RenewalExtender(clockwork: clockwork).status(productID: productID, requestIdentifier: requestIdentifier)
    }

    /// Extends a subscription's current period by `days` days with a new request (a control, for tests and QA):
    /// `wrongState` when Apple's rules refuse it. Returns its newest transaction, re-signed.
    @discardableResult
    public func extendRenewalDate(originalTransactionID: UInt64, days: Int) throws(StoreError) -> StoreTransaction {
        let outcome = try extendRenewalDate(originalTransactionID: originalTransactionID, days: days, requestIdentifier: UUID().uuidString)
        guard case .extended(let made) = outcome,
              let extended = try state.withLock({ state throws(StoreError) in try state.transaction(id: made.transactionID) }) else {
            throw StoreError(.wrongState, "\(originalTransactionID) cannot be extended: \(outcome)")
        }
        return extended
    }

    /// Makes renewals fail to charge (SKTestSession `shouldEnterBillingRetryOnRenewal`): a subscription whose
    /// period ends enters billing retry instead of renewing, and ends (`expired`) unless a grace period keeps it.
    /// The App Store keeps retrying for 60 days: turned off within them, the next retry (the next tick)
    /// renews the subscription from that moment; after them the subscription has ended for good.
    public func setBillingIssuesEnabled(_ enabled: Bool) throws(StoreError) {
        try setOverride(LocalStoreSettings.Key.billingIssues, enabled ? "1" : "0")
    }

    /// Lets a subscription in billing retry stay active through a grace period (SKTestSession
    /// `billingGracePeriodIsEnabled`).
    public func setBillingGracePeriodEnabled(_ enabled: Bool) throws(StoreError) {
        try setOverride(LocalStoreSettings.Key.gracePeriod, enabled ? "1" : "0")
    }

    /// The user fixes the payment of a subscription in billing retry (SKTestSession
    /// `resolveIssueForTransaction`): it renews now, and the game receives the renewal.
    public func resolveBillingIssue(productID: String) throws(StoreError) {
        let settings = try currentSettings()
        let renewal = try state.withLock { state throws(StoreError) in
            guard let chain = try state.subscriptionChains().first(where: { $0.latest.productID == productID && $0.state.billingRetry }),
                  let item = catalog.product(id: chain.state.renewProductID ?? productID), item.subscription != nil else {
                throw StoreError(.wrongState, "'\(productID)' is not in billing retry")
            }
            return try state.database.transaction { () throws(StoreError) in
                try state.updateChain(chain.latest.id) { $0.billingRetry = false; $0.graceExpires = nil }
                return try clockwork.renew(chain.latest, into: item, from: now(), settings, in: state)
            }
        }
        updateSink.yield(.purchased(renewal))
    }

    /// Turns a subscription's auto-renew on or off (SKTestSession `enable/disableAutoRenewForTransaction`).
    /// Off, it ends at the end of its period and the game receives `expired`.
    public func setAutoRenew(productID: String, enabled: Bool) throws(StoreError) {
        let settings = try currentSettings()
        try state.withLock { state throws(StoreError) in
            let latest = try activeChain(productID, in: state).latest
            try state.database.transaction { () throws(StoreError) in
                try state.updateChain(latest.id) { $0.autoRenew = enabled }
                _ = try clockwork.resign(latest.id, settings, in: state)  // autoRenewStatus
            }
        }
    }

    /// Buys a product from outside the game (SKTestSession `buyProduct`): charged now, it reaches the game as
    /// a `purchased` event without a request, as a purchase made on another device would.
    @discardableResult
    public func buyProduct(_ productID: String, quantity: Int = 1) throws(StoreError) -> StoreTransaction {
        let settings = try currentSettings()
        guard let item = catalog.product(id: productID) else {
            throw StoreError(.unknownProduct, "product '\(productID)' is not in the catalog")
        }
        guard PaymentRequest.allowedQuantities.contains(quantity), quantity == 1 || item.type.allowsQuantity else {
            throw StoreError(.quantityOutOfRange, "quantity \(quantity) is not allowed for '\(productID)'")
        }
        let transaction = try state.withLock { state throws(StoreError) in
            try charge(item, PaymentRequest(productID: productID, quantity: quantity), offer: nil, settings, in: state)
        }
        updateSink.yield(.purchased(transaction))
        return transaction
    }

    // MARK: - Family Sharing

    /// A family member buys `productID` and shares it with this user (StoreKit: a transaction whose
    /// `ownershipType` is `familyShared`, delivered through `Transaction.updates`): it reaches the game as a
    /// `purchased` event without a request, owned `FAMILY_SHARED` (in its signed payload too), and entitles the
    /// user. Only for a product whose catalog entry is `familyShareable` (`invalidArgument` otherwise), and not
    /// while the user owns it already (`wrongState`). A shared subscription renews as the family member's does,
    /// each renewal shared, without this user's offers. `iosiap-store buy --family`.
    @discardableResult
    public func buyFamilySharedProduct(_ productID: String) throws(StoreError) -> StoreTransaction {
        let settings = try currentSettings()
        guard let item = catalog.product(id: productID) else {
            throw StoreError(.unknownProduct, "product '\(productID)' is not in the catalog")
        }
        guard item.familyShareable else {
            throw StoreError(.invalidArgument, "'\(productID)' is not family-shareable (familyShareable is false in the catalog): "
                             + "a family member cannot share it")
        }
        let purchaseDate = now()
        let transaction = try state.withLock { state throws(StoreError) in
            try state.database.transaction { () throws(StoreError) in
                if let owned = try state.ownedTransactions(at: purchaseDate).first(where: {
                    $0.productID == productID || ($0.subscriptionGroupID != nil && $0.subscriptionGroupID == item.subscription?.groupID)
                }) {
                    throw StoreError(.wrongState, "this user has '\(owned.productID)' already (transaction \(owned.id)): "
                                     + "a family member's purchase would add nothing")
                }
                let shared = try state.insert(.init(
                    productID: item.id, productType: item.type, quantity: 1, purchaseDate: purchaseDate,
                    expirationDate: item.subscription.map { settings.timeRate.end(of: $0.period, from: purchaseDate) },
                    storefront: settings.storefront.code, reason: .purchase, subscriptionGroupID: item.subscription?.groupID,
                    ownershipType: .familyShared))
                return try sign(shared, settings, in: state)
            }
        }
        updateSink.yield(.purchased(transaction))
        return transaction
    }

    /// The family member stops sharing, or this user leaves the family: the shared purchase is revoked now
    /// (revocation reason 0, as Apple sets it then; for a subscription, its newest transaction, so it renews no
    /// more) and the game receives `revoked`, at its next launch if it is not running. `wrongState` for a
    /// transaction the user bought or whose sharing already ended. `iosiap-store stop-family-sharing`.
    @discardableResult
    public func stopFamilySharing(transactionID: UInt64) throws(StoreError) -> StoreTransaction {
        let newest = try state.withLock { state throws(StoreError) -> UInt64 in
            guard let transaction = try state.transaction(id: transactionID) else {
                throw StoreError(.unknownTransaction, "the local store has no transaction \(transactionID)")
            }
            guard transaction.ownershipType == .familyShared else {
                throw StoreError(.wrongState, "transaction \(transactionID) was bought by this user, not shared by a family member: "
                                 + "refund it instead")
            }
            let newest = try state.allTransactions().last { $0.originalID == transaction.originalID } ?? transaction
            guard !newest.isRevoked else {
                throw StoreError(.wrongState, "the family sharing of transaction \(transactionID) has already ended")
            }
            return newest.id
        }
        return try refund(newest, reason: .refundedForOtherReason) { _ throws(StoreError) in }
    }

    /// The user redeems offer code `referenceName` of subscription `productID` in the App Store, outside the
    /// game (StoreKit: the offer code redemption sheet, or a code's URL): charged now at the offer's price, it
    /// reaches the game as a `purchased` event without a request, with offer type 3 (`offerCode`) and the
    /// reference name as offer id. A current subscriber of the same product gets it from the next renewal.
    /// Refused with `ineligibleForOffer`, charging nothing, when the code is not for this user (new, existing
    /// or expired subscribers of the group); `iosiap-store redeem-code`.
    @discardableResult
    public func redeemOfferCode(productID: String, referenceName: String) throws(StoreError) -> StoreTransaction {
        let settings = try currentSettings()
        guard let item = catalog.product(id: productID) else {
            throw StoreError(.unknownProduct, "product '\(productID)' is not in the catalog")
        }
        let transaction = try state.withLock { state throws(StoreError) in
            try state.database.transaction { () throws(StoreError) in
                let offer = try SubscriptionOfferRules.offerCode(referenceName, of: item, in: state, at: now())
                return try charge(item, PaymentRequest(productID: productID), offer: offer, settings, in: state)
            }
        }
        updateSink.yield(.purchased(transaction))
        return transaction
    }

    /// Starts a purchase in the "App Store", outside the game (StoreKit: a `PurchaseIntent` from a promoted
    /// in-app purchase): the game running on this state directory receives `purchaseIntent` and decides to
    /// pay for it now, later or not at all. Nothing is charged until it does.
    ///
    /// `offerID` names a win-back offer of subscription `productID` the user redeems in the App Store: the
    /// event carries it (StoreKit: `PurchaseIntent.offer`, which Apple documents as set for a win-back offer).
    /// The App Store offers it to lapsed subscribers only, so an offer the catalog lacks is refused with
    /// `invalidOfferIdentifier`, one this user may not redeem now with `ineligibleForOffer`; nothing is stored.
    public func requestPurchaseIntent(productID: String, offerID: String? = nil) throws(StoreError) {
        guard let item = catalog.product(id: productID) else {
            throw StoreError(.unknownProduct, "product '\(productID)' is not in the catalog")
        }
        let timeRate = try currentSettings().timeRate
        try state.withLock { state throws(StoreError) in
            try state.database.transaction { () throws(StoreError) in
                let offer = try offerID.map { (id) throws(StoreError) in
                    try SubscriptionOfferRules.winBackOffer(id, of: item, catalog: catalog, in: state, timeRate: timeRate, at: now()).0
                }
                try state.addPurchaseIntent(productID, offer: offer, at: now())
            }
        }
        try advanceTime()
    }

    // MARK: - App Store messages

    /// Raises an App Store message about subscription `productID` (StoreKit: a `Message` with that reason): the
    /// game running on this state directory receives `storeKitMessage` within a second, or else the next game to
    /// open it; it waits, and comes again at each launch, until the game displays it. A win-back offer message
    /// may name one of the product's win-back offers. `iosiap-store message`.
    @discardableResult
    public func sendMessage(_ reason: StoreMessage.Reason, productID: String, offerID: String? = nil) throws(StoreError) -> LocalStoreMessage {
        guard let item = catalog.product(id: productID) else {
            throw StoreError(.unknownProduct, "product '\(productID)' is not in the catalog")
        }
        if reason != .generic, item.subscription == nil {
            throw StoreError(.invalidArgument, "'\(productID)' is not an auto-renewable subscription: a \(reason) message is about one")
        }
        if let offerID {
            guard reason == .winBackOffer else { throw StoreError(.invalidArgument, "only a win-back offer message names an offer") }
            guard item.subscription?.winBackOffers.contains(where: { $0.terms.id == offerID }) == true else {
                throw StoreError(.invalidOfferIdentifier, "'\(productID)' has no win-back offer '\(offerID)'")
            }
        }
        let id = try state.withLock { state throws(StoreError) in
            try state.addMessage(reason, productID: productID, offerID: offerID, at: now())
        }
        try advanceTime()
        guard let message = try messages().first(where: { $0.id == id }) else {
            throw StoreError(.storageFailure, "message \(id) vanished right after it was written")
        }
        return message
    }

    /// Every App Store message raised, oldest first, with when the game displayed it.
    public func messages() throws(StoreError) -> [LocalStoreMessage] {
        try state.withLock { state throws(StoreError) in try state.messages() }
    }

    /// Records that the game displayed message `id` (the local store shows nothing); a message must have been
    /// delivered to this game and not displayed yet.
    public func displayMessage(id: String, uiContext: UIContext?) throws(StoreError) {
        // Matched as given, as StoreKit's backend matches ids: "+3" or "03" is no id a game was told.
        guard let number = Int64(id), String(number) == id, clockwork.toldMessages.withLock({ $0.contains(number) }) else {
            throw StoreError(.invalidArgument, "no App Store message '\(id)' was delivered to this game")
        }
        let displayed = try state.withLock { state throws(StoreError) in try state.markMessageDisplayed(number, at: now()) }
        guard displayed else { throw StoreError(.wrongState, "App Store message \(id) was displayed already") }
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

    /// The active subscription to `productID` the controls act on: the user's own when they also have it
    /// through Family Sharing.
    private func activeChain(_ productID: String, in state: LocalStoreState) throws(StoreError) -> LocalStoreState.SubscriptionChain {
        let current = now()
        let active = try state.subscriptionChains().filter {
            $0.latest.productID == productID && ($0.latest.expirationDate ?? .distantPast) > current
        }
        guard let chain = active.first(where: { $0.latest.ownershipType == .purchased }) ?? active.first else {
            throw StoreError(.wrongState, "'\(productID)' is not an active subscription")
        }
        return chain
    }

    /// The root certificate (DER) of the chain this store signs with: what a verifier of its transactions
    /// trusts. Also in `signing/root.der` in the state directory.
    public var signingRootCertificate: [UInt8] { signer.chain.root.der }

    /// A verifier of this store's signed transactions: trusts its root, its bundle id and environment.
    public func makeVerifier() throws(StoreError) -> SignedDataVerifier {
        try SignedDataVerifier(trustedRoots: [signingRootCertificate], bundleID: bundleID, environment: environment)
    }

    /// Every transaction the store charged, oldest first (SKTestSession `allTransactions()`).
    public func allTransactions() throws(StoreError) -> [StoreTransaction] {
        try state.withLock { state throws(StoreError) in try state.allTransactions() }
    }

    // MARK: - Private

    /// Charges a purchase, with the promotional offer it redeems if any. A non-consumable the user owns, or a
    /// subscription still active, is not charged again: the App Store answers with the transaction that
    /// already grants it (an offer redeemed for it applies from its next renewal). All in one SQL transaction
    /// (a savepoint of the caller's): a charge that fails ends no subscription, and an upgrade's `expired`
    /// is announced only once it has committed. `introductoryOfferAllowed`: an introductory offer eligibility
    /// JWS's decision, which replaces the App Store's rule; `nil` when the payment carried none.
    private func charge(_ item: CatalogProduct, _ request: PaymentRequest, offer: (TransactionOffer, CatalogOffer)?,
                        introductoryOfferAllowed: Bool? = nil, _ settings: LocalStoreSettings, pendingID: Int64? = nil,
                        in state: LocalStoreState) throws(StoreError) -> StoreTransaction {
        let purchaseDate = now()
        return try state.database.transaction { () throws(StoreError) in
            // Only what the user bought counts: a family member's purchase shared with them (FAMILY_SHARED) is
            // not theirs, and ends when the sharing does, so the user's own payment charges a purchase of theirs.
            if item.type != .consumable,
               let owned = try state.ownedTransactions(at: purchaseDate, ownership: .purchased).first(where: { $0.productID == item.id }) {
                guard let (redeemed, _) = offer else { return owned }
                try state.updateChain(owned.id) { $0.renewOfferID = redeemed.id }
                return try clockwork.resign(owned.id, settings, in: state)
            }
            // A family member's subscription in the group is theirs to change: the user's own starts beside it.
            if let subscription = item.subscription,
               let active = try state.subscriptionChains().first(where: {
                   $0.latest.subscriptionGroupID == subscription.groupID && $0.latest.ownershipType == .purchased
                       && ($0.latest.expirationDate ?? .distantPast) > purchaseDate
               }),
               let activeLevel = catalog.product(id: active.latest.productID)?.subscription?.level {
                if subscription.level > activeLevel {
                    // A downgrade starts at the next renewal, with the offer redeemed for it; until then the
                    // current level stays.
                    try state.updateChain(active.latest.id) { $0.renewProductID = item.id; $0.renewOfferID = offer?.0.id }
                    return try clockwork.resign(active.latest.id, settings, in: state)
                }
                // An upgrade or a crossgrade starts now; the replaced subscription ends now, and the game hears so.
                // Without a game listening (the transaction manager's purchase), the next game to listen hears so.
                try state.updateChain(active.latest.id) { $0.upgraded = true; $0.expiration = purchaseDate }
                let ended = try clockwork.resign(active.latest.id, settings, in: state)
                if !clockwork.gameListens.withLock({ $0 }) { try state.markEndUntold(ended.id) }
                let sink = updateSink
                state.database.onCommit { sink.yield(.expired(ended)) }
            }
            var expiration: Date?
            var applied: TransactionOffer?
            if let subscription = item.subscription {
                if let (redeemed, terms) = offer {
                    expiration = settings.timeRate.end(of: terms.period, count: terms.periodsPerTransaction, from: purchaseDate)
                    applied = redeemed
                } else if let intro = subscription.introductoryOffer,
                          try SubscriptionOfferRules.getsIntroductoryOffer(inGroup: subscription.groupID, allowed: introductoryOfferAllowed,
                                                                           in: state) {
                    expiration = settings.timeRate.end(of: intro.period, count: intro.periodsPerTransaction, from: purchaseDate)
                    applied = TransactionOffer(type: .introductory, id: nil)
                } else {
                    expiration = settings.timeRate.end(of: subscription.period, from: purchaseDate)
                }
            }
            let charged = try state.insert(.init(
                productID: item.id, productType: item.type, quantity: request.quantity, purchaseDate: purchaseDate,
                expirationDate: expiration, appAccountToken: request.appAccountToken,
                storefront: settings.storefront.code, reason: .purchase,
                subscriptionGroupID: item.subscription?.groupID, offer: applied, pendingID: pendingID))
            return try sign(charged, settings, in: state)
        }
    }

    // MARK: - Promotional offers

    /// Signs a promotional offer with the catalog's `subscriptionOffersKeyPair`, as the game's server would
    /// with its In-App Purchase key: for QA and tests, whose server is not at hand. Stamped with the store's
    /// clock and a fresh nonce.
    public func signPromotionalOffer(productID: String, offerID: String,
                                     appAccountToken: UUID? = nil) throws(StoreError) -> SignedPromotionalOffer {
        try offers.sign(offerID, of: try catalogProduct(productID), appAccountToken: appAccountToken, at: now())
    }

    /// Signs a promotional offer as a JWS with the catalog's `subscriptionOffersKeyPair`, as the game's server
    /// would with Apple's `PromotionalOfferV2SignatureCreator`: for QA and tests (`iosiap-store sign-offer --jws`).
    /// `transactionID` (optional): any transaction of the user, or its app transaction id. Issued at the store's
    /// clock with a fresh nonce; its `iss` is a placeholder (`00000000-0000-0000-0000-000000000000`): a `.storekit`
    /// key has no issuer id.
    public func signPromotionalOfferJWS(productID: String, offerID: String, transactionID: String? = nil) throws(StoreError) -> String {
        try offers.signJWS(offerID, of: try catalogProduct(productID), transactionID: transactionID, at: now())
    }

    /// Signs whether a purchase of `productID` gets its introductory offer (`allow`), whatever the App Store's own
    /// rule says, as a JWS with the catalog's key, as the game's server would with Apple's
    /// `IntroductoryOfferEligibilitySignatureCreator`: for QA and tests (`iosiap-store sign-intro-eligibility`).
    /// `transactionID`: any transaction of the user, or its app transaction id. Issued, and its `iss` set, as
    /// `signPromotionalOfferJWS`'s.
    public func signIntroductoryOfferEligibility(productID: String, allow: Bool, transactionID: String) throws(StoreError) -> String {
        try offers.signIntroductoryOfferEligibility(allow, of: try catalogProduct(productID), transactionID: transactionID, at: now())
    }

    private func catalogProduct(_ productID: String) throws(StoreError) -> CatalogProduct {
        guard let item = catalog.product(id: productID) else {
            throw StoreError(.unknownProduct, "product '\(productID)' is not in the catalog")
        }
        return item
    }

    private func sign(_ transaction: StoreTransaction, _ settings: LocalStoreSettings,
                      in state: LocalStoreState) throws(StoreError) -> StoreTransaction {
        try clockwork.sign(transaction, settings, in: state)
    }

    private func failIfSimulated(_ api: FailableAPI, _ settings: LocalStoreSettings) throws(StoreError) {
        if let error = simulatedError(api, settings) { throw error }
    }

    private func simulatedError(_ api: FailableAPI, _ settings: LocalStoreSettings) -> StoreError? {
        settings.simulatedErrors[api].map { StoreError($0, "simulated \(api.catalogName) error: \($0.summary)") }
    }

    private func setOverride(_ key: String, _ value: String?) throws(StoreError) {
        try state.withLock { state throws(StoreError) in try state.setOverride(key, value) }
    }
}
