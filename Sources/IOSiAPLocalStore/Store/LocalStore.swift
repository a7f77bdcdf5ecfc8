import Foundation
import IOSiAPCore
import IOSiAPVerification

/// A local App Store: sells the products of an Xcode `.storekit` catalog on any platform, keeps what the
/// simulated user owns in the state directory, and can be told to defer, cancel or fail (the controls).
///
/// It is a `StoreBackend`: open a `PurchaseStore` over it. Its controls are the StoreKitTest
/// `SKTestSession` equivalents; they are stored in the state directory, so they survive restarts.
public final class LocalStore: StoreBackend {
    /// The catalog it sells.
    public let catalog: Catalog
    /// The app's bundle id, as signed transactions carry it.
    public let bundleID: String
    /// The environment signed transactions name.
    public let environment: StoreEnvironment
    private let signer: TransactionSigner

    private let state: Locked<LocalStoreState>
    private let now: @Sendable () -> Date
    private let updateStream: AsyncStream<StoreUpdate>
    private let updateSink: AsyncStream<StoreUpdate>.Continuation
    private let watcher: Task<Void, Never>

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
        let state = Locked(try LocalStoreState(directory: stateDirectory, environment: environment))
        let (stream, sink) = AsyncStream<StoreUpdate>.makeStream()
        self.state = state
        (updateStream, updateSink) = (stream, sink)
        watcher = Task.detached {
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.externalChangeInterval)
                let updates = (try? state.withLock { state throws(StoreError) in try state.changesByOtherConnections() }) ?? []
                for update in updates { sink.yield(update) }
            }
        }
    }

    /// Opens the local store for the `.storekit` file at `catalogURL`.
    public convenience init(catalogURL: URL, stateDirectory: StateDirectory,
                            bundleID: String = "com.example.game") throws(StoreError) {
        try self.init(catalog: Catalog.load(contentsOf: catalogURL), stateDirectory: stateDirectory, bundleID: bundleID)
    }

    // MARK: - StoreBackend

    public func products(for ids: [String]) async throws(StoreError) -> [StoreProduct] {
        let settings = try currentSettings()
        try failIfSimulated(.loadProducts, settings)
        return ids.compactMap { catalog.product(id: $0) }.map { storeProduct($0, settings) }
    }

    public func purchase(_ request: PaymentRequest, product: StoreProduct) async throws(StoreError) -> PurchaseOutcome {
        let settings = try currentSettings()
        try failIfSimulated(.purchase, settings)
        guard let item = catalog.product(id: request.productID) else {
            throw StoreError(.storeProductNotAvailable, "product '\(request.productID)' is not in the catalog")
        }
        if settings.purchaseDialogResponse == .cancel { return .cancelled }
        return try state.withLock { state throws(StoreError) in
            if settings.askToBuyEnabled {
                try state.addPendingPurchase(request, at: now())
                return .deferred
            }
            return .purchased(try charge(item, request, settings, in: state))
        }
    }

    public func restore() async throws(StoreError) -> [StoreTransaction] {
        let settings = try currentSettings()
        try failIfSimulated(.appStoreSync, settings)
        let all = try state.withLock { state throws(StoreError) in try state.allTransactions() }
        return Entitlements.current(from: all, at: now())
    }

    public func unfinishedTransactions() async throws(StoreError) -> [StoreTransaction] {
        try state.withLock { state throws(StoreError) in try state.unfinishedTransactions() }
    }

    public func finish(transactionID: UInt64) async throws(StoreError) {
        try state.withLock { state throws(StoreError) in try state.markFinished(transactionID) }
    }

    public var canMakePayments: Bool { true }

    public func updates() -> AsyncStream<StoreUpdate> { updateStream }

    public func close() {
        watcher.cancel()
        updateSink.finish()
    }

    deinit {
        watcher.cancel()
    }

    // MARK: - Controls (SKTestSession)

    /// The settings in force: the catalog's with the controls' overrides.
    public func currentSettings() throws(StoreError) -> LocalStoreSettings {
        var settings = LocalStoreSettings(catalog: catalog.settings)
        settings.apply(try state.withLock { state throws(StoreError) in try state.overrides() })
        return settings
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

    /// Changes the storefront (SKTestSession `storefront`): prices use its currency from the next request.
    public func setStorefront(_ code: String) throws(StoreError) {
        guard let storefront = Storefront(code: code) else {
            throw StoreError(.invalidArgument,
                             "unknown storefront '\(code)'; known: \(Storefront.knownCodes.joined(separator: ", "))")
        }
        try setOverride(LocalStoreSettings.Key.storefront, storefront.code)
    }

    /// Changes the locale titles and prices are shown in (SKTestSession `locale`).
    public func setLocale(_ locale: String) throws(StoreError) {
        guard !locale.isEmpty else { throw StoreError(.invalidArgument, "locale is empty") }
        try setOverride(LocalStoreSettings.Key.locale, locale)
    }

    /// Sets how fast subscription time runs (SKTestSession `timeRate`).
    public func setTimeRate(_ rate: TimeRate) throws(StoreError) {
        try setOverride(LocalStoreSettings.Key.timeRate, String(rate.rawValue))
    }

    /// Drops every override: the catalog's settings apply again (SKTestSession `resetToDefaultState`,
    /// without touching transactions).
    public func resetSettings() throws(StoreError) {
        try state.withLock { state throws(StoreError) in try state.database.execute("DELETE FROM settings") }
    }

    /// The purchases waiting for approval.
    public func pendingPurchases() throws(StoreError) -> [PendingPurchase] {
        try state.withLock { state throws(StoreError) in try state.pendingPurchases() }
    }

    /// Approves a deferred purchase: it is charged and reaches the game as a `purchased` update.
    @discardableResult
    public func approveAskToBuy(_ pendingID: Int64) throws(StoreError) -> StoreTransaction {
        let settings = try currentSettings()
        let transaction = try state.withLock { state throws(StoreError) in
            try state.database.transaction { () throws(StoreError) in
                let pending = try state.removePendingPurchase(pendingID)
                guard let item = catalog.product(id: pending.productID) else {
                    throw StoreError(.storeProductNotAvailable, "product '\(pending.productID)' is not in the catalog")
                }
                let request = PaymentRequest(productID: pending.productID, quantity: pending.quantity,
                                             appAccountToken: pending.appAccountToken)
                return try charge(item, request, settings, pendingID: pending.id, in: state)
            }
        }
        updateSink.yield(.purchased(transaction))
        return transaction
    }

    /// Declines a deferred purchase: nothing is charged and the game gets a `declined` update.
    public func declineAskToBuy(_ pendingID: Int64) throws(StoreError) {
        let pending = try state.withLock { state throws(StoreError) in try state.removePendingPurchase(pendingID) }
        updateSink.yield(.declined(productID: pending.productID))
    }

    /// Refunds a transaction (SKTestSession `refundTransaction(identifier:)`): it is revoked now, the game
    /// receives a `revoked` update and loses what it entitled.
    @discardableResult
    public func refund(transactionID: UInt64, reason: RevocationReason = .refundedForOtherReason) throws(StoreError) -> StoreTransaction {
        let settings = try currentSettings()
        let transaction = try state.withLock { state throws(StoreError) in
            try state.database.transaction { () throws(StoreError) in
                // The App Store re-signs a refunded transaction: its payload now carries the revocation.
                try sign(try state.revoke(transactionID, reason: reason, at: now()), settings, offerType: nil, in: state)
            }
        }
        updateSink.yield(.revoked(transaction))
        return transaction
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

    /// Charges a purchase. A non-consumable the user owns, or a subscription still active, is not charged
    /// again: the App Store answers with the transaction that already grants it.
    private func charge(_ item: CatalogProduct, _ request: PaymentRequest, _ settings: LocalStoreSettings,
                        pendingID: Int64? = nil, in state: LocalStoreState) throws(StoreError) -> StoreTransaction {
        let purchaseDate = now()
        if item.type != .consumable,
           let owned = Entitlements.current(from: try state.allTransactions(), at: purchaseDate)
               .first(where: { $0.productID == item.id }) {
            return owned
        }
        var expiration: Date?
        var offerType: Int?
        if let subscription = item.subscription {
            if let intro = subscription.introductoryOffer, !(try state.hasSubscribed(inGroup: subscription.groupID)) {
                expiration = settings.timeRate.end(of: intro.period, count: intro.periodCount, from: purchaseDate)
                offerType = 1
            } else {
                expiration = settings.timeRate.end(of: subscription.period, from: purchaseDate)
            }
        }
        return try state.database.transaction { () throws(StoreError) in
            let charged = try state.insert(.init(
                productID: item.id, productType: item.type, quantity: request.quantity, purchaseDate: purchaseDate,
                expirationDate: expiration, appAccountToken: request.appAccountToken,
                storefront: settings.storefront.code, reason: .purchase,
                subscriptionGroupID: item.subscription?.groupID, offerType: offerType, pendingID: pendingID))
            return try sign(charged, settings, offerType: offerType, in: state)
        }
    }

    /// Signs `transaction`, stores the signatures with it, and returns it signed.
    private func sign(_ transaction: StoreTransaction, _ settings: LocalStoreSettings, offerType: Int?,
                      in state: LocalStoreState) throws(StoreError) -> StoreTransaction {
        let storefront = Storefront(code: transaction.storefront) ?? settings.storefront
        let signed = try signer.sign(transaction, product: catalog.product(id: transaction.productID),
                                     storefront: storefront, offerType: offerType, at: now())
        try state.setSignatures(transaction.id, transaction: signed.transaction, renewalInfo: signed.renewalInfo)
        var result = transaction
        result.signedJWS = signed.transaction
        result.signedRenewalInfo = signed.renewalInfo
        return result
    }

    private func storeProduct(_ item: CatalogProduct, _ settings: LocalStoreSettings) -> StoreProduct {
        let currency = settings.storefront.currencyCode
        let format = { (price: Decimal) in PriceFormatter.format(price, currencyCode: currency, locale: settings.locale) }
        let localization = item.localization(for: settings.locale)
        let subscription = item.subscription.map { info in
            let offer = { (offer: CatalogOffer) in
                SubscriptionOffer(id: offer.id, paymentMode: offer.paymentMode, period: offer.period,
                                  periodCount: offer.periodCount, price: offer.price, displayPrice: format(offer.price))
            }
            return SubscriptionInfo(groupID: info.groupID, groupName: info.groupName, level: info.level,
                                    period: info.period, introductoryOffer: info.introductoryOffer.map(offer),
                                    promotionalOffers: info.promotionalOffers.map(offer))
        }
        return StoreProduct(id: item.id, type: item.type, displayName: localization?.displayName ?? item.referenceName,
                            description: localization?.description ?? "", price: item.price, currencyCode: currency,
                            displayPrice: format(item.price), subscription: subscription)
    }

    private func failIfSimulated(_ api: FailableAPI, _ settings: LocalStoreSettings) throws(StoreError) {
        if let code = settings.simulatedErrors[api] {
            throw StoreError(code, "simulated \(api.catalogName) error: \(code.summary)")
        }
    }

    private func setOverride(_ key: String, _ value: String?) throws(StoreError) {
        try state.withLock { state throws(StoreError) in try state.setOverride(key, value) }
    }
}
