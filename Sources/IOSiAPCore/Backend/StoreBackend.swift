/// How a purchase ended, as a backend reports it. Failures are thrown as `StoreError`.
public enum PurchaseOutcome: Sendable, Equatable {
    /// Charged: the transaction to grant.
    case purchased(StoreTransaction)
    /// The user cancelled: nothing charged.
    case cancelled
    /// Waiting for approval (Ask to Buy); the outcome arrives later as a `StoreUpdate`.
    case deferred
}

/// Something the store reports on its own, outside any request (StoreKit 2: `Transaction.updates`).
public enum StoreUpdate: Sendable, Equatable {
    /// A purchase completed outside a request: an Ask to Buy approval, a purchase made elsewhere, a renewal.
    case purchased(StoreTransaction)
    /// A deferred purchase was approved or resolved, and ended with this transaction: perhaps one the game was
    /// told of already, since the store answers a purchase of something owned with the transaction that grants it.
    case deferredPurchaseCompleted(StoreTransaction)
    /// A deferred purchase was declined.
    case declined(productID: String)
    /// A transaction was refunded or revoked.
    case revoked(StoreTransaction)
    /// An auto-renewable subscription ended without renewing (auto-renew off, or expired by the store).
    case expired(StoreTransaction)
    /// A purchase started outside the game, in the App Store (StoreKit: `PurchaseIntent`), with the subscription
    /// offer the user chose there, if any (`PurchaseIntent.offer`).
    case purchaseIntent(StoreProduct, offer: TransactionOffer?)
    /// The App Store has a message for the user, kept until the game shows it (StoreKit: `Message.messages`).
    case message(StoreMessage)
    /// The user's storefront changed, ISO 3166-1 alpha-3 (StoreKit: `Storefront.updates`).
    case storefrontChanged(String)
    /// A transaction the store lists among what the user owns now, reported at launch (StoreKit:
    /// `Transaction.currentEntitlements`, which needs no sign-in): a reinstall or a new device starts with an empty
    /// journal. Also the newest copy of a subscription it no longer lists (ended while the app was closed): it brings
    /// the journal's copy up to date. Recorded so that entitlements see it; the game is told nothing.
    case entitled(StoreTransaction)
    /// A refund the store holds, reported at launch (StoreKit: a revoked transaction in `Transaction.all`; its
    /// updates need not report a refund made while the app was closed): applied as `revoked` when the journal holds
    /// the transaction or its subscription, else dropped, so that a reinstall takes back nothing this install never
    /// granted.
    case refundFound(StoreTransaction)
    /// A subscription's billing grace period is over before the end the journal holds for the transaction (StoreKit:
    /// its status is in billing retry or expired; at launch, it is no longer among the current entitlements): the
    /// record forgets that end, and the game is told `expired` if it was still ahead. It only takes away, so it needs
    /// no verdict: a forged one could end only its own player's grace period.
    case gracePeriodEnded(StoreTransaction)
}

/// A store the core can drive: the local App Store everywhere, StoreKit 2 on Apple platforms.
///
/// The core calls these from its own worker, one request at a time, never on the game's thread.
public protocol StoreBackend: Sendable {
    /// The products the store knows among `ids` (already deduplicated). Unknown ids are simply absent.
    func products(for ids: [String]) async throws(StoreError) -> [StoreProduct]

    /// Runs a payment for `product`, which the core has validated against `request`.
    func purchase(_ request: PaymentRequest, product: StoreProduct) async throws(StoreError) -> PurchaseOutcome

    /// Syncs with the store and returns what the user owns now: non-consumables and active subscriptions.
    func restore() async throws(StoreError) -> [StoreTransaction]

    /// The transactions the store still considers unfinished (StoreKit 2: `Transaction.unfinished`).
    func unfinishedTransactions() async throws(StoreError) -> [StoreTransaction]

    /// Tells the store the game has granted a transaction.
    func finish(transactionID: UInt64) async throws(StoreError)

