#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// What moves the local store's state on by itself (subscription time, other processes' writes) and what
/// every change needs (the settings in force, signing), apart from `LocalStore` so that its background
/// watcher holds no reference to the store: a closed store is freed at once.
struct LocalStoreClockwork: Sendable {
    let catalog: Catalog
    let signer: TransactionSigner
    let state: Locked<LocalStoreState>
    let now: @Sendable () -> Date
    /// Where the updates it finds go: the store's update stream.
    let sink: LocalStoreUpdateSink
    /// Set once a purchase store listens to this store: only then are App Store purchase intents taken
    /// (the transaction manager, which also opens the store, must leave them for the game), and only then is
    /// an end this store makes told to a game at once. Either way it stays marked untold (`markEndUntold`) until
    /// the game's journal has recorded it.
    let gameListens = Locked(false)
    /// The storefront the listening game last heard of: `nil` until a purchase store listens.
    private let toldStorefront = Locked<String?>(nil)
    /// The App Store messages handed to the listening game, by id: each once per launch (one it does not
    /// display comes again at the next launch, as StoreKit offers its messages at each launch).
    let toldMessages = Locked<Set<Int64>>([])

    /// The settings in force: the catalog's with the controls' overrides.
    func settings() throws(StoreError) -> LocalStoreSettings {
        var settings = LocalStoreSettings(catalog: catalog.settings)
        settings.apply(try state.withLock { state throws(StoreError) in try state.overrides() })
        return settings
    }

    /// Renews the subscriptions whose period is over (or announces their end), collects what other processes
    /// changed and hands out the purchase intents waiting, yielding each update once what makes it true is
    /// committed: a step that fails loses nothing an earlier one announced. Called every
    /// `externalChangeInterval`, and by the controls that move time.
    func advanceTime() throws(StoreError) {
        let settings = try settings()
        let takesIntents = gameListens.withLock { $0 }
        try state.withLock { state throws(StoreError) in
            try advanceSubscriptions(settings, in: state)
            let changes = try state.changesByOtherConnections(at: now())
            changes.forEach { sink.yield($0) }
            guard takesIntents else { return }
            try tellUntoldEnds(excluding: Set(changes.compactMap { if case .expired(let ended) = $0 { ended.id } else { nil } }), in: state)
            for intent in try state.takePurchaseIntents() {
                if let item = catalog.product(id: intent.productID) {
                    sink.yield(.purchaseIntent(storeProduct(item, settings), offer: intent.offer))
                }
            }
            for message in try state.messages(waitingOnly: true) where toldMessages.withLock({ $0.insert(message.id).inserted }) {
                sink.yield(.message(message.storeMessage))
            }
            try tellStorefrontChange(in: state)
        }
    }

    /// `tellUntoldEnds(excluding:in:)`, taking the state's lock: at launch.
    func tellUntoldEnds() throws(StoreError) {
        try state.withLock { state throws(StoreError) in try tellUntoldEnds(in: state) }
    }

    /// Tells a game that opens the active subscriptions whose end moved (extended, or in billing retry within a
    /// grace period), as they are now: its record of them may predate the move (made while it was closed). One
    /// the game finished makes no event; its record takes the new ends.
    func tellMovedEnds() throws(StoreError) {
        try state.withLock { state throws(StoreError) in
            try state.activeTransactionsWithMovedEnds(at: now()).forEach { sink.yield(.purchased($0)) }
        }
    }

    /// Tells the listening game, as `expired`, the ends of subscriptions its journal has not recorded yet: made by
    /// a store without a game (the transaction manager, while the game was closed or beside it: `expire`,
    /// auto-renew off, an upgrade bought outside), or handed to a game that closed or died before recording them.
    /// Each once per launch: at launch, as its record of them may still hold the old end, and at each tick. Those
    /// in `told` were just reported by the look for other processes' changes.
    func tellUntoldEnds(excluding told: Set<UInt64> = [], in state: LocalStoreState) throws(StoreError) {
        try state.untoldEnds(excluding: told).forEach { sink.yield(.expired($0)) }
    }

