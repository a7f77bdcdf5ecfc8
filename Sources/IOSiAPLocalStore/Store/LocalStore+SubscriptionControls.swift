#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// StoreKitTest's subscription controls: expire, renew now, resolve a billing issue, turn auto-renew on or off.
extension LocalStore {
    /// Ends a subscription now, without renewing (SKTestSession `expireSubscription`): the game receives
    /// `expired`. One in its billing grace period (its period ended, its renewal's payment failed) loses the rest
    /// of that grace period: the App Store stops retrying.
    public func expireSubscription(productID: String) throws(StoreError) {
        let settings = try currentSettings()
        try state.withLock { state throws(StoreError) in
            let chain = try activeChain(productID, in: state, includingGracePeriod: true)
            let current = now()
            try state.database.transaction { () throws(StoreError) in
                if (chain.latest.expirationDate ?? .distantPast) <= current {
                    try state.updateChain(chain.latest.id) { $0.autoRenew = false; $0.billingRetry = false; $0.graceExpires = current }
                } else {
                    try state.updateChain(chain.latest.id) { $0.autoRenew = false; $0.expiration = current }
                }
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

    /// The active subscription to `productID` the controls act on: the user's own when they also have it
    /// through Family Sharing.
    /// The chain of `productID` whose period runs (`includingGracePeriod`: or whose billing grace period does).
    private func activeChain(_ productID: String, in state: LocalStoreState,
                             includingGracePeriod: Bool = false) throws(StoreError) -> LocalStoreState.SubscriptionChain {
        let current = now()
        let active = try state.subscriptionChains().filter {
            let graceEnd = includingGracePeriod && $0.state.billingRetry ? $0.latest.gracePeriodExpirationDate : nil
            return $0.latest.productID == productID && max($0.latest.expirationDate ?? .distantPast, graceEnd ?? .distantPast) > current
        }
        guard let chain = active.first(where: { $0.latest.ownershipType == .purchased }) ?? active.first else {
            throw StoreError(.wrongState, "'\(productID)' is not an active subscription")
        }
        return chain
    }
}
