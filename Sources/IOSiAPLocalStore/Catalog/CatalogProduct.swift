#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// A product's title and description in one locale.
public struct CatalogLocalization: Sendable, Equatable {
    /// The locale identifier, e.g. `en_US`, `de_DE` or `ar`.
    public let locale: String
    /// The localized title.
    public let displayName: String
    /// The localized description.
    public let description: String
}

/// An offer as the catalog defines it; its price is formatted when a storefront is chosen.
public struct CatalogOffer: Sendable, Equatable {
    /// The promotional or win-back offer id, or the offer code's reference name; `nil` for an introductory offer.
    public let id: String?
    /// How the offer is paid.
    public let paymentMode: OfferPaymentMode
    /// The length of one offer period.
    public let period: StoreSubscriptionPeriod
    /// How many periods the offer lasts (1 when the file leaves it out).
    public let periodCount: Int
    /// The price per period; zero for free trials.
    public let price: Decimal

    /// How much time one transaction charged with this offer covers: one period of a pay-as-you-go offer
    /// (each further period is a renewal at the offer's price), the whole offer otherwise.
    var periodsPerTransaction: Int { paymentMode == .payAsYouGo ? 1 : periodCount }

    /// The offer's kind of discount as signed payloads name it (`offerDiscountType`).
    var discountType: String {
        switch paymentMode {
        case .freeTrial: "FREE_TRIAL"
        case .payAsYouGo: "PAY_AS_YOU_GO"
        case .payUpFront: "PAY_UP_FRONT"
        }
    }
}

/// What the catalog says about an auto-renewable subscription.
public struct CatalogSubscription: Sendable, Equatable {
    /// The group id (`subscriptionGroups[].id`).
    public let groupID: String
    /// The group's name.
    public let groupName: String
    /// The level in the group (`groupNumber`; 1 is the highest).
    public let level: Int
    /// The renewal period.
    public let period: StoreSubscriptionPeriod
    /// The introductory offer.
    public let introductoryOffer: CatalogOffer?
    /// The promotional offers (`adHocOffers`).
    public let promotionalOffers: [CatalogOffer]
    /// The offer codes (`codeOffers`).
    public internal(set) var codeOffers: [CatalogCodeOffer] = []
    /// The win-back offers (`winbackOffers`).
    public internal(set) var winBackOffers: [CatalogWinBackOffer] = []
}

/// One product of a `.storekit` catalog.
public struct CatalogProduct: Sendable, Equatable {
    /// The product id.
    public let id: String
    /// The type.
    public let type: ProductType
    /// The reference name (App Store Connect's internal name).
    public let referenceName: String
    /// The price, in the storefront's currency.
    public let price: Decimal
    /// Whether Family Sharing applies.
    public let familyShareable: Bool
    /// The localizations, in file order.
    public let localizations: [CatalogLocalization]
    /// Subscription details, for auto-renewable subscriptions.
    public let subscription: CatalogSubscription?

    /// The catalog's terms of an offer a transaction of this product used.
    func offer(_ offer: TransactionOffer) -> CatalogOffer? {
        switch offer.type {
        case .introductory: subscription?.introductoryOffer
        case .promotional: subscription?.promotionalOffers.first { $0.id == offer.id }
        case .offerCode: subscription?.codeOffers.first { $0.terms.id == offer.id }?.terms
        case .winBack: subscription?.winBackOffers.first { $0.terms.id == offer.id }?.terms
        }
    }

    /// The offer with id `id` (a promotional or win-back offer id, an offer code's reference name) that a
    /// purchase waiting for approval or the next renewal redeems. App Store Connect keeps these ids unique
    /// across offer types (its "Create a Win-Back Offer" notes), so the id alone names the offer.
    func redeemedOffer(id: String) -> (TransactionOffer, CatalogOffer)? {
        for type in [OfferType.promotional, .offerCode, .winBack] {
            let offer = TransactionOffer(type: type, id: id)
            if let terms = self.offer(offer) { return (offer, terms) }
        }
        return nil
    }

    /// The localization for `locale`: the exact locale, else one of the same language, else `en_US`,
    /// else any English one, else the first. `nil` only when there are none.
    public func localization(for locale: String) -> CatalogLocalization? {
        let wanted = Self.normalized(locale)
        let language = Self.language(of: wanted)
        return localizations.first { Self.normalized($0.locale) == wanted }
            ?? localizations.first { Self.language(of: Self.normalized($0.locale)) == language }
            ?? localizations.first { Self.normalized($0.locale) == "en_US" }
            ?? localizations.first { Self.language(of: Self.normalized($0.locale)) == "en" }
            ?? localizations.first
    }

    private static func normalized(_ locale: String) -> String {
        String(locale.map { $0 == "-" ? "_" : $0 })
    }

    private static func language(of locale: String) -> Substring {
        locale.split(separator: "_").first ?? Substring(locale)
    }
}
