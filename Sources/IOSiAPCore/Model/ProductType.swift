/// The four kinds of in-app product the App Store sells (C: `iosiap_product_type`).
public enum ProductType: Int32, Sendable, Codable, CaseIterable {
    case consumable = 0
    case nonConsumable = 1
    case autoRenewable = 2
    case nonRenewing = 3

    /// The type string of Apple's signed transaction payload (`"Consumable"`, `"Auto-Renewable Subscription"`, …).
    public var payloadName: String {
        switch self {
        case .consumable: "Consumable"
        case .nonConsumable: "Non-Consumable"
        case .autoRenewable: "Auto-Renewable Subscription"
        case .nonRenewing: "Non-Renewing Subscription"
        }
    }

    /// Whether a purchase may carry a quantity above 1.
    public var allowsQuantity: Bool { self == .consumable }

    /// Whether restore returns purchases of this type (consumables are used up, never restored).
    public var isRestorable: Bool { self != .consumable }
}
