// A behavioural `StoreKit` for Linux: the StoreKit 2 API that Sources/IOSiAPStoreKit/Live/LiveStoreKit.swift calls,
// declared as Tests/AppleSDK/StoreKit27 transcribes it (the iOS 27.0 SDK), with bodies that behave as Apple documents
// StoreKit 2 behaving, backed in-process by the local App Store (IOSiAPLocalStore). Built only in the stand-in graph
// (IOSIAP_STOREKIT_STANDIN=1, see Package.swift), for tests: never into the normal library, and never where Apple's
// StoreKit exists (a module named `StoreKit` would shadow it).
//
// Each behaviour names its source: a page of Apple's documentation (developer.apple.com/documentation/storekit/...),
// or, where Apple is silent, what the local store does (which follows StoreKitTest), said so.
import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPVerification

/// The App Store behind the stand-in: one local store per process, as StoreKit serves one app. Opened on first use
/// from `IOSIAP_STOREKIT_CONFIGURATION` (the `.storekit` file, as an Xcode scheme selects one) and
/// `IOSIAP_STOREKIT_STATE` (the local store's state directory, which `iosiap-store --state` changes from outside),
/// or by `StoreKitStandIn.open` in tests.
final class StandInAppStore: Sendable {
    let local: LocalStore
    let verifier: SignedDataVerifier
    /// The local store's clock: what is active is decided at its time.
    let now: @Sendable () -> Date
    private let listeners = Locked(Listeners())
    private let pump: Task<Void, Never>
    /// Whether `Transaction.updates` has had its first listener in this process (see `transactionUpdates`).
    private let launchTold = Locked(false)
    /// `AppStore.sync()` throws `userCancelled` while set: the user dismisses the sign-in.
    let syncCancelled = Locked(false)
    /// Whether, and when, a purchase's transaction is also reported through `Transaction.updates` (see
    /// `StoreKitStandIn.PurchaseEcho`), and how many such echoes were reported, so a test can wait for one.
    let purchaseEcho = Locked<StoreKitStandIn.PurchaseEcho?>(nil)
    let echoesReported = Locked(0)
    /// What the app has read of StoreKit (`StoreKitStandIn.reads()`).
    let reads = Locked(StoreKitStandIn.Reads())
    /// The window scene the last purchase confirmed in (`purchase(confirmIn:)`), by identity.
    let lastConfirmationScene = Locked<ObjectIdentifier?>(nil)
    /// Whether `Transaction.all` keeps finished consumables (`StoreKitStandIn.setIncludesConsumableHistory`, or
    /// `IOSIAP_STOREKIT_CONSUMABLE_HISTORY=1` for a store opened from the environment).
    let includesConsumableHistory = Locked(false)
    /// What each transaction said when the app last got it (`reportedFields`), through an update or a purchase's
    /// result: the local store re-reports a subscription entering billing retry within its grace period (for the
    /// game's record), but StoreKit creates or updates no transaction then, only the renewal info
    /// ("Transaction.updates": created or updated transactions).
    private let reported: Locked<[UInt64: [Date?]]>

    private struct Listeners {
        var transactions: [UUID: AsyncStream<VerificationResult<Transaction>>.Continuation] = [:]
        var intents: [UUID: AsyncStream<PurchaseIntent>.Continuation] = [:]
        var messages: [UUID: AsyncStream<Message>.Continuation] = [:]
        var storefronts: [UUID: AsyncStream<Storefront>.Continuation] = [:]
        var statuses: [UUID: AsyncStream<Product.SubscriptionInfo.Status>.Continuation] = [:]
        /// Closed: a listener that comes later (one that was waiting for the unfinished transactions) ends at once.
        var isClosed = false
    }

    private static let current = Locked<StandInAppStore?>(nil)

