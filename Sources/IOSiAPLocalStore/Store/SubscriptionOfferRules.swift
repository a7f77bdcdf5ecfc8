#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// Who may redeem an offer code or a win-back offer, decided from the user's history in the subscription's
/// group as the App Store decides it, and the offer's terms for the charge.
///
/// Sources: App Store Connect's offer codes are for new, existing or expired subscribers of the group
/// (`SubscriptionCustomerEligibility`); win-back offers are for lapsed subscribers, with the paid duration,
/// the time since they last subscribed and the wait between offers the offer sets, and subscriptions in
/// billing retry or a grace period are not eligible (StoreKit `eligibleWinBackOfferIDs`). Apple says nothing of
/// refunds here: a refunded subscription counts as one the user had, for every offer (a past subscriber for offer
/// codes, promotional and win-back offers; no introductory offer again), and as no paid time (App Store Connect's
/// `customerEligibilityPaidSubscriptionDurationInMonths` counts paid months; the money went back).
enum SubscriptionOfferRules {
    /// The terms of `item`'s offer code `referenceName`, checked against the user's history at `date`.
    static func offerCode(_ referenceName: String, of item: CatalogProduct, in state: LocalStoreState,
                          at date: Date) throws(StoreError) -> (TransactionOffer, CatalogOffer) {
        guard let subscription = item.subscription else {
            throw StoreError(.invalidOfferIdentifier, "'\(item.id)' is not an auto-renewable subscription; its offer codes are not simulated")
        }
        guard let code = subscription.codeOffers.first(where: { $0.terms.id == referenceName }) else {
            let known = subscription.codeOffers.compactMap(\.terms.id)
            throw StoreError(.invalidOfferIdentifier, "'\(item.id)' has no offer code '\(referenceName)'"
                             + (known.isEmpty ? "; it has none" : "; it has: \(known.joined(separator: ", "))"))
        }
        let who: OfferCodeEligibility = try activeChain(inGroup: subscription.groupID, in: state, at: date) != nil ? .existing
            : try state.hasSubscribed(inGroup: subscription.groupID) ? .expired : .new
        guard code.eligibility.contains(who) else {
            let allowed = OfferCodeEligibility.allCases.filter(code.eligibility.contains).map(\.rawValue).joined(separator: ", ")
            throw StoreError(.ineligibleForOffer, "offer code '\(referenceName)' is for \(allowed) subscribers; this user is \(who.rawValue) "
                             + "in the group of '\(item.id)'")
        }
        return (TransactionOffer(type: .offerCode, id: referenceName), code.terms)
    }

    /// The terms of `item`'s win-back offer `offerID`, refused with `ineligibleForOffer` unless the user is a
    /// lapsed subscriber of the group who meets the offer's rules at `date`. Months are the store's
    /// simulated months (`timeRate`). An offer with Xcode's `isEligible` is decided by it alone, as in Xcode's
    /// StoreKit testing: redeemable exactly when it is true.
    static func winBackOffer(_ offerID: String, of item: CatalogProduct, catalog: Catalog, in state: LocalStoreState, timeRate: TimeRate,
                             at date: Date) throws(StoreError) -> (TransactionOffer, CatalogOffer) {
        guard let subscription = item.subscription,
              let offer = subscription.winBackOffers.first(where: { $0.terms.id == offerID }) else {
            throw StoreError(.invalidOfferIdentifier, "'\(item.id)' has no win-back offer '\(offerID)' in the catalog")
        }
        if let isEligible = offer.isEligible {
            guard isEligible else {
                throw StoreError(.ineligibleForOffer, "win-back offer '\(offerID)' has isEligible false in the catalog")
            }
            return (TransactionOffer(type: .winBack, id: offerID), offer.terms)
        }
        func ineligible(_ reason: String) -> StoreError {
            StoreError(.ineligibleForOffer, "win-back offer '\(offerID)' is for lapsed subscribers; \(reason)")
        }
        let group = subscription.groupID
        if try activeChain(inGroup: group, in: state, at: date) != nil {
            throw ineligible("this user's subscription in the group of '\(item.id)' is active")
        }
        let chains = try state.subscriptionChains().filter { $0.latest.subscriptionGroupID == group }
        if chains.contains(where: { $0.state.billingRetry }) {
            throw ineligible("this user's subscription in the group of '\(item.id)' is in billing retry")
        }
        // A refunded subscription counts as one the user had, as for every other offer here (introductory offers,
        // offer codes): its end is the refund's if that came first. It counts no paid months: the money went back.
        let history = try state.allTransactions().filter { $0.subscriptionGroupID == group }
        guard let lastEnd = history.compactMap({ transaction in
            transaction.expirationDate.map { end in min(end, transaction.revocationDate ?? end) }
        }).max() else {
            throw ineligible("this user never subscribed in the group of '\(item.id)'")
        }
        let month = timeRate.end(of: StoreSubscriptionPeriod(value: 1, unit: .month), from: date).timeIntervalSince(date)
        func months(_ seconds: TimeInterval) -> Double { month > 0 ? seconds / month : 0 }
        if let minimum = offer.minimumPaidMonths {
            // Paid time: every period charged but those of a free offer (a free trial, a free code).
            let paid = history.filter { transaction in
                guard !transaction.isRevoked else { return false }
                let terms = transaction.offer.flatMap { catalog.product(id: transaction.productID)?.offer($0) }
                return terms?.paymentMode != .freeTrial
            }.reduce(0.0) { $0 + months(($1.expirationDate ?? $1.purchaseDate).timeIntervalSince($1.purchaseDate)) }
            if paid + 0.001 < Double(minimum) {
                throw ineligible("it needs \(minimum) paid months in the group; this user paid for \(Self.oneDecimal(paid))")
            }
        }
        if let range = offer.monthsSinceLastSubscribed {
            let since = months(date.timeIntervalSince(lastEnd))
            guard since + 0.001 >= Double(range.lowerBound), since <= Double(range.upperBound) else {
                throw ineligible("it needs \(range.lowerBound)…\(range.upperBound) months since the subscription ended; "
                                 + "it ended \(Self.oneDecimal(since)) months ago")
            }
        }
        if let wait = offer.monthsBetweenOffers,
           let last = history.filter({ $0.offer?.type == .winBack }).map(\.purchaseDate).max(),
           months(date.timeIntervalSince(last)) + 0.001 < Double(wait) {
            throw ineligible("it needs \(wait) months after the last win-back offer this user redeemed")
        }
        return (TransactionOffer(type: .winBack, id: offerID), offer.terms)
    }

