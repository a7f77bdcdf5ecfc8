#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPVerification

/// App Store Server Notifications V2 for what happens in a local store, found by comparing its history with
/// what was seen before (`NotificationRecorder` keeps what was seen in the state directory, so that each change
/// is recorded once, whichever process looks).
///
/// Which change is which notification (notificationType / subtype, developer.apple.com/documentation/
/// appstoreservernotifications/notificationtype): a new consumable, non-consumable or non-renewing purchase
/// ONE_TIME_CHARGE; a new subscription SUBSCRIBED (INITIAL_BUY the first in its group, RESUBSCRIBE after,
/// also when it redeems an offer code or a win-back offer: Apple sends OFFER_REDEEMED only to an active
/// subscriber); a subscription bought while another of its group was active, which the store ends at that
/// moment, an upgrade: DID_CHANGE_RENEWAL_PREF (UPGRADE), or OFFER_REDEEMED (UPGRADE) when bought with a
/// promotional offer, offer code or win-back offer; a renewal DID_RENEW (BILLING_RECOVERY after billing retry);
/// a refund REFUND (REVOKE for a family-shared one); auto-renew turned off or on DID_CHANGE_RENEWAL_STATUS
/// (AUTO_RENEW_DISABLED / AUTO_RENEW_ENABLED); another product to renew into DID_CHANGE_RENEWAL_PREF
/// (DOWNGRADE, or none when it is
/// the current one again), OFFER_REDEEMED (DOWNGRADE) when an offer comes with it; an offer redeemed for the
/// next renewal of the current product OFFER_REDEEMED (no subtype); a renewal that failed to charge
/// DID_FAIL_TO_RENEW (GRACE_PERIOD while one applies); the grace period over while still in billing retry
/// GRACE_PERIOD_EXPIRED; each extension of a subscription's renewal date (Extend a Subscription Renewal Date, or
/// for all active subscribers) RENEWAL_EXTENDED, one per extension also when a look finds several; the end the
/// store announced EXPIRED (VOLUNTARY, BILLING_RETRY, PRODUCT_NOT_FOR_SALE by the renewal info's expirationIntent
/// 1, 2, 4). The state changes are read from what the store signed
/// (its renewal info), so a notification says what the store says.
package struct StoreChangeDetector {
    /// What was seen of one transaction.
    package struct Seen: Equatable {
        var revoked: Bool
        /// The signed renewal info, and what it says (decoded again only when the store signed anew).
        var renewalJWS: String?
        var renewal: RenewalInfoPayload?
        /// Whether, at that look, its grace period had ended while billing retry went on.
        var graceOver = false
        /// Its expiration date then: only an extension (Extend a Subscription Renewal Date) moves it later.
        var expiration: Date?
    }

    package private(set) var seen: [UInt64: Seen]?

    /// A detector whose next look compares with `seen` (nil: the next look is the baseline).
    package init(seen: [UInt64: Seen]? = nil) {
        self.seen = seen
    }

    /// The notifications the changes since the last call imply, oldest first; none the first time (the history
    /// the server finds when it starts was notified before, or never will be). `history` is ordered by id.
    /// `touched` holds the ids of the transactions written since the last call, when the caller knows them: only
    /// those, their subscriptions and the grace periods time ended are compared, with the same result as
    /// comparing the whole history (nil). `extended` lists the transaction ids of the renewal date extensions made
    /// since the last call, one per extension, oldest first, when the caller knows them: each is one RENEWAL_EXTENDED.
    /// Without it (nil), a transaction whose end moved later since the last call is one RENEWAL_EXTENDED, however many
    /// extensions moved it.
    package mutating func changes(in history: [StoreTransaction], touched: Set<UInt64>? = nil, extended: [UInt64]? = nil,
                                  at now: Date) -> [(type: String, subtype: String?, transaction: StoreTransaction)] {
        guard let before = seen else {
            seen = Dictionary(history.map { ($0.id, Self.seen($0, before: nil, at: now)) }, uniquingKeysWith: { $1 })
            return []
        }
        var current: [UInt64: Seen]
        let compared: [StoreTransaction]
        // The subscriptions whose plans are compared, by original id; nil: all.
        var subscriptions: Set<UInt64>?
        if let touched {
            current = before
            compared = touched.sorted().compactMap { Self.transaction($0, in: history) }
            for id in touched { current[id] = nil }
            for transaction in compared { current[transaction.id] = Self.seen(transaction, before: before[transaction.id], at: now) }
            var originals = Set(compared.map(\.originalID))
            // Time alone ends a grace period: the untouched transactions in billing retry are looked at again.
            for (id, then) in before where !touched.contains(id) && then.renewal?.isInBillingRetryPeriod == true {
                let over = Self.isGraceOver(then.renewal, at: now)
                guard over != then.graceOver else { continue }
                current[id]?.graceOver = over
                if let transaction = Self.transaction(id, in: history) { originals.insert(transaction.originalID) }
            }
            subscriptions = originals
        } else {
            current = Dictionary(history.map { ($0.id, Self.seen($0, before: before[$0.id], at: now)) }, uniquingKeysWith: { $1 })
            compared = history
        }
        defer { seen = current }
        var found: [(type: String, subtype: String?, transaction: StoreTransaction)] = []
        // The extensions not yet told, by transaction: each told once, with its transaction as it is now.
        var extensions = Dictionary(grouping: extended ?? [], by: { $0 }).mapValues(\.count)
        for transaction in compared {
            guard let seenNow = current[transaction.id] else { continue }
            let seenThen = before[transaction.id]
            if seenThen == nil { found.append(contentsOf: Self.newTransaction(transaction, in: history, before: before)) }
            if extended != nil {
                // Apple sends one RENEWAL_EXTENDED per extension, before a refund of what it extended.
                for _ in 0..<(extensions.removeValue(forKey: transaction.id) ?? 0) {
                    found.append(("RENEWAL_EXTENDED", nil, transaction))
                }
            } else if !seenNow.revoked, let then = seenThen?.expiration, let end = seenNow.expiration, end > then {
                // Only an extension moves a transaction's end later (renewals are new transactions; the store's
                // other controls end a period early).
                found.append(("RENEWAL_EXTENDED", nil, transaction))
            }
            // Apple: REVOKE when a purchase the user had through Family Sharing is no longer shared, REFUND otherwise.
            if seenNow.revoked && seenThen?.revoked != true {
                found.append((transaction.ownershipType == .familyShared ? "REVOKE" : "REFUND", nil, transaction))
            }
        }
        // Extensions of transactions this look did not compare (their write is in the same commit as the extension,
        // so none should be left): told all the same, in the order made.
        for id in extended ?? [] where extensions[id] != nil {
            if let transaction = Self.transaction(id, in: history) { found.append(("RENEWAL_EXTENDED", nil, transaction)) }
        }
        // A subscription's plan (auto-renew, the product it renews into, billing retry, its end) is its newest
        // transaction's renewal info: compared chain by chain, newest then with newest now, so that a renewal
        // and a change between two looks are both told, once, and a new subscription against its plan at
        // purchase (renewing into itself).
        var newest: [UInt64: StoreTransaction] = [:]
        for transaction in history where transaction.productType == .autoRenewable && !transaction.isRevoked
            && subscriptions.map({ $0.contains(transaction.originalID) }) ?? true {
            newest[transaction.originalID] = transaction
        }
        for (original, transaction) in newest.sorted(by: { $0.key < $1.key }) {
            guard let renewal = current[transaction.id]?.renewal else { continue }
            let previous = history.last { $0.originalID == original && before[$0.id] != nil && !$0.isRevoked }
            var fresh = RenewalInfoPayload()
            fresh.autoRenewStatus = 1
            fresh.autoRenewProductId = transaction.productID
            // An offer bought with the subscription continues in its plan: that is no offer redeemed later.
            fresh.offerType = renewal.offerType
            fresh.offerIdentifier = renewal.offerIdentifier
            let base = previous.flatMap { before[$0.id]?.renewal } ?? fresh
            found.append(contentsOf: Self.renewalChanges(base, renewal, transaction, at: now).map { ($0.0, $0.1, transaction) })
            // Time alone ends a grace period: told once, at the first look that finds it over.
            let wasOver = previous.flatMap { before[$0.id]?.graceOver } ?? false
            if current[transaction.id]?.graceOver == true && !(wasOver && previous?.id == transaction.id) {
                found.append(("GRACE_PERIOD_EXPIRED", nil, transaction))
            }
        }
        return found
    }

    /// What is seen of `transaction` now; its renewal info decoded again only when the store signed anew.
    private static func seen(_ transaction: StoreTransaction, before: Seen?, at now: Date) -> Seen {
        let jws = transaction.signedRenewalInfo
        let known = before.flatMap { $0.renewalJWS == jws ? $0.renewal : nil }
        let renewal = known ?? jws.flatMap { try? CompactJWS.decodeUnverified($0, as: RenewalInfoPayload.self) }
        return Seen(revoked: transaction.isRevoked, renewalJWS: jws, renewal: renewal, graceOver: isGraceOver(renewal, at: now),
                    expiration: transaction.expirationDate)
    }

    /// Whether a grace period has ended while billing retry goes on.
    private static func isGraceOver(_ renewal: RenewalInfoPayload?, at now: Date) -> Bool {
        renewal?.isInBillingRetryPeriod == true && renewal?.gracePeriodExpiresDate.map { $0.value <= Milliseconds(now).value } == true
    }

    /// The transaction with `id` in a history ordered by id.
    private static func transaction(_ id: UInt64, in history: [StoreTransaction]) -> StoreTransaction? {
        var low = 0
        var high = history.count
        while low < high {
            let middle = (low + high) / 2
            if history[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < history.count && history[low].id == id ? history[low] : nil
    }

    private static func newTransaction(_ transaction: StoreTransaction, in history: [StoreTransaction],
                                       before: [UInt64: Seen]) -> [(type: String, subtype: String?, transaction: StoreTransaction)] {
        guard transaction.productType == .autoRenewable else { return [("ONE_TIME_CHARGE", nil, transaction)] }
        if transaction.reason == .renewal {
            // The transaction it renews: the chain's previous one, whose renewal info said billing retry.
            let previous = history.last { $0.originalID == transaction.originalID && $0.id < transaction.id }
            let recovered = previous.flatMap { before[$0.id]?.renewal?.isInBillingRetryPeriod } == true
            return [("DID_RENEW", recovered ? "BILLING_RECOVERY" : nil, transaction)]
        }
        // An upgrade or crossgrade: the store ended another subscription of the group at this purchase.
        let replaced = history.contains {
            $0.originalID != transaction.originalID && $0.subscriptionGroupID == transaction.subscriptionGroupID
                && $0.productType == .autoRenewable && !$0.isRevoked && $0.purchaseDate < transaction.purchaseDate
                && abs(($0.expirationDate ?? .distantPast).timeIntervalSince(transaction.purchaseDate)) < 0.001
        }
        if replaced {
            return [(isRedeemedOffer(transaction.offer?.type) ? "OFFER_REDEEMED" : "DID_CHANGE_RENEWAL_PREF", "UPGRADE", transaction)]
        }
        let subscribedBefore = history.contains {
            $0.id < transaction.id && $0.subscriptionGroupID == transaction.subscriptionGroupID && $0.productType == .autoRenewable
        }
        return [("SUBSCRIBED", subscribedBefore ? "RESUBSCRIBE" : "INITIAL_BUY", transaction)]
    }

    /// The offers a customer redeems (Apple's OFFER_REDEEMED): promotional, offer code, win-back; not the
    /// introductory offer, which comes with SUBSCRIBED.
    private static func isRedeemedOffer(_ type: OfferType?) -> Bool {
        type == .promotional || type == .offerCode || type == .winBack
    }

    private static func renewalChanges(_ old: RenewalInfoPayload, _ new: RenewalInfoPayload, _ transaction: StoreTransaction,
                                       at now: Date) -> [(String, String?)] {
        var found: [(String, String?)] = []
        if old.autoRenewStatus != new.autoRenewStatus, let status = new.autoRenewStatus {
            found.append(("DID_CHANGE_RENEWAL_STATUS", status == 1 ? "AUTO_RENEW_ENABLED" : "AUTO_RENEW_DISABLED"))
        }
        let offerChanged = new.offerIdentifier != nil && isRedeemedOffer(new.offerType.flatMap { OfferType(rawValue: $0) })
            && (old.offerIdentifier != new.offerIdentifier || old.offerType != new.offerType)
        if old.autoRenewProductId != new.autoRenewProductId, let product = new.autoRenewProductId {
            let downgrade = product != transaction.productID
            found.append((offerChanged && downgrade ? "OFFER_REDEEMED" : "DID_CHANGE_RENEWAL_PREF", downgrade ? "DOWNGRADE" : nil))
        } else if offerChanged {
            // An active subscriber redeemed an offer for the next renewal of what they have.
            found.append(("OFFER_REDEEMED", nil))
        }
        let retrying = new.isInBillingRetryPeriod == true
        if retrying && old.isInBillingRetryPeriod != true {
            let grace = new.gracePeriodExpiresDate.map { $0.value > Milliseconds(now).value } ?? false
            found.append(("DID_FAIL_TO_RENEW", grace ? "GRACE_PERIOD" : nil))
        }
        // The end the store announced: an expiration intent, no longer retrying.
        let ended = new.expirationIntent != nil && !retrying
        let endedBefore = old.expirationIntent != nil && old.isInBillingRetryPeriod != true
        if ended && !endedBefore {
            let subtype: String? = switch new.expirationIntent {
            case 1: "VOLUNTARY"
            case 2: "BILLING_RETRY"
            case 4: "PRODUCT_NOT_FOR_SALE"
            default: nil
            }
            found.append(("EXPIRED", subtype))
        }
        return found
    }
}