    init(local: LocalStore, now: @escaping @Sendable () -> Date = { Date() }) throws(StoreError) {
        self.local = local
        self.now = now
        verifier = try local.makeVerifier()
        let listeners = self.listeners
        // The local store reports every refund again when it opens; StoreKit's updates are not documented to (a
        // refund made while the app was closed is found in `Transaction.all`): those are not passed on.
        let existing = try local.allTransactions()
        let refundedBefore = Set(existing.filter(\.isRevoked).map(\.id))
        let reported = Locked(Dictionary(existing.map { ($0.id, Self.reportedFields($0)) }) { $1 })
        self.reported = reported
        let updates = local.updates()
        let verifier = self.verifier
        pump = Task {
            for await update in updates {
                if case .revoked(let refunded) = update, refundedBefore.contains(refunded.id) { continue }
                switch update {
                case .purchased(let transaction) where transaction.productType == .autoRenewable,
                     .expired(let transaction) where transaction.productType == .autoRenewable:
                    await Self.reportStatus(of: transaction, to: listeners, local: local, verifier: verifier)
                default:
                    break
                }
                if case .purchased(let transaction) = update {
                    let fields = Self.reportedFields(transaction)
                    guard reported.withLock({ $0.updateValue(fields, forKey: transaction.id) }) != fields else { continue }
                }
                Self.dispatch(update, to: listeners, local: local, verifier: verifier)
            }
        }
    }

    /// Notes a transaction handed to the app as a purchase's result, and echoes it to `Transaction.updates` when
    /// the switch says so: before the result is returned, or from a task of its own after.
    func noteReported(_ transaction: StoreTransaction) {
        reported.withLock { $0[transaction.id] = Self.reportedFields(transaction) }
        switch purchaseEcho.withLock({ $0 }) {
        case nil: break
        case .beforeResult?: echo(transaction)
        case .afterResult?:
            Task {
                try? await Task.sleep(for: .milliseconds(100))  // users report the echo seconds after the result
                self.echo(transaction)
            }
        }
    }

    /// Reports `transaction` to the updates' listeners, counted when one was listening.
    private func echo(_ transaction: StoreTransaction) {
        if Self.tell(verificationResult(transaction), to: \.transactions, of: listeners) > 0 {
            echoesReported.withLock { $0 += 1 }
        }
    }

    /// The fields of a transaction that StoreKit reports a change of: its dates of expiry and revocation (a renewal
    /// is a new transaction; a refund sets `revocationDate`). Apple does not list what counts as an update of a
    /// transaction ("Transaction.updates"): these are the stand-in's choice.
    private static func reportedFields(_ transaction: StoreTransaction) -> [Date?] {
        [transaction.expirationDate, transaction.revocationDate]
    }

    /// The store in use: the one `StoreKitStandIn.open` made, else one opened from the environment.
    static func shared() throws(StoreKitError) -> StandInAppStore {
        try current.withLock { current throws(StoreKitError) in
            if let store = current { return store }
            let environment = ProcessInfo.processInfo.environment
            guard let configuration = environment["IOSIAP_STOREKIT_CONFIGURATION"], let state = environment["IOSIAP_STOREKIT_STATE"] else {
                throw StoreKitError.systemError(StandInError(message: "the StoreKit stand-in needs IOSIAP_STOREKIT_CONFIGURATION "
                    + "(a .storekit file) and IOSIAP_STOREKIT_STATE (the local store's state directory)"))
            }
            do throws(StoreError) {
                let store = try StandInAppStore(local: LocalStore(catalogURL: URL(fileURLWithPath: configuration),
                                                                  stateDirectory: StateDirectory(path: state)))
                // The app's Info.plist key SKIncludeConsumableInAppPurchaseHistory, as the environment stands for it.
                store.includesConsumableHistory.withLock { $0 = environment["IOSIAP_STOREKIT_CONSUMABLE_HISTORY"] == "1" }
                current = store
                return store
            } catch {
                throw StoreKitError.systemError(StandInError(message: "the StoreKit stand-in cannot open its store: \(error.message)"))
            }
        }
    }

    static func install(_ store: StandInAppStore?) {
        let old = current.withLock { current in
            defer { current = store }
            return current
        }
        old?.close()
    }

    /// Ends every sequence open on this store, as the app's process ending ends StoreKit's (a relaunch in tests).
    func close() {
        pump.cancel()
        local.close()
        // Finished outside the lock: finishing a stream runs its termination handler at once, and that handler
        // takes the lock to remove its listener (finishing under it deadlocked a test's teardown).
        let stopped = listeners.withLock { listeners in
            defer {
                listeners = Listeners()
                listeners.isClosed = true
            }
            return listeners
        }
        stopped.transactions.values.forEach { $0.finish() }
        stopped.intents.values.forEach { $0.finish() }
        stopped.messages.values.forEach { $0.finish() }
        stopped.storefronts.values.forEach { $0.finish() }
        stopped.statuses.values.forEach { $0.finish() }
    }

