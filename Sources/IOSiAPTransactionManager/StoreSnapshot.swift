import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPSignedData

/// What the transaction manager shows of a local store at one moment: the catalog priced for the current
/// storefront and locale, the history newest first, the waiting purchases and the settings. `iosiap-store`'s
/// listing commands print parts of it as tables; the page receives it whole as JSON.
public struct StoreSnapshot: Sendable, Encodable {
    public struct Product: Sendable, Encodable {
        public let id: String
        public let type: String
        public let title: String
        public let price: String
        /// For subscriptions their period, level and group (e.g. "P1M level 1 of Club"); else empty.
        public let subscription: String
        /// Whether a family member can share it (the catalog's `familyShareable`): `buy --family` takes it.
        public let familyShareable: Bool
        /// For subscriptions the group's id (`subscriptionGroups[].id`); else empty.
        public let groupId: String
        /// A subscription's offers: introductory, promotional, offer codes, win-back, in that order.
        public let offers: [Offer]
    }

    /// One offer of a subscription, priced for the current storefront and locale.
    public struct Offer: Sendable, Encodable {
        /// introductory, promotional, offerCode or winBack.
        public let kind: String
        /// The promotional or win-back offer id, the offer code's reference name; empty for an introductory offer.
        public let id: String
        /// freeTrial, payAsYouGo or payUpFront.
        public let paymentMode: String
        /// One period, ISO 8601 (e.g. P1W), and how many.
        public let period: String
        public let periodCount: Int
        public let price: String
    }

    public struct Transaction: Sendable, Encodable {
        public let id: UInt64
        public let originalId: UInt64
        public let productId: String
        public let type: String
        public let quantity: Int
        /// refunded, consumed, active, expired, billing retry or grace period.
        public let state: String
        public let purchaseDate: String
        public let expirationDate: String
        public let revocationDate: String
        public let finished: Bool
        /// For auto-renewable subscriptions: "yes" or "no"; else empty.
        public let renews: String
        public let offer: String
        public let ownership: String
        public let reason: String
    }

    public struct Pending: Sendable, Encodable {
        public let id: Int64
        /// approval (Ask to Buy) or resolution (an interrupted purchase).
        public let waitsFor: String
        public let productId: String
        public let quantity: Int
        public let requestDate: String
    }

    public struct RefundRequest: Sendable, Encodable {
        public let id: Int64
        public let transactionId: UInt64
        public let productId: String
        /// pending, approved or declined.
        public let state: String
        public let requestDate: String
        public let resolutionDate: String
    }

    public let bundleId: String
    public let environment: String
    public let products: [Product]
    public let transactions: [Transaction]
    public let pending: [Pending]
    /// The refund requests the game made, newest first.
    public let refundRequests: [RefundRequest]
    /// The settings in force as (name, value) pairs, in a fixed order.
    public let settings: [[String]]

