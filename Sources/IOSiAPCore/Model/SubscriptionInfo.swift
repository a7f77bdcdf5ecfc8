import Foundation

/// How an introductory or promotional offer is paid (C: `iosiap_offer_payment_mode`).
public enum OfferPaymentMode: Int32, Sendable, Codable {
    case freeTrial = 0
    case payAsYouGo = 1
    case payUpFront = 2
}

/// An introductory or promotional subscription offer.
public struct SubscriptionOffer: Sendable, Equatable, Codable {
    /// The offer id (promotional offers) or `nil` (introductory offers).
    public let id: String?
    /// How the offer is paid.
    public let paymentMode: OfferPaymentMode
    /// The length of one offer period.
    public let period: SubscriptionPeriod
    /// How many offer periods the offer lasts.
    public let periodCount: Int
    /// The offer's price per period (zero for a free trial).
    public let price: Decimal
    /// The price formatted for the storefront's locale.
    public let displayPrice: String

    /// Creates an offer.
    public init(id: String?, paymentMode: OfferPaymentMode, period: SubscriptionPeriod, periodCount: Int,
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
public struct SubscriptionInfo: Sendable, Equatable, Codable {
    /// The subscription group's id (the JWS `subscriptionGroupIdentifier`).
    public let groupID: String
    /// The subscription group's reference name.
    public let groupName: String
    /// The level inside the group: 1 is the highest service level.
    public let level: Int
    /// The renewal period.
    public let period: SubscriptionPeriod
    /// The introductory offer, if the catalog has one.
    public let introductoryOffer: SubscriptionOffer?
    /// The promotional offers.
    public let promotionalOffers: [SubscriptionOffer]

    /// Creates subscription information.
    public init(groupID: String, groupName: String, level: Int, period: SubscriptionPeriod,
                introductoryOffer: SubscriptionOffer?, promotionalOffers: [SubscriptionOffer]) {
        self.groupID = groupID
        self.groupName = groupName
        self.level = level
        self.period = period
        self.introductoryOffer = introductoryOffer
        self.promotionalOffers = promotionalOffers
    }
}