    // MARK: - What the store reports

    /// The local store's updates, as StoreKit reports each:
    /// - a purchase, renewal, approval or refund is a transaction created or updated: `Transaction.updates`
    ///   ("Transaction.updates": "emits a transaction when the system creates or updates transactions that occur
    ///   outside the app or on other devices"; a refund sets `revocationDate`, "Transaction.revocationDate");
    /// - a declined Ask to Buy purchase creates no transaction, so nothing is reported ("Supporting Ask to Buy ...":
    ///   a declined request produces no transaction);
    /// - an expiry changes no transaction: StoreKit reports none, the app reads the end from the transaction's
    ///   `expirationDate` and the subscription's status ("Product.SubscriptionInfo.Status");
    /// - `PurchaseIntent.intents`, `Message.messages`, `Storefront.updates` as their pages say.
    private static func dispatch(_ update: StoreUpdate, to listeners: Locked<Listeners>, local: LocalStore, verifier: SignedDataVerifier) {
        switch update {
        case .purchased(let transaction), .deferredPurchaseCompleted(let transaction), .revoked(let transaction):
            let result = verificationResult(transaction, local: local, verifier: verifier)
            tell(result, to: \.transactions, of: listeners)
        case .declined, .expired, .entitled, .refundFound, .gracePeriodEnded:  // (the last three are StoreKit's, never the local store's)
            break
        case .purchaseIntent(let product, let offer):
            let intent = PurchaseIntent(product: Product(product), offerReference: offer)
            tell(intent, to: \.intents, of: listeners)
        case .message(let message):
            tell(Message(message), to: \.messages, of: listeners)
        case .storefrontChanged(let code):
            tell(Storefront(countryCode: code), to: \.storefronts, of: listeners)
        }
    }

    /// `Transaction.updates` for one listener. "If your app has unfinished transactions, the updates listener
    /// receives them once, immediately after the app launches" ("Transaction.updates"): the first listener of
    /// this process gets them first. They are read as it is registered, under the listeners' lock that each report
    /// takes: a renewal the store's clock makes meanwhile is in what is read, or reported to it, or both (told
    /// twice, as a purchase may be), never neither (read before, registered after lost it: simulation seed 8013).
    func transactionUpdates() -> AsyncStream<VerificationResult<Transaction>> {
        let first = launchTold.withLock { told in
            defer { told = true }
            return !told
        }
        guard first else { return listen(\.transactions) }
        let (local, verifier) = (self.local, self.verifier)
        defer { reads.withLock { $0.launchUpdates += 1 } }
        return listen(\.transactions) {
            ((try? local.history()) ?? []).filter { !$0.isFinished }.map {
                Self.verificationResult($0.transaction, local: local, verifier: verifier)
            }
        }
    }

    func intents() -> AsyncStream<PurchaseIntent> { listen(\.intents) }

    func messages() -> AsyncStream<Message> { listen(\.messages) }

    func storefronts() -> AsyncStream<Storefront> { listen(\.storefronts) }

    func statuses() -> AsyncStream<Product.SubscriptionInfo.Status> { listen(\.statuses) }

    /// A subscription's status, to `Product.SubscriptionInfo.Status.updates` ("emits when the status of a
    /// subscription changes"): each time the local store reports one of its transactions, renewals and a renewal
    /// that fails into billing retry or its grace period among them (a re-signed copy with no new dates, which
    /// `Transaction.updates` does not report), and each end it reports (an expiry, a grace period's end: the
    /// reference's table of events has `Status.updates` emit for both). A status the local store cannot read now is
    /// not reported.
    private static func reportStatus(of transaction: StoreTransaction, to listeners: Locked<Listeners>, local: LocalStore,
                                     verifier: SignedDataVerifier) async {
        guard let group = transaction.subscriptionGroupID,
              let statuses = try? await local.subscriptionStatuses(groupID: group),
              let status = statuses.first(where: { $0.transaction.id == transaction.id }) else { return }
        let reported = Product.SubscriptionInfo.storeKitStatus(status, local: local, verifier: verifier)
        tell(reported, to: \.statuses, of: listeners)
    }

