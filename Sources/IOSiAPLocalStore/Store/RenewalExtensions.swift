#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPVerification

/// One subscription's renewal date extension, as Apple's ExtendRenewalDateResponse reports it.
public struct RenewalExtension: Sendable, Equatable {
    /// The subscription extended.
    public let originalTransactionID: UInt64
    /// Its newest transaction, whose end moved (the response's `webOrderLineItemId`).
    public let transactionID: UInt64
    /// The new end (the response's `effectiveDate`).
    public let effectiveDate: Date
}

/// What became of a request to extend one subscription's renewal date.
public enum RenewalExtensionOutcome: Sendable, Equatable {
    /// Extended now, or by an earlier request with the same identifier (answered again, not extended again).
    case extended(RenewalExtension)
    /// Not an active, paid subscription: ended, refunded, replaced by an upgrade, in billing retry or in a free
    /// trial (Apple's SubscriptionExtensionIneligibleError, 4030004). Says why.
    case ineligible(String)
    /// Extended twice in the past 365 days already (Apple's SubscriptionMaxExtensionError, 4030005).
    case maximumReached
    /// A family member's subscription, shared with this user: Apple extends it only through its purchaser
    /// (FamilySharedSubscriptionExtensionIneligibleError, 4030007).
    case familyShared
}

/// A request to extend the renewal date of every active subscriber of a product, done: Apple's
/// MassExtendRenewalDateStatusResponse. The local store completes it at once.
public struct MassRenewalExtension: Sendable, Equatable {
    public let requestIdentifier: String
    public let productID: String
    public let completeDate: Date
    /// Subscriptions extended.
    public let succeededCount: Int
    /// Subscribers of the product (in the storefronts asked for) that could not be extended: in billing retry,
    /// in a free trial, or extended twice this year already.
    public let failedCount: Int
}

/// Extending subscriptions' renewal dates as the App Store Server API does; `LocalStore` is one.
public protocol RenewalDateExtending: Sendable {
    /// Extend a Subscription Renewal Date. Throws `unknownTransaction` for an original transaction id the store
    /// never charged.
    func extendRenewalDate(originalTransactionID: UInt64, days: Int, requestIdentifier: String) throws(StoreError) -> RenewalExtensionOutcome
    /// Extend Subscription Renewal Dates for All Active Subscribers of `productID`, in `storefronts` (alpha-3
    /// codes; `nil`: all). Throws `unknownProduct` for a product that is no auto-renewable subscription of the
    /// catalog, and `invalidArgument` for a request identifier another product's request used.
    func extendRenewalDates(productID: String, days: Int, requestIdentifier: String,
                            storefronts: Set<String>?) throws(StoreError) -> MassRenewalExtension
    /// Get Status of Subscription Renewal Date Extensions: `nil` when no such request was made.
    func massRenewalExtension(productID: String, requestIdentifier: String) throws(StoreError) -> MassRenewalExtension?
}

/// The rules of Apple's renewal date extensions over the local store's state ("Extending the renewal date for
/// auto-renewable subscriptions", developer.apple.com/documentation/appstoreserverapi): 1…90 days, only a paid,
/// active subscription (SubscriptionExtensionIneligibleError lists free offer periods, billing retry, a grace
/// period past its end and expired subscriptions as ineligible), at most twice in 365 days, and one result per
/// request identifier. Each extension, its check and its record commit together; the game hears of the new end
/// as a `purchased` update of the transaction (its record learns it; a finished one makes no event).
struct RenewalExtender {
    let clockwork: LocalStoreClockwork

    /// Apple's limit: two extensions per subscription within 365 days.
    static let extensionsPerYear = 2

    func extend(_ originalID: UInt64, days: Int, requestIdentifier: String) throws(StoreError) -> RenewalExtensionOutcome {
        try Self.checkDays(days)
        let settings = try clockwork.settings()
        let (outcome, extended) = try clockwork.state.withLock { state throws(StoreError) in
            try state.database.transaction { () throws(StoreError) in
                guard try !state.database.query("SELECT 1 FROM transactions WHERE original_id = ? LIMIT 1",
                                                [.integer(Int64(bitPattern: originalID))]).isEmpty else {
                    throw StoreError(.unknownTransaction, "the local store has no subscription \(originalID)")
                }
                let chain = try state.subscriptionChains().first { $0.latest.originalID == originalID }
                if chain?.latest.ownershipType == .familyShared { return (RenewalExtensionOutcome.familyShared, StoreTransaction?.none) }
                return try extend(chain, originalID, days: days, requestIdentifier: requestIdentifier, settings, in: state)
            }
        }
        if let extended { clockwork.sink.yield(.purchased(extended)) }
        return outcome
    }

