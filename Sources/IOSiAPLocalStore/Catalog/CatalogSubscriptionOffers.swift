#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Who may redeem an offer code (App Store Connect's customer eligibility of an offer code, written in
/// `.storekit` files as `codeOffers[].eligibility`).
public enum OfferCodeEligibility: String, Sendable, Equatable, CaseIterable {
    /// Never subscribed in the subscription's group.
    case new
    /// Subscribed in the group now.
    case existing
    /// Subscribed in the group before, not now.
    case expired
}

/// An offer code of a subscription (`codeOffers[]`): its terms and who may redeem it.
public struct CatalogCodeOffer: Sendable, Equatable {
    /// The terms; `terms.id` is the reference name, which transactions redeeming the code carry as their
    /// offer id (Apple: `Transaction.Offer.id` of a `code` offer is its reference name).
    public let terms: CatalogOffer
    /// The customers who may redeem it.
    public let eligibility: Set<OfferCodeEligibility>
    /// Whether it may be redeemed on top of another offer (`isStackable`); kept for display.
    public let isStackable: Bool
}

/// A win-back offer of a subscription (`winbackOffers[]`): its terms and who may redeem it: Xcode's
/// `isEligible` where the file has it, else the App Store's rules for the lapsed subscribers it targets.
public struct CatalogWinBackOffer: Sendable, Equatable {
    /// The terms; `terms.id` is the offer id.
    public let terms: CatalogOffer
    /// Xcode's StoreKit testing switch (`isEligible`): when set, the user may redeem the offer exactly when it
    /// is `true`, whatever their history; `nil` (a file without the key) leaves it to the rules below.
    public let isEligible: Bool?
    /// The months the customer must have paid for the subscription group, if the offer sets it.
    public let minimumPaidMonths: Int?
    /// How many months ago the customer's last subscription must have ended, if the offer sets it.
    public let monthsSinceLastSubscribed: ClosedRange<Int>?
    /// The months that must pass after redeeming a win-back offer before another, if the offer sets it.
    public let monthsBetweenOffers: Int?

    /// The longest span, in months, the catalog may set in a win-back offer's eligibility (ten years):
    /// anything larger is a typo, refused where the file is read.
    static let maximumMonths = 120
}