    /// Gives `element` to each listener at `listenersOf`, outside the listeners' lock: a yield may take the
    /// concurrency runtime's lock of the listening task, whose cancellation holds that lock while it runs the
    /// stream's termination handler, which takes the listeners' lock (yielding under it deadlocked a close).
    @discardableResult
    private static func tell<Element: Sendable>(_ element: Element,
                                                to listenersOf: WritableKeyPath<Listeners, [UUID: AsyncStream<Element>.Continuation]>,
                                                of listeners: Locked<Listeners>) -> Int {
        let continuations = listeners.withLock { Array($0[keyPath: listenersOf].values) }
        continuations.forEach { $0.yield(element) }
        return continuations.count
    }

    /// A stream of what the store reports to the listeners at `listenersOf`, for one listener, until it stops;
    /// `first` is read and given to it first under the listeners' lock (the stream is not returned yet, so no
    /// cancellation can wait on that lock while it is yielded to).
    private func listen<Element: Sendable>(_ listenersOf: WritableKeyPath<Listeners, [UUID: AsyncStream<Element>.Continuation]> & Sendable,
                                           first: () -> [Element] = { [] }) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream()
        let id = UUID()
        let listeners = self.listeners
        continuation.onTermination = { _ in listeners.withLock { _ = $0[keyPath: listenersOf].removeValue(forKey: id) } }
        let isClosed = listeners.withLock { listeners in
            for element in first() { continuation.yield(element) }
            if !listeners.isClosed { listeners[keyPath: listenersOf][id] = continuation }
            return listeners.isClosed
        }
        if isClosed { continuation.finish() }  // outside the lock, which the termination handler takes
        return stream
    }

    // MARK: - Verification

    func verificationResult(_ transaction: StoreTransaction) -> VerificationResult<Transaction> {
        Self.verificationResult(transaction, local: local, verifier: verifier)
    }

    /// Verified when the JWS carries the store's own signature ("VerificationResult": StoreKit verifies the signed
    /// transaction on the device), else unverified with the reason; the local store's simulated verification error
    /// (`iosiap-store error set verification ...`, StoreKitTest's `failTransactionsEnabled`) makes every one unverified.
    /// A copy without a JWS is unverified as `missingRequiredProperties`, and an unverified copy is never
    /// `isUpgraded` (its payload is not trusted): Apple is silent on both.
    static func verificationResult(_ genuine: StoreTransaction, local: LocalStore,
                                   verifier: SignedDataVerifier) -> VerificationResult<Transaction> {
        let transaction = handedOver(genuine)
        if let forced = local.forcedVerificationFailure(of: transaction) {
            return .unverified(Transaction(transaction, isUpgraded: false), .init(forced.code))
        }
        guard let jws = transaction.signedJWS else {
            return .unverified(Transaction(transaction, isUpgraded: false), .missingRequiredProperties)
        }
        do {
            let signed = try verifier.verifyTransaction(jws)
            return .verified(Transaction(transaction, isUpgraded: signed.isUpgraded ?? false))
        } catch {
            return .unverified(Transaction(transaction, isUpgraded: false), .init(error.code))
        }
    }
}

extension StandInAppStore {
    typealias Forgery = @Sendable (inout StoreTransaction) -> Void

    /// Transactions whose every copy a tool on the device alters on its way to the app (`StoreKitStandIn.forgeCopies`).
    /// Kept across StoreKit's relaunches, as the tool stays installed.
    static let forgeries = Locked<[UInt64: Forgery]>([:])

    /// `genuine` as the app gets it: forged if a tool forges its copies.
    static func handedOver(_ genuine: StoreTransaction) -> StoreTransaction {
        forgeries.withLock { $0[genuine.id] }.map { forged(genuine, by: $0) } ?? genuine
    }

