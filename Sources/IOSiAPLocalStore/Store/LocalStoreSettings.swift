import IOSiAPCore

/// What the simulated user answers in the purchase sheet.
public enum PurchaseDialogResponse: String, Sendable, Codable, CaseIterable {
    /// The user confirms: the purchase goes on.
    case confirm
    /// The user cancels: nothing is charged.
    case cancel
}

/// The local store's settings in force: the catalog's, with the controls' overrides on top.
public struct LocalStoreSettings: Sendable, Equatable {
    /// The storefront prices and transactions use.
    public var storefront: AppStoreStorefront
    /// The locale titles and prices are shown in.
    public var locale: String
    /// Whether purchases wait for approval.
    public var askToBuyEnabled: Bool
    /// Whether purchases are interrupted until the user resolves them (SKTestSession
    /// `interruptedPurchasesEnabled`).
    public var interruptedPurchasesEnabled = false
    /// Whether renewals fail to charge and enter billing retry (SKTestSession `billingRetryOnRenewal`).
    public var billingIssuesEnabled: Bool
    /// Whether a failed renewal keeps the subscription for a grace period (SKTestSession
    /// `billingGracePeriodIsEnabled`).
    public var billingGracePeriodEnabled: Bool
    /// How fast subscription time runs.
    public var timeRate: TimeRate
    /// The error each API fails with, if any.
    public var simulatedErrors: [FailableAPI: StoreErrorCode]
    /// What the user answers in the purchase sheet.
    public var purchaseDialogResponse: PurchaseDialogResponse

    init(catalog: CatalogSettings) {
        storefront = catalog.storefront
        locale = catalog.locale
        askToBuyEnabled = catalog.askToBuyEnabled
        billingIssuesEnabled = catalog.billingIssuesEnabled
        billingGracePeriodEnabled = catalog.billingGracePeriodEnabled
        timeRate = catalog.timeRate
        simulatedErrors = catalog.simulatedErrors
        // `_failTransactionsEnabled` is the older form of a simulated purchase error.
        if catalog.failTransactionsEnabled && simulatedErrors[.purchase] == nil {
            simulatedErrors[.purchase] = .unknown
        }
        purchaseDialogResponse = .confirm
    }

    /// The override keys kept in the state database, so that another process (the transaction manager)
    /// can change a running game's store.
    enum Key {
        static let storefront = "storefront"
        static let locale = "locale"
        static let askToBuy = "ask_to_buy"
        static let interrupted = "interrupted_purchases"
        static let billingIssues = "billing_issues"
        static let gracePeriod = "grace_period"
        static let timeRate = "time_rate"
        static let purchaseDialog = "purchase_dialog"
        static let catalogPath = "catalog_path"
        static let bundleID = "bundle_id"
        static func simulatedError(_ api: FailableAPI) -> String { "simulated_error.\(api.catalogName)" }
    }

    /// Applies stored overrides; values that no longer parse are ignored, leaving the catalog's.
    mutating func apply(_ overrides: [String: String]) {
        if let code = overrides[Key.storefront], let storefront = AppStoreStorefront(code: code) { self.storefront = storefront }
        if let locale = overrides[Key.locale] { self.locale = locale }
        if let value = overrides[Key.askToBuy] { askToBuyEnabled = value == "1" }
        if let value = overrides[Key.interrupted] { interruptedPurchasesEnabled = value == "1" }
        if let value = overrides[Key.billingIssues] { billingIssuesEnabled = value == "1" }
        if let value = overrides[Key.gracePeriod] { billingGracePeriodEnabled = value == "1" }
        if let value = overrides[Key.timeRate].flatMap(Int.init).flatMap(TimeRate.init(rawValue:)) { timeRate = value }
        if let value = overrides[Key.purchaseDialog].flatMap(PurchaseDialogResponse.init(rawValue:)) {
            purchaseDialogResponse = value
        }
        for api in FailableAPI.allCases {
            guard let value = overrides[Key.simulatedError(api)] else { continue }
            simulatedErrors[api] = Int32(value).flatMap(StoreErrorCode.init(rawValue:))
        }
    }
}
