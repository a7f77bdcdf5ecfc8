#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A product as the store presents it to the user (C: `iosiap_product`; StoreKit 2: `Product`).
public struct StoreProduct: Sendable, Equatable, Codable, Identifiable {
    /// The product identifier, as in App Store Connect or the `.storekit` file.
    public let id: String
    /// The product type.
    public let type: ProductType
    /// The localized title.
    public let displayName: String
    /// The localized description.
    public let description: String
    /// The price in the storefront's currency.
    public let price: Decimal
    /// The ISO 4217 currency code of `price`.
    public let currencyCode: String
    /// The price formatted for the storefront's locale, e.g. "$0.99", "0,99 €", "¥120".
    public let displayPrice: String
    /// Subscription details, for auto-renewable subscriptions only.
    public let subscription: StoreSubscriptionInfo?

    /// Creates a product.
    public init(id: String, type: ProductType, displayName: String, description: String, price: Decimal,
                currencyCode: String, displayPrice: String, subscription: StoreSubscriptionInfo? = nil) {
        self.id = id
        self.type = type
        self.displayName = displayName
        self.description = description
        self.price = price
        self.currencyCode = currencyCode
        self.displayPrice = displayPrice
        self.subscription = subscription
    }
}