    func extendAll(productID: String, days: Int, requestIdentifier: String,
                   storefronts: Set<String>?) throws(StoreError) -> MassRenewalExtension {
        try Self.checkDays(days)
        guard clockwork.catalog.product(id: productID)?.subscription != nil else {
            throw StoreError(.unknownProduct, "'\(productID)' is not an auto-renewable subscription of the catalog")
        }
        let settings = try clockwork.settings()
        let current = clockwork.now()
        let (done, extended) = try clockwork.state.withLock { state throws(StoreError) in
            try state.database.transaction { () throws(StoreError) -> (MassRenewalExtension, [StoreTransaction]) in
                if let earlier = try state.massRenewalExtension(requestIdentifier, productID: productID) { return (earlier, []) }
                guard try !state.massRenewalExtensionExists(requestIdentifier) else {
                    throw StoreError(.invalidArgument, "request identifier '\(requestIdentifier)' was used for another product")
                }
                // The product's subscribers: active, or still retried (they fail: not active).
                let subscribers = try state.subscriptionChains().filter { chain in
                    chain.latest.productID == productID
                        && ((chain.latest.expirationDate ?? .distantPast) > current || chain.state.billingRetry)
                        && storefronts.map { $0.contains(chain.latest.storefront.uppercased()) } ?? true
                }
                var extended: [StoreTransaction] = []
                var succeeded = 0
                var failed: [StoreTransaction] = []
                for chain in subscribers {
                    let (outcome, transaction) = try extend(chain, chain.latest.originalID, days: days,
                                                            requestIdentifier: requestIdentifier, settings, in: state)
                    // Extended now, or already by a request for this one subscription with the same identifier.
                    guard case .extended = outcome else {
                        failed.append(chain.latest)
                        continue
                    }
                    succeeded += 1
                    if let transaction { extended.append(transaction) }
                }
                let done = MassRenewalExtension(requestIdentifier: requestIdentifier, productID: productID, completeDate: current,
                                                succeededCount: succeeded, failedCount: failed.count)
                try state.recordMassRenewalExtension(done)
                try notify(done, failed: failed, storefronts: storefronts, in: state)
                return (done, extended)
            }
        }
        for transaction in extended { clockwork.sink.yield(.purchased(transaction)) }
        return done
    }

    /// Records, in the notification outbox and inside the caller's SQL transaction (so a request is told of once,
    /// whichever process made it), what Apple notifies of a completed request for all active subscribers: a
    /// RENEWAL_EXTENSION of subtype FAILURE with `data` for each subscriber not extended (`failed`, their newest
    /// transactions), then one of subtype SUMMARY with the `summary` (App Store Server Notifications' notificationType
    /// and summary; developer.apple.com/documentation/appstoreservernotifications). Each one extended is told as
    /// RENEWAL_EXTENDED by the notification recorder, which finds its new end. Nothing without a notification URL.
    private func notify(_ done: MassRenewalExtension, failed: [StoreTransaction], storefronts: Set<String>?,
                        in state: LocalStoreState) throws(StoreError) {
        guard try state.notificationURL() != nil else { return }
        let (bundleID, environment, now) = (clockwork.signer.bundleID, state.environment, clockwork.now())
        for transaction in failed {
            let payload = NotificationPayload("RENEWAL_EXTENSION", "FAILURE", about: transaction, bundleID: bundleID,
                                              environment: environment, at: now)
            try state.insertNotification(payload, signed: try clockwork.signer.chain.sign(json: payload), about: transaction.id, due: Date())
        }
        let summary = NotificationPayload(summarizing: done, storefronts: storefronts, bundleID: bundleID, environment: environment, at: now)
        try state.insertNotification(summary, signed: try clockwork.signer.chain.sign(json: summary), about: nil, due: Date())
    }

    func status(productID: String, requestIdentifier: String) throws(StoreError) -> MassRenewalExtension? {
        try clockwork.state.withLock { state throws(StoreError) in try state.massRenewalExtension(requestIdentifier, productID: productID) }
    }

    private static func checkDays(_ days: Int) throws(StoreError) {
        guard (1...90).contains(days) else { throw StoreError(.invalidArgument, "an extension is 1 to 90 days, not \(days)") }
    }

    /// Extends one subscription (`chain`: its newest transaction, unless it is refunded or replaced) inside the
    /// caller's SQL transaction; the transaction re-signed when its end moved now.
    private func extend(_ chain: LocalStoreState.SubscriptionChain?, _ originalID: UInt64, days: Int, requestIdentifier: String,
                        _ settings: LocalStoreSettings, in state: LocalStoreState) throws(StoreError) -> (RenewalExtensionOutcome, StoreTransaction?) {
        if let earlier = try state.renewalExtension(of: originalID, request: requestIdentifier) { return (.extended(earlier), nil) }
        let current = clockwork.now()
        guard let chain else { return (.ineligible("\(originalID) is no active subscription: refunded, replaced or not one"), nil) }
        guard let end = chain.latest.expirationDate, end > current, !chain.state.billingRetry else {
            return (.ineligible("subscription \(originalID) is not active"), nil)
        }
        if let offer = chain.latest.offer, clockwork.catalog.product(id: chain.latest.productID)?.offer(offer)?.paymentMode == .freeTrial {
            return (.ineligible("subscription \(originalID) is in a free trial"), nil)
        }
        let yearAgo = current.addingTimeInterval(-365 * 86_400)
        guard try state.renewalExtensionCount(of: originalID, since: yearAgo) < Self.extensionsPerYear else { return (.maximumReached, nil) }
        // Calendar days, as Apple counts them; the time rate does not shorten an extension.
        let newEnd = end.addingTimeInterval(TimeInterval(days) * 86_400)
        try state.updateChain(chain.latest.id) { $0.expiration = newEnd }
        let extended = try clockwork.resign(chain.latest.id, settings, in: state)
        let made = RenewalExtension(originalTransactionID: originalID, transactionID: extended.id, effectiveDate: newEnd)
        try state.recordRenewalExtension(made, request: requestIdentifier, at: current)
        return (.extended(made), extended)
    }
}