    /// Starts the App Store's sheet where the user enters an offer code (StoreKit 2:
    /// `AppStore.presentOfferCodeRedeemSheet(in:)`) and returns without waiting for it; a code redeemed
    /// arrives through `updates()` as a purchase. Throws when the sheet cannot be shown here.
    func presentOfferCodeRedeemSheet(uiContext: UIContext?) throws(StoreError)

    /// Shows the App Store's refund request sheet for the transaction with this id (StoreKit 2:
    /// `Transaction.beginRefundRequest(for:in:)`) and returns once the sheet closes: sent or not. Throws why the
    /// request could not be made (`duplicateRefundRequest` for a transaction already refunded or with a request
    /// pending).
    func beginRefundRequest(transactionID: UInt64, uiContext: UIContext?) async throws(StoreError) -> RefundRequestOutcome

    /// Shows the App Store's sheet where the user manages subscriptions (StoreKit 2:
    /// `AppStore.showManageSubscriptions(in:)`) and returns once it closes; what the user changed there arrives
    /// through `updates()`. Throws when the sheet cannot be shown.
    func showManageSubscriptions(uiContext: UIContext?) async throws(StoreError)

    /// Shows the message with this id, one `updates()` delivered and not shown yet, near `uiContext` (StoreKit 2:
    /// `message.display(in:)`). Throws `invalidArgument` for an id it never delivered, `wrongState` for one
    /// already shown.
    func displayMessage(id: String, uiContext: UIContext?) throws(StoreError)

    /// Whether this user may make payments at all.
    var canMakePayments: Bool { get }

    /// The user's storefront, ISO 3166-1 alpha-3 (StoreKit 2: `Storefront.current`).
    func storefront() async throws(StoreError) -> String

    /// Where the subscription of a group stands, or `nil` when the user never subscribed in it
    /// (StoreKit 2: `Product.SubscriptionInfo.status(for:)`).
    func subscriptionStatus(groupID: String) async throws(StoreError) -> StoreSubscriptionStatus?

    /// Whether the user may still get an introductory offer in subscription group `groupID` (StoreKit 2:
    /// `Product.SubscriptionInfo.isEligibleForIntroOffer(for:)`).
    func isEligibleForIntroOffer(groupID: String) async throws(StoreError) -> Bool

    /// Every transaction of this user, oldest first: refunded, revoked, expired and finished ones too
    /// (StoreKit 2: `Transaction.all`).
    func transactionHistory() async throws(StoreError) -> [StoreTransaction]

    /// The app's own signed purchase record (StoreKit 2: `StoreAppTransaction.shared`), verified by the store.
    func appTransaction() async throws(StoreError) -> StoreAppTransaction

    /// The store's own reports. Called once, when the core opens; the stream ends when the backend closes.
    func updates() -> AsyncStream<StoreUpdate>

    /// Stops the backend's background work and ends its update stream. It returns at once, without waiting for
    /// the backend's own threads to end (it may be called on a thread of Swift's concurrency pool): see
    /// `waitUntilStopped`.
    func close()

    /// Waits, after `close`, until the backend's own threads have ended, at most `timeout`; says whether they
    /// have. It blocks the calling thread: for a caller on a thread of its own, like the C ABI's close, so that
    /// nothing of the backend runs once it returns.
    @available(*, noasync, message: "blocks a thread of the concurrency pool")
    func waitUntilStopped(timeout: Duration) -> Bool

    /// A verification failure the store itself decides for `transaction`, overriding the verifier's verdict
    /// (the local store's simulated verification errors). Asked only when the core verifies transactions.
    func forcedVerificationFailure(of transaction: StoreTransaction) -> StoreError?

    /// The journal has recorded the end a `StoreUpdate.expired` reported: a store that reports an end again at
    /// each launch until it is recorded (the local store) stops reporting this one. StoreKit needs no such word.
    func endRecorded(transactionID: UInt64)
}

extension StoreBackend {
    public func forcedVerificationFailure(of transaction: StoreTransaction) -> StoreError? { nil }

    public func endRecorded(transactionID: UInt64) {}

    /// A backend without threads of its own has nothing to wait for.
    @available(*, noasync, message: "blocks a thread of the concurrency pool")
    public func waitUntilStopped(timeout: Duration) -> Bool { true }
}
