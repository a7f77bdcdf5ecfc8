#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// Charging a purchase: offers applied, subscription upgrades, downgrades and crossgrades, purchases from outside the game.
extension LocalStore {
    /// Charges a purchase, with the promotional offer it redeems if any. A non-consumable the user owns, or a
    /// subscription still active, is not charged again: the App Store answers with the transaction that
    /// already grants it (an offer redeemed for it applies from its next renewal). All in one SQL transaction
    /// (a savepoint of the caller's): a charge that fails ends no subscription, and an upgrade's `expired`
    /// is announced only once it has committed. `introductoryOfferAllowed`: an introductory offer eligibility
    /// JWS's decision, which replaces the App Store's rule; `nil` when the payment carried none.
    func charge(_ item: CatalogProduct, _ request: PaymentRequest, offer: (TransactionOffer, CatalogOffer)?,
                introductoryOfferAllowed: Bool? = nil, _ settings: LocalStoreSettings, pendingID: Int64? = nil,
                in state: LocalStoreState) throws(StoreError) -> StoreTransaction {
        let purchaseDate = now()
        return try state.database.transaction { () throws(StoreError) in
            // What subscription is active is decided at the purchase's time: a period that ended since the last
            // tick renews (or ends) first, as the App Store would have renewed it already.
            if item.subscription != nil { try clockwork.advanceSubscriptions(settings, in: state) }
            // Only what the user bought counts: a family member's purchase shared with them (FAMILY_SHARED) is
            // not theirs, and ends when the sharing does, so the user's own payment charges a purchase of theirs.
            if item.type != .consumable,
               let owned = try state.ownedTransactions(at: purchaseDate, ownership: .purchased).first(where: { $0.productID == item.id }) {
                // The current level bought again cancels a downgrade waiting for the next renewal (App Store Server
                // Notifications, DID_CHANGE_RENEWAL_PREF without subtype: "changed their renewal preference back to
                // the current subscription, effectively canceling a downgrade").
                let waitingDowngrade = item.type == .autoRenewable ? try state.chainState(of: owned.id)?.renewProductID : nil
                let cancelsDowngrade = waitingDowngrade.map { $0 != item.id } ?? false
                guard offer != nil || cancelsDowngrade else { return owned }
                try state.updateChain(owned.id) {
                    if let (redeemed, _) = offer { $0.renewOfferID = redeemed.id }
                    if cancelsDowngrade { $0.renewProductID = nil }
                }
                return try clockwork.resign(owned.id, settings, in: state)
            }
            // A family member's subscription in the group is theirs to change: the user's own starts beside it.
            // One in billing retry within its grace period is still the user's subscription (they keep its
            // service), so another level changes it too.
            if let subscription = item.subscription,
               let active = try state.subscriptionChains().first(where: {
                   $0.latest.subscriptionGroupID == subscription.groupID && $0.latest.ownershipType == .purchased
                       && max($0.latest.expirationDate ?? .distantPast, $0.latest.gracePeriodExpirationDate ?? .distantPast) > purchaseDate
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
                // One in its grace period had ended with its period; its billing retry ends with it, and, replaced
                // rather than lapsed, it gives no reason to have ended.
                try state.updateChain(active.latest.id) {
                    $0.upgraded = true; $0.expiration = min($0.expiration ?? purchaseDate, purchaseDate)
                    $0.billingRetry = false; $0.graceExpires = nil; $0.expirationIntent = nil
                }
                try clockwork.announceEnd(try clockwork.resign(active.latest.id, settings, in: state), in: state)
            }
            if let subscription = item.subscription {
                try stopRetries(inGroup: subscription.groupID, settings, in: state)
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

    /// A subscription in billing retry past its grace period is not active, but the App Store would renew it once
    /// its payment went through; the user's new subscription in its group replaces it, so its retries stop (it will
    /// not renew), and the game hears of its end if it has not yet.
    private func stopRetries(inGroup groupID: String, _ settings: LocalStoreSettings,
                             in state: LocalStoreState) throws(StoreError) {
        for chain in try state.subscriptionChains()
        where chain.state.billingRetry && chain.latest.subscriptionGroupID == groupID && chain.latest.ownershipType == .purchased {
            try state.updateChain(chain.latest.id) {
                $0.billingRetry = false; $0.graceExpires = nil; $0.autoRenew = false; $0.expiryAnnounced = true
            }
            let ended = try clockwork.resign(chain.latest.id, settings, in: state)
            if !chain.state.expiryAnnounced { try clockwork.announceEnd(ended, in: state) }
        }
    }

    func sign(_ transaction: StoreTransaction, _ settings: LocalStoreSettings,
              in state: LocalStoreState) throws(StoreError) -> StoreTransaction {
        try clockwork.sign(transaction, settings, in: state)
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
}