    /// `genuine` as `forgery` changes it, its JWS's payload rewritten to say the same (what the payload carries of
    /// it) and its signature damaged: StoreKit calls every forged copy unverified, `invalidSignature`
    /// ("VerificationResult.VerificationError"), even one whose rewritten payload happens to match the genuine one
    /// (a change to a field the payload lacks, such as the grace period's end).
    static func forged(_ genuine: StoreTransaction, by forgery: Forgery) -> StoreTransaction {
        var copy = genuine
        forgery(&copy)
        var parts = (genuine.signedJWS ?? "..").split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, !parts[2].isEmpty else {
            copy.signedJWS = nil  // no signature to damage: unverified as `missingRequiredProperties`
            return copy
        }
        if let payload = Base64URL.decode(parts[1]),
           var claims = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any] {
            // The App Store Server API's names ("JWSTransactionDecodedPayload"), in its units and ranges (as the
            // store signs them: whole milliseconds, a 32-bit quantity); a date the copy lacks is left out.
            let dates: [(String, Date?)] = [("purchaseDate", copy.purchaseDate), ("originalPurchaseDate", copy.originalPurchaseDate),
                                            ("expiresDate", copy.expirationDate), ("revocationDate", copy.revocationDate)]
            for (key, date) in dates { claims[key] = date.map { Int64(Milliseconds($0).value) } }
            claims["productId"] = copy.productID
            claims["quantity"] = Int32(clamping: copy.quantity)
            if let rewritten = try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]) {
                parts[1] = Base64URL.encode([UInt8](rewritten))
            }
        }
        // The signature's first character swapped for another of the alphabet: still base64url, now over other bytes.
        let first = parts[2].removeFirst()
        parts[2].insert(first == "A" ? "B" : "A", at: parts[2].startIndex)
        copy.signedJWS = parts.joined(separator: ".")
        return copy
    }
}

/// The stand-in's own controls, for tests: which store backs it (Apple's StoreKit has no such thing; StoreKitTest's
/// `SKTestSession` is the nearest).
public enum StoreKitStandIn {
    /// Backs StoreKit with the local store for `configuration` in `stateDirectory`, closing the one in use.
    public static func open(configuration: URL, stateDirectory: URL, now: @escaping @Sendable () -> Date = { Date() }) throws {
        let local = try LocalStore(catalog: Catalog.load(contentsOf: configuration), stateDirectory: StateDirectory(stateDirectory), now: now)
        StandInAppStore.install(try StandInAppStore(local: local, now: now))
    }

    /// Closes the store in use: the next use opens one from the environment.
    public static func close() {
        StandInAppStore.install(nil)
    }

    /// The store in use, opened from the environment (`IOSIAP_STOREKIT_CONFIGURATION`, `IOSIAP_STOREKIT_STATE`) if
    /// none is: `iosiap_store_open_storekit` fails with this error when it cannot be.
    public static func requireAppStore() throws(StoreError) {
        do {
            _ = try StandInAppStore.shared()
        } catch {
            guard case .systemError(let reason) = error else { throw StoreError(.systemError, "\(error)") }
            throw StoreError(.systemError, "\(reason)")
        }
    }

    /// From now on every copy of transaction `id` that StoreKit hands over (updates, lists, purchase results,
    /// statuses) says what `change` makes it say, as a tool on a jailbroken device rewrites StoreKit's answers; the
    /// App Store's own record is untouched. StoreKit calls each such copy unverified (`invalidSignature`). `nil`
    /// stops it. Kept across `close` and `open` (a relaunch): `stopForging` ends them all.
    public static func forgeCopies(of id: UInt64, _ change: (@Sendable (inout StoreTransaction) -> Void)?) {
        StandInAppStore.forgeries.withLock { $0[id] = change }
    }

    /// Stops every forgery `forgeCopies` started.
    public static func stopForging() {
        StandInAppStore.forgeries.withLock { $0.removeAll() }
    }

    /// While set, `AppStore.sync()` throws `StoreKitError.userCancelled`, as when the user dismisses the sign-in.
    public static func setSyncCancelled(_ cancelled: Bool) throws {
        try StandInAppStore.shared().syncCancelled.withLock { $0 = cancelled }
    }

    /// When a purchase made in the app is also reported through `Transaction.updates`. Apple documents that it is
    /// not ("Transaction.updates": the purchase's transaction comes through `Product.PurchaseResult.success`), and
    /// that is the stand-in's default; users report seeing it on both (Apple Developer Forums thread 746629,
    /// react-native-iap issue 2713), so a game's handling of the same transaction told twice is tested with this
    /// (the echo switch ../shared/reference/storekit2-behaviour.md recommends).
    public enum PurchaseEcho: Sendable {
        /// Reported to the updates before `purchase` returns its result.
        case beforeResult
        /// Reported to the updates from a task of its own, after the result.
        case afterResult
    }

    /// Sets whether and when a purchase's transaction is also reported through `Transaction.updates`.
    public static func setPurchaseEcho(_ echo: PurchaseEcho?) throws {
        try StandInAppStore.shared().purchaseEcho.withLock { $0 = echo }
    }