    /// The ids of `item`'s win-back offers the user may redeem at `date`, in catalog order (the signed renewal
    /// info's `eligibleWinBackOfferIds`).
    static func eligibleWinBackOfferIDs(of item: CatalogProduct, catalog: Catalog, in state: LocalStoreState, timeRate: TimeRate,
                                        at date: Date) throws(StoreError) -> [String] {
        var eligible: [String] = []
        for offer in item.subscription?.winBackOffers ?? [] {
            guard let id = offer.terms.id else { continue }
            do {
                _ = try winBackOffer(id, of: item, catalog: catalog, in: state, timeRate: timeRate, at: date)
                eligible.append(id)
            } catch where error.code == .ineligibleForOffer {
                continue
            }
        }
        return eligible
    }

    /// Whether a payment in `groupID` gets the product's introductory offer: once per group, for a user who never
    /// had a subscription in it (StoreKit `isEligibleForIntroOffer`); the charge and the eligibility query ask here.
    /// Apple's documentation (`isEligibleForIntroOffer`, "Implementing introductory offers in your app") does not
    /// say whether a subscription shared by a family member counts; every subscription the user had counts here.
    static func isEligibleForIntroOffer(inGroup groupID: String, in state: LocalStoreState) throws(StoreError) -> Bool {
        try !state.hasSubscribed(inGroup: groupID)
    }

    /// Whether a payment in `groupID` gets the product's introductory offer: as the introductory offer eligibility
    /// JWS it carried decides (`allowed`, StoreKit's `introductoryOfferEligibility(compactJWS:)`: the developer's
    /// server overrides the rule, either way), else as `isEligibleForIntroOffer`.
    static func getsIntroductoryOffer(inGroup groupID: String, allowed: Bool?, in state: LocalStoreState) throws(StoreError) -> Bool {
        if let allowed { return allowed }
        return try isEligibleForIntroOffer(inGroup: groupID, in: state)
    }

    /// The user's subscription in `groupID` that entitles at `date` (as entitlements decide: not refunded, within
    /// its period or a grace period), if any.
    static func activeChain(inGroup groupID: String, in state: LocalStoreState,
                            at date: Date) throws(StoreError) -> LocalStoreState.SubscriptionChain? {
        try state.subscriptionChains().first {
            $0.latest.subscriptionGroupID == groupID && Entitlements.isActive($0.latest, at: date)
        }
    }

    /// `value` with one decimal ("2.5"), rounded half away from zero.
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((abs(value) * 10).rounded())
        return (value < 0 && tenths > 0 ? "-" : "") + "\(tenths / 10).\(tenths % 10)"
    }
}