    /// Tells the listening game the storefront in force once it differs from the one it last heard of, whoever
    /// changed it (a control of this process, the transaction manager). Called with the state's lock held, so
    /// that two ticks cannot tell an old storefront after a newer one.
    func tellStorefrontChange(in state: LocalStoreState) throws(StoreError) {
        let code = try storefront(in: state)
        let changed = toldStorefront.withLock { told in
            defer { told = code }
            return told != nil && told != code
        }
        if changed { sink.yield(.storefrontChanged(code)) }
    }

    /// Takes the storefront in force as the one the game knows, without telling it: when a purchase store
    /// starts listening, and when it sets the storefront it opens with.
    func rememberStorefront(in state: LocalStoreState) throws(StoreError) {
        let code = try storefront(in: state)
        toldStorefront.withLock { $0 = code }
    }

    /// `rememberStorefront(in:)`, taking the state's lock; a storefront that cannot be read is left to the next tick.
    func rememberStorefront() {
        guard let code = try? settings().storefront.code else { return }
        toldStorefront.withLock { $0 = code }
    }

    private func storefront(in state: LocalStoreState) throws(StoreError) -> String {
        var settings = LocalStoreSettings(catalog: catalog.settings)
        settings.apply(try state.overrides())
        return settings.storefront.code
    }

    /// Tells the game that `ended` ended, once the SQL transaction in progress commits (never if it rolls back).
    /// An end no game hears of now is marked for the next game to hear of (`markEndUntold`).
    func announceEnd(_ ended: StoreTransaction, in state: LocalStoreState) throws(StoreError) {
        try state.markEndUntold(ended.id, handedHere: !sink.discards.withLock { $0 })
        state.database.onCommit { [sink] in sink.yield(.expired(ended)) }
    }

    /// Renews every subscription whose period is over, as many periods as have passed (also those that
    /// passed while no game ran), or marks its end once when auto-renew is off. A renewal is a new
    /// transaction with the same original id and reason RENEWAL; a downgrade takes effect here.
    func advanceSubscriptions(_ settings: LocalStoreSettings, in state: LocalStoreState) throws(StoreError) {
        let current = now()
        // Each update is yielded once the transaction below commits, none if it rolls back. An end no game hears
        // of now is marked for the next game to hear of.
        // Yielded into a stream kept for a game (one listening, or to come in this process): handed to it.
        let announce = { [self] (update: StoreUpdate) throws(StoreError) in
            if case .expired(let ended) = update { return try announceEnd(ended, in: state) }
            state.database.onCommit { [sink] in sink.yield(update) }
        }
        // Read first: most ticks find nothing due, and need no write lock.
        let due = try state.subscriptionChains().contains { chain in
            guard let end = chain.latest.expirationDate, end <= current else { return false }
            if chain.state.billingRetry {  // a retry that goes through, the retry period's end, or the grace period's
                return !settings.billingIssuesEnabled || retryPeriodEnd(after: end, settings) <= current
                    || (!chain.state.expiryAnnounced && (chain.latest.gracePeriodExpirationDate ?? .distantPast) <= current)
            }
            return chain.state.autoRenew || !chain.state.expiryAnnounced
        }
        guard due else { return }
        try state.database.transaction { () throws(StoreError) in
            for chain in try state.subscriptionChains() {
                var latest = chain.latest
                guard let end = latest.expirationDate, end <= current else { continue }
                if chain.state.billingRetry {
                    if retryPeriodEnd(after: end, settings) <= current {
                        // The App Store stops retrying: the subscription has ended for good.
                        try state.updateChain(latest.id) { $0.autoRenew = false; $0.expiryAnnounced = true; $0.billingRetry = false }
                        let ended = try resign(latest.id, settings, in: state)
                        if !chain.state.expiryAnnounced { try announce(.expired(ended)) }
                        continue
                    }
                    if !settings.billingIssuesEnabled,
                       let item = catalog.product(id: chain.state.renewProductID ?? latest.productID), item.subscription != nil {
                        // The App Store's next retry of the payment goes through: it renews from now.
                        try state.updateChain(latest.id) { $0.billingRetry = false; $0.graceExpires = nil }
                        try announce(.purchased(try renew(latest, into: item, from: current, settings, in: state)))
                        continue
                    }
                    // Waiting for the payment to be fixed: active until the grace period (if any) ends.
                    if let grace = latest.gracePeriodExpirationDate, grace > current { continue }
                    if !chain.state.expiryAnnounced {
                        try state.updateChain(latest.id) { $0.expiryAnnounced = true }
                        try announce(.expired(latest))
                    }
                    continue
                }
                let renewing = chain.state.renewProductID ?? latest.productID
                guard chain.state.autoRenew, let item = catalog.product(id: renewing), let subscription = item.subscription else {
                    if !chain.state.expiryAnnounced {
                        // Its renewal info now says why: cancelled by the user, or a product no longer sold.
                        let intent: Int32 = chain.state.autoRenew ? 4 : 1
                        try state.updateChain(latest.id) { $0.expiryAnnounced = true; $0.expirationIntent = intent }
                        try announce(.expired(try resign(latest.id, settings, in: state)))
                    }
                    continue
                }
                if settings.billingIssuesEnabled {
                    // The renewal's payment fails: billing retry, kept active through a grace period if enabled
                    // (16 days, 3 for weekly subscriptions, at the store's time rate).
                    let graceDays = subscription.period.unit == .week || subscription.period.unit == .day ? 3 : 16
                    let grace = settings.billingGracePeriodEnabled
                        ? settings.timeRate.end(of: StoreSubscriptionPeriod(value: graceDays, unit: .day), from: end) : nil
                    try state.updateChain(latest.id) { $0.billingRetry = true; $0.graceExpires = grace; $0.expirationIntent = 2 }
                    let retrying = try resign(latest.id, settings, in: state)
                    if let grace, grace > current {
                        try announce(.purchased(retrying))  // the game's record learns the grace period's end
                    } else {
                        try state.updateChain(latest.id) { $0.expiryAnnounced = true }
                        try announce(.expired(retrying))
                    }
                    continue
                }
                // Catch up, but never without end: a year of renewals every two seconds is 15 million.
                for _ in 0..<1000 {
                    guard let previousEnd = latest.expirationDate, previousEnd <= current else { break }
                    latest = try renew(latest, into: item, from: previousEnd, settings, in: state)
                    try announce(.purchased(latest))
                }
            }
        }
    }

