#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// The `StoreBackend` a `PurchaseStore` runs on: products, purchases, restore, unfinished transactions, updates.
extension LocalStore {
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
                // Offer eligibility (win-back: lapsed subscribers only) is decided after the renewals due.
                if item.subscription != nil { try clockwork.advanceSubscriptions(settings, in: state) }
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

    public func endRecorded(transactionID: UInt64) {
        try? state.withLock { state throws(StoreError) in try state.endRecorded(transactionID) }
    }

    /// For a process no game listens to (the transaction manager's `serve`): the updates its changes make are
    /// dropped, not kept for a reader that never comes. What they tell a game, it learns from the state (its
    /// store's look at other processes' changes, the ends marked untold, launch redelivery). `updates()` ends it.
    public func discardUpdates() {
        updateSink.discards.withLock { $0 = true }
    }

    public var canMakePayments: Bool { true }

    public func storefront() async throws(StoreError) -> String {
        try currentSettings().storefront.code
    }

    /// Called once, by the purchase store that opens on this store after it has taken the state directory's
    /// lock: only then does this store write what the transaction manager reads (the catalog and bundle id
    /// a game last opened the directory with) and start watching time and other processes' writes.
    public func updates() -> AsyncStream<StoreUpdate> {
        updateSink.discards.withLock { $0 = false }
        clockwork.gameListens.withLock { $0 = true }
        clockwork.rememberStorefront()
        // What changed while no game listened, which the first look at the state took in without telling anyone.
        try? clockwork.tellMovedEnds()
        try? clockwork.tellUntoldEnds()
        // What the user owns, as StoreKit reports its current entitlements at launch: a journal deleted while the
        // store's state stays (a reinstall) is entitled at once; the core records only what its journal lacks.
        let current = now()
        for owned in (try? state.withLock({ state throws(StoreError) in try state.ownedTransactions(at: current) })) ?? [] {
            updateSink.yield(.entitled(owned))
        }
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
}