    /// Reads `store` now (also what other processes, such as a running game, committed).
    public init(_ store: LocalStore, at now: Date = Date()) throws(StoreError) {
        let settings = try store.currentSettings()
        let formatter = ISO8601DateFormatter()
        bundleId = store.bundleID
        environment = store.environment.rawValue
        products = store.catalog.products.map { product in
            Product(id: product.id, type: "\(product.type)",
                    title: product.localization(for: settings.locale)?.displayName ?? product.referenceName,
                    price: PriceFormatter.format(product.price, currencyCode: settings.storefront.currencyCode, locale: settings.locale),
                    subscription: product.subscription.map { "\($0.period) level \($0.level) of \($0.groupName)" } ?? "",
                    familyShareable: product.familyShareable, groupId: product.subscription?.groupID ?? "",
                    offers: Self.offers(of: product, settings))
        }
        transactions = try store.history().reversed().map { entry in
            let t = entry.transaction
            let state = Self.state(of: t, at: now)
            // An ended or refunded period renews nothing, whatever its chain's auto-renew setting says.
            let renews = entry.autoRenews && state != "expired" && state != "refunded"
            return Transaction(
                id: t.id, originalId: t.originalID, productId: t.productID, type: "\(t.productType)", quantity: t.quantity,
                state: state, purchaseDate: formatter.string(from: t.purchaseDate),
                expirationDate: t.expirationDate.map(formatter.string) ?? "", revocationDate: t.revocationDate.map(formatter.string) ?? "",
                finished: entry.isFinished, renews: t.productType == .autoRenewable ? (renews ? "yes" : "no") : "",
                offer: t.offer.map { offer in offer.id.map { "\(offer.type) \($0)" } ?? "\(offer.type)" } ?? "",
                ownership: t.ownershipType.rawValue, reason: t.reason.rawValue)
        }
        pending = try store.pendingPurchases().map {
            Pending(id: $0.id, waitsFor: $0.kind == .askToBuy ? "approval" : "resolution", productId: $0.productID,
                    quantity: $0.quantity, requestDate: formatter.string(from: $0.requestDate))
        }
        refundRequests = try store.refundRequests().reversed().map {
            RefundRequest(id: $0.id, transactionId: $0.transactionID, productId: $0.productID, state: $0.state.rawValue,
                          requestDate: formatter.string(from: $0.requestDate), resolutionDate: $0.resolutionDate.map(formatter.string) ?? "")
        }
        // What QA checks after the game showed the manage subscriptions sheet: how often, and when last.
        let shown = try store.manageSubscriptionsShown()
        self.settings = Self.rows(settings)
            + [["manage subscriptions shown", "\(shown.count)" + (shown.last.map { " (last \(formatter.string(from: $0)))" } ?? "")]]
    }

    /// A transaction's state as QA reads it. Billing retry is what the store last signed into the renewal info
    /// (its own signature: read, not verified, to learn a state it wrote).
    static func state(of transaction: StoreTransaction, at now: Date) -> String {
        if transaction.isRevoked { return "refunded" }
        if transaction.productType == .consumable { return "consumed" }
        if Entitlements.isActive(transaction, at: now) {
            // Active past its expiration: a grace period keeps it.
            let inGrace = transaction.productType == .autoRenewable && (transaction.expirationDate ?? .distantFuture) <= now
            return inGrace ? "grace period" : "active"
        }
        if transaction.productType == .autoRenewable,
           let renewal = transaction.signedRenewalInfo.flatMap({ try? CompactJWS.decodeUnverified($0, as: RenewalInfoPayload.self) }),
           renewal.isInBillingRetryPeriod == true {
            return "billing retry"
        }
        return "expired"
    }

    /// The settings as `iosiap-store settings` prints them and the page shows them.
    static func rows(_ settings: LocalStoreSettings) -> [[String]] {
        [
            ["storefront", settings.storefront.code], ["locale", settings.locale],
            ["ask to buy", settings.askToBuyEnabled ? "on" : "off"], ["time rate", "\(settings.timeRate)"],
            ["interrupted purchases", settings.interruptedPurchasesEnabled ? "on" : "off"],
            ["billing issues", settings.billingIssuesEnabled ? "on" : "off"],
            ["grace period", settings.billingGracePeriodEnabled ? "on" : "off"],
            ["purchase dialog", settings.purchaseDialogResponse.rawValue],
        ] + settings.simulatedErrors.sorted { $0.key.rawValue < $1.key.rawValue }.map { ["error: \($0.key.catalogName)", "\($0.value)"] }
    }

    private static func offers(of product: CatalogProduct, _ settings: LocalStoreSettings) -> [Offer] {
        guard let subscription = product.subscription else { return [] }
        let all = subscription.introductoryOffer.map { [("introductory", $0)] } ?? []
        return (all + subscription.promotionalOffers.map { ("promotional", $0) } + subscription.codeOffers.map { ("offerCode", $0.terms) }
                + subscription.winBackOffers.map { ("winBack", $0.terms) }).map { kind, offer in
            Offer(kind: kind, id: offer.id ?? "", paymentMode: "\(offer.paymentMode)", period: offer.period.description,
                  periodCount: offer.periodCount,
                  price: PriceFormatter.format(offer.price, currencyCode: settings.storefront.currencyCode, locale: settings.locale))
        }
    }
}