    /// Whether `Transaction.all` keeps finished consumables, as for an app whose Info.plist sets
    /// `SKIncludeConsumableInAppPurchaseHistory` (iOS 18 and later); off, as by default.
    public static func setIncludesConsumableHistory(_ included: Bool) throws {
        try StandInAppStore.shared().includesConsumableHistory.withLock { $0 = included }
    }

    /// The scene the last purchase confirmed in, by identity (`ObjectIdentifier(scene)`); `nil` before any, or for
    /// a view controller outside any window.
    public static func lastConfirmationScene() throws -> ObjectIdentifier? {
        try StandInAppStore.shared().lastConfirmationScene.withLock { $0 }
    }

    /// What the app has read of the store in use since it opened: a test waits for a read, then for the core to
    /// have handled what it gave, instead of sleeping.
    public struct Reads: Sendable {
        /// `Transaction.updates` listeners given the launch's unfinished transactions (one per process).
        public var launchUpdates = 0
        /// `Transaction.unfinished`, `Transaction.currentEntitlements` and `Transaction.all` read to their end.
        public var unfinished = 0
        public var currentEntitlements = 0
        public var all = 0
    }

    public static func reads() throws -> Reads {
        try StandInAppStore.shared().reads.withLock { $0 }
    }

    /// How many purchases were echoed to a `Transaction.updates` listener since the store in use opened.
    public static func purchaseEchoesReported() throws -> Int {
        try StandInAppStore.shared().echoesReported.withLock { $0 }
    }
}

/// Why the stand-in could not do what was asked, where StoreKit would throw a system error.
struct StandInError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

extension VerificationResult.VerificationError {
    /// The reason StoreKit would give for a copy our verifier rejected with `code`. "VerificationResult.
    /// VerificationError" names each reason but not which failure gives which: the pairs are ours (Apple is silent).
    init(_ code: StoreErrorCode) {
        switch code {
        case .verificationInvalidFormat, .verificationUnsupportedAlgorithm, .verificationInputTooLarge: self = .invalidEncoding
        case .verificationInvalidCertificate, .verificationInvalidChainLength, .verificationUntrustedChain,
             .verificationMissingAppleMarker, .verificationCertificateNotValidAtDate: self = .invalidCertificateChain
        case .verificationInvalidAppIdentifier, .verificationInvalidEnvironment: self = .invalidDeviceVerification  // not this app's
        default: self = .invalidSignature
        }
    }
}

/// A `StoreError` of the local store as the error StoreKit throws for it. Each error's meaning is on its page
/// ("StoreKitError", "Product.PurchaseError", "Transaction.RefundRequestError"); which failure StoreKit raises as
/// which is not documented, so the pairs are ours, chosen by those meanings (Apple is silent), and anything else
/// is `StoreKitError.unknown`.
func storeKitError(_ error: StoreError) -> any Error {
    switch error.code {
    case .paymentCancelled, .overlayCancelled: StoreKitError.userCancelled
    case .storeUnreachable, .cloudServiceNetworkConnectionFailed: StoreKitError.networkError(URLError(.notConnectedToInternet))
    case .notEntitled: StoreKitError.notEntitled
    case .unsupportedPlatform, .unavailableOnPlatform: StoreKitError.unsupported
    case .invalidPresentationContext: StoreKitError.invalidPresentationContext
    case .systemError, .storageFailure: StoreKitError.systemError(StandInError(message: error.message))
    case .quantityOutOfRange, .quantityNotAllowedForProductType: Product.PurchaseError.invalidQuantity
    case .storeProductNotAvailable, .unknownProduct: Product.PurchaseError.productUnavailable
    case .paymentNotAllowed: Product.PurchaseError.purchaseNotAllowed
    case .ineligibleForOffer: Product.PurchaseError.ineligibleForOffer
    case .invalidOfferIdentifier: Product.PurchaseError.invalidOfferIdentifier
    case .invalidOfferPrice: Product.PurchaseError.invalidOfferPrice
    case .invalidSignature: Product.PurchaseError.invalidOfferSignature
    case .missingOfferParams: Product.PurchaseError.missingOfferParameters
    case .paymentMethodBindingConfigurationRequired: Product.PurchaseError.paymentMethodBindingConfigurationRequired
    case .duplicateRefundRequest: Transaction.RefundRequestError.duplicateRequest
    case .refundRequestIneligible: Transaction.RefundRequestError.ineligible
    default: StoreKitError.unknown
    }
}
