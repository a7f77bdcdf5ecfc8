import IOSiAPCore

/// The `settings` of a `.storekit` file: how the local store behaves until a control overrides it.
public struct CatalogSettings: Sendable, Equatable {
    /// The storefront (`_storefront`, default `USA`).
    public var storefront: AppStoreStorefront
    /// The locale for titles and prices (`_locale`, default `en_US`).
    public var locale: String
    /// Whether purchases wait for a parent's approval (`_askToBuyEnabled`).
    public var askToBuyEnabled: Bool
    /// Whether purchases fail (`_failTransactionsEnabled`), with StoreKit's unknown error.
    public var failTransactionsEnabled: Bool
    /// How fast subscription time runs (`_timeRate`).
    public var timeRate: TimeRate
    /// The errors the file enables per API (`_storeKitErrors`).
    public var simulatedErrors: [FailableAPI: StoreErrorCode]
    /// Whether renewals run into billing problems (`_billingIssuesEnabled` or `_renewalBillingIssuesEnabled`).
    public var billingIssuesEnabled: Bool
    /// Whether a billing problem opens a grace period (`_billingGracePeriodEnabled`).
    public var billingGracePeriodEnabled: Bool

    /// The settings of a file that has none.
    public static let defaults = CatalogSettings(
        storefront: AppStoreStorefront(code: "USA")!, locale: "en_US", askToBuyEnabled: false,
        failTransactionsEnabled: false, timeRate: .realTime, simulatedErrors: [:],
        billingIssuesEnabled: false, billingGracePeriodEnabled: false)
}