    /// When the App Store gives up retrying the payment of a renewal due at `end`: 60 days later.
    private func retryPeriodEnd(after end: Date, _ settings: LocalStoreSettings) -> Date {
        settings.timeRate.end(of: StoreSubscriptionPeriod(value: 60, unit: .day), from: end)
    }

    /// Charges the next period of the subscription whose newest transaction is `latest`: a signed transaction
    /// of `item` with the same original id and reason RENEWAL, starting at `start`, at the price of the offer
    /// it goes on with (the rest of a pay-as-you-go offer, a promotional offer redeemed meanwhile), if any.
    func renew(_ latest: StoreTransaction, into item: CatalogProduct, from start: Date,
               _ settings: LocalStoreSettings, in state: LocalStoreState) throws(StoreError) -> StoreTransaction {
        guard let subscription = item.subscription else {
            throw StoreError(.wrongState, "'\(item.id)' is not an auto-renewable subscription")
        }
        let offer = try nextRenewalOffer(after: latest, into: item, redeemed: state.chainState(of: latest.id)?.renewOfferID, in: state)
        let end = offer.map { settings.timeRate.end(of: $0.terms.period, count: $0.terms.periodsPerTransaction, from: start) }
            ?? settings.timeRate.end(of: subscription.period, from: start)
        if let type = offer?.offer.type, type == .promotional || type == .offerCode {
            try state.updateChain(latest.id) { $0.renewOfferID = nil }  // redeemed now
        }
        let renewal = try state.insert(.init(
            originalID: latest.originalID, productID: item.id, productType: .autoRenewable, quantity: 1,
            purchaseDate: start, originalPurchaseDate: latest.originalPurchaseDate, expirationDate: end,
            appAccountToken: latest.appAccountToken, storefront: latest.storefront, reason: .renewal,
            subscriptionGroupID: subscription.groupID, offer: offer?.offer, ownershipType: latest.ownershipType))
        return try sign(renewal, settings, in: state)
    }

