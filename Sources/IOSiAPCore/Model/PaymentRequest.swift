#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Identifies one products request, payment or restore; every event that answers it carries it.
public typealias RequestID = UInt64

/// What the game asks to buy (C: the arguments of `iosiap_request_payment` and
/// `iosiap_request_payment_with_options`).
public struct PaymentRequest: Sendable, Equatable {
    /// The quantities StoreKit accepts.
    public static let allowedQuantities: ClosedRange<Int> = 1...10

    /// The product to buy.
    public let productID: String
    /// How many units (1…10; above 1 for consumables only).
    public let quantity: Int
    /// An optional UUID the game uses to link the purchase to its own account.
    public let appAccountToken: UUID?
    /// A promotional offer to redeem, signed by the game's server (auto-renewable subscriptions only).
    public let promotionalOffer: SignedPromotionalOffer?
    /// The game's UI object StoreKit shows the confirmation near (`purchase(confirmIn:options:)`), or `nil`.
    /// Required on visionOS; the local store ignores it.
    public let uiContext: UIContext?
    /// A win-back offer to redeem, by its id in `StoreSubscriptionInfo.winBackOffers` (StoreKit 2:
    /// `Product.PurchaseOption.winBackOffer(_:)`); the store refuses it with `ineligibleForOffer` unless the
    /// user is a lapsed subscriber of the group. C: `iosiap_payment_options.win_back_offer_id`.
    public let winBackOfferID: String?
    /// A promotional offer to redeem, signed by the game's server as a JWS (StoreKit 2, iOS 26 / macOS 26 SDK:
    /// `Product.PurchaseOption.promotionalOffer(_:compactJWS:)`); instead of `promotionalOffer`, never with it.
    /// C: `iosiap_payment_options.offer_id` with `offer_jws`.
    public let promotionalOfferJWS: PromotionalOfferJWS?
    /// A JWS from the game's server that decides whether this purchase gets the product's introductory offer,
    /// whatever the App Store's own rule would say (`allowIntroductoryOffer`; StoreKit 2:
    /// `Product.PurchaseOption.introductoryOfferEligibility(compactJWS:)`). C:
    /// `iosiap_payment_options.intro_offer_eligibility_jws`.
    public let introductoryOfferEligibilityJWS: String?

    /// Creates a payment request; `PurchaseStore` validates it.
    public init(productID: String, quantity: Int = 1, appAccountToken: UUID? = nil,
                promotionalOffer: SignedPromotionalOffer? = nil, uiContext: UIContext? = nil,
                winBackOfferID: String? = nil, promotionalOfferJWS: PromotionalOfferJWS? = nil,
                introductoryOfferEligibilityJWS: String? = nil) {
        self.productID = productID
        self.quantity = quantity
        self.appAccountToken = appAccountToken
        self.promotionalOffer = promotionalOffer
        self.uiContext = uiContext
        self.winBackOfferID = winBackOfferID
        self.promotionalOfferJWS = promotionalOfferJWS
        self.introductoryOfferEligibilityJWS = introductoryOfferEligibilityJWS
    }
}
