#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a subscription offer is paid (C: `iosiap_offer_payment_mode`).
public enum OfferPaymentMode: Int32, Sendable, Codable {
    case freeTrial = 0
    case payAsYouGo = 1
    case payUpFront = 2
}

/// An introductory, promotional or win-back subscription offer.
public struct SubscriptionOffer: Sendable, Equatable, Codable {
    /// The offer id (promotional and win-back offers) or `nil` (introductory offers).
    public let id: String?
    /// How the offer is paid.
    public let paymentMode: OfferPaymentMode
    /// The length of one offer period.
    public let period: StoreSubscriptionPeriod
    /// How many offer periods the offer lasts.
    public let periodCount: Int
    /// The offer's price per period (zero for a free trial).
    public let price: Decimal
    /// The price formatted for the storefront's locale.
    public let displayPrice: String

    /// Creates an offer.
    public init(id: String?, paymentMode: OfferPaymentMode, period: StoreSubscriptionPeriod, periodCount: Int,
                price: Decimal, displayPrice: String) {
        self.id = id
        self.paymentMode = paymentMode
        self.period = period
        self.periodCount = periodCount
        self.price = price
        self.displayPrice = displayPrice
    }
}

/// What a subscription product adds to a product: its period, group and level, and its offers.
public struct StoreSubscriptionInfo: Sendable, Equatable, Codable {
    /// The subscription group's id (the JWS `subscriptionGroupIdentifier`).
    public let groupID: String
    /// The subscription group's reference name.
    public let groupName: String
    /// The level inside the group: 1 is the highest service level.
    public let level: Int
    /// The renewal period.
    public let period: StoreSubscriptionPeriod
    /// The introductory offer, if the catalog has one.
    public let introductoryOffer: SubscriptionOffer?
    /// The promotional offers.
    public let promotionalOffers: [SubscriptionOffer]
    /// The win-back offers the App Store configures for lapsed subscribers (StoreKit:
    /// `Product.SubscriptionInfo.winBackOffers`; the local store's, from a `.storekit` file's `winbackOffers`).
    public let winBackOffers: [SubscriptionOffer]

    /// Creates subscription information.
    public init(groupID: String, groupName: String, level: Int, period: StoreSubscriptionPeriod,
                introductoryOffer: SubscriptionOffer?, promotionalOffers: [SubscriptionOffer],
                winBackOffers: [SubscriptionOffer] = []) {
        self.groupID = groupID
        self.groupName = groupName
        self.level = level
        self.period = period
        self.introductoryOffer = introductoryOffer
        self.promotionalOffers = promotionalOffers
        self.winBackOffers = winBackOffers
    }

    private enum CodingKeys: String, CodingKey {
        case groupID, groupName, level, period, introductoryOffer, promotionalOffers, winBackOffers
    }

    /// Decodes what an earlier version encoded too: one without `winBackOffers` has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        groupID = try container.decode(String.self, forKey: .groupID)
        groupName = try container.decode(String.self, forKey: .groupName)
        level = try container.decode(Int.self, forKey: .level)
        period = try container.decode(StoreSubscriptionPeriod.self, forKey: .period)
        introductoryOffer = try container.decodeIfPresent(SubscriptionOffer.self, forKey: .introductoryOffer)
        promotionalOffers = try container.decode([SubscriptionOffer].self, forKey: .promotionalOffers)
        winBackOffers = try container.decodeIfPresent([SubscriptionOffer].self, forKey: .winBackOffers) ?? []
    }
}
