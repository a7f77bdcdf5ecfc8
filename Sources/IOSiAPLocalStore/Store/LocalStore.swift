#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPVerification

/// A local App Store: sells the products of an Xcode `.storekit` catalog on any platform, keeps what the
/// simulated user owns in the state directory, and can be told to defer, cancel or fail (the controls).
///
/// It is a `StoreBackend`: open a `PurchaseStore` over it. Its controls are the StoreKitTest
/// `SKTestSession` equivalents; they are stored in the state directory, so they survive restarts (but the
/// locale and storefront, which `LocalPurchaseStore.open` sets at each open).
///
/// What it does is split by job into the `LocalStore+*.swift` extensions beside this file.
public final class LocalStore: StoreBackend, RenewalDateExtending, TransactionHistoryPaging {
    /// The catalog it sells.
    public let catalog: Catalog
    /// The app's bundle id, as signed transactions carry it.
    public let bundleID: String
    /// The environment signed transactions name.
    public let environment: StoreEnvironment
    let signer: TransactionSigner
    let clockwork: LocalStoreClockwork
    let offers: PromotionalOffers

    let state: Locked<LocalStoreState>
    let now: @Sendable () -> Date
    let updateStream: AsyncStream<StoreUpdate>
    let updateSink: LocalStoreUpdateSink
    /// How many times the game asked for the offer code sheet (`presentOfferCodeRedeemSheet`).
    let offerCodeSheets = Locked(0)
    /// Started by `updates()`, when a purchase store has taken the state directory: a store opened only to
    /// be refused, or by the transaction manager, watches nothing.
    let watcher = Locked<PeriodicWatcher?>(nil)
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
        let (stream, continuation) = AsyncStream<StoreUpdate>.makeStream()
        let sink = LocalStoreUpdateSink(continuation: continuation)
        self.state = state
        (updateStream, updateSink) = (stream, sink)
        // Refunds made while no game ran (the transaction manager, another process): every refund is reported at
        // launch, as the StoreKit backend finds them in Transaction.all; the core applies those of transactions its
        // journal holds and has not recorded refunded, and drops the rest (a reinstall takes back nothing it never
        // granted).
        for revoked in try state.withLock({ state throws(StoreError) in try state.revokedTransactions() }) {
            sink.yield(.refundFound(revoked))
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

    deinit {
        // Without waiting (the last reference may go on any thread): the watcher's thread ends on its own.
        watcher.withLock { $0 }?.requestStop()
        notifications.stopSender()
    }
}
