#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// What the game asks about its subscriptions: their status, intro offer eligibility, the manage subscriptions sheet.
extension LocalStore {
    /// Where the user's subscription in `groupID` stands. With Family Sharing the user can hold two in one group,
    /// their own and a family member's, each with its status as StoreKit reports them; the one that entitles most
    /// answers (the user's own on a tie). A group the catalog does not have is an error, as for
    /// `isEligibleForIntroOffer`: a typo must not read as "never subscribed".
    public func subscriptionStatus(groupID: String) async throws(StoreError) -> StoreSubscriptionStatus? {
        try await subscriptionStatuses(groupID: groupID).min { $0.state.entitlementRank < $1.state.entitlementRank }
    }

    /// Every status in `groupID`, as StoreKit's `Product.SubscriptionInfo.status(for:)` lists them: the user's own
    /// subscription's first, then a family member's shared with them; none for a group never subscribed to.
    public func subscriptionStatuses(groupID: String) async throws(StoreError) -> [StoreSubscriptionStatus] {
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
            return statuses
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
}