    /// The offer the renewal after `latest` into `item` is charged with: the next period of a pay-as-you-go
    /// offer that has periods left, else a promotional offer redeemed while the subscription was active.
    private func nextRenewalOffer(after latest: StoreTransaction, into item: CatalogProduct, redeemed renewOfferID: String?,
                                  in state: LocalStoreState) throws(StoreError) -> (offer: TransactionOffer, terms: CatalogOffer)? {
        if let offer = latest.offer, item.id == latest.productID, let terms = item.offer(offer),
           terms.paymentMode == .payAsYouGo, try state.offerPeriodsCharged(endingAt: latest) < terms.periodCount {
            return (offer, terms)
        }
        if let id = renewOfferID, let redeemed = item.redeemedOffer(id: id) {  // a promotional offer or an offer code
            return redeemed
        }
        return nil
    }

    /// Signs transaction `id` again after a change to it (a new end, its renewal plan, billing retry), as the
    /// App Store signs anew what it now says.
    func resign(_ id: UInt64, _ settings: LocalStoreSettings, in state: LocalStoreState) throws(StoreError) -> StoreTransaction {
        try sign(try reread(id, in: state), settings, in: state)
    }

    /// Signs `transaction`, stores the signatures with it, and returns it signed.
    func sign(_ transaction: StoreTransaction, _ settings: LocalStoreSettings,
              in state: LocalStoreState) throws(StoreError) -> StoreTransaction {
        let storefront = AppStoreStorefront(code: transaction.storefront) ?? settings.storefront
        let product = catalog.product(id: transaction.productID)
        var renewal = try state.chainState(of: transaction.id)?.renewal ?? RenewalState()
        if transaction.productType == .autoRenewable,
           let renewing = catalog.product(id: renewal.renewProductID ?? transaction.productID) {
            renewal.nextOffer = try nextRenewalOffer(after: transaction, into: renewing, redeemed: renewal.renewOfferID, in: state)
            renewal.renewalPrice = renewal.nextOffer?.terms.price ?? renewing.price
        }
        if let product, !(product.subscription?.winBackOffers.isEmpty ?? true), (transaction.expirationDate ?? .distantFuture) <= now() {
            // Signed as the subscription ends (or anew later): the offers its lapsed user may redeem now.
            renewal.eligibleWinBackOfferIDs = try SubscriptionOfferRules.eligibleWinBackOfferIDs(
                of: product, catalog: catalog, in: state, timeRate: settings.timeRate, at: now())
        }
        let signed = try signer.sign(transaction, product: product, offerTerms: transaction.offer.flatMap { product?.offer($0) },
                                     storefront: storefront, renewal: renewal, at: now())
        try state.setSignatures(transaction.id, transaction: signed.transaction, renewalInfo: signed.renewalInfo)
        var result = transaction
        result.signedJWS = signed.transaction
        result.signedRenewalInfo = signed.renewalInfo
        return result
    }

    /// A catalog product as the store presents it in the current storefront and locale.
    func storeProduct(_ item: CatalogProduct, _ settings: LocalStoreSettings) -> StoreProduct {
        let currency = settings.storefront.currencyCode
        let format = { (price: Decimal) in PriceFormatter.format(price, currencyCode: currency, locale: settings.locale) }
        let localization = item.localization(for: settings.locale)
        let subscription = item.subscription.map { info in
            let offer = { (offer: CatalogOffer) in
                SubscriptionOffer(id: offer.id, paymentMode: offer.paymentMode, period: offer.period,
                                  periodCount: offer.periodCount, price: offer.price, displayPrice: format(offer.price))
            }
            return StoreSubscriptionInfo(groupID: info.groupID, groupName: info.groupName, level: info.level,
                                    period: info.period, introductoryOffer: info.introductoryOffer.map(offer),
                                    promotionalOffers: info.promotionalOffers.map(offer),
                                    winBackOffers: info.winBackOffers.map { offer($0.terms) })
        }
        return StoreProduct(id: item.id, type: item.type, displayName: localization?.displayName ?? item.referenceName,
                            description: localization?.description ?? "", price: item.price, currencyCode: currency,
                            displayPrice: format(item.price), subscription: subscription)
    }

    private func reread(_ id: UInt64, in state: LocalStoreState) throws(StoreError) -> StoreTransaction {
        guard let transaction = try state.transaction(id: id) else {
            throw StoreError(.unknownTransaction, "the local store has no transaction \(id)")
        }
        return transaction
    }
}
