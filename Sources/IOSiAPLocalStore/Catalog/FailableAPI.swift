import IOSiAPCore

/// The StoreKit APIs whose failure can be simulated, as StoreKitTest's `FailableStoreKitAPI` and the
/// `.storekit` file's `_storeKitErrors` list them (C: `iosiap_failable_api`).
public enum FailableAPI: Int32, Sendable, CaseIterable, Codable {
    case loadProducts = 0
    case purchase = 1
    case verification = 2
    case appStoreSync = 3
    case subscriptionStatus = 4
    case appTransaction = 5
    case manageSubscriptions = 6
    case refundRequest = 7
    case offerCodeRedeem = 8

    /// The name Xcode writes in `_storeKitErrors[].name`.
    public var catalogName: String {
        switch self {
        case .loadProducts: "Load Products"
        case .purchase: "Purchase"
        case .verification: "Verification"
        case .appStoreSync: "App Store Sync"
        case .subscriptionStatus: "Subscription Status"
        case .appTransaction: "App Transaction"
        case .manageSubscriptions: "Manage Subscriptions Sheet"
        case .refundRequest: "Refund Request Sheet"
        case .offerCodeRedeem: "Offer Code Redeem Sheet"
        }
    }

    /// The API named `name` in a `.storekit` file.
    public init?(catalogName name: String) {
        guard let api = Self.allCases.first(where: { $0.catalogName == name }) else { return nil }
        self = api
    }

    /// The error an enabled `_storeKitErrors` entry stands for. Xcode stores the chosen error as the case
    /// `index` within the enum named by `type` (`generic`: `StoreKitError`; `purchase`:
    /// `Product.PurchaseError`). That reading is inferred from real files, not documented by Apple; an index
    /// outside the known cases is StoreKit's `unknown`.
    static func simulatedError(type: String?, index: Int?) -> StoreErrorCode {
        let cases: [StoreErrorCode] = switch type {
        case "purchase":
            [.quantityOutOfRange, .storeProductNotAvailable, .paymentNotAllowed, .ineligibleForOffer,
             .invalidOfferIdentifier, .invalidOfferPrice, .invalidSignature, .missingOfferParams]
        default:
            [.unknown, .paymentCancelled, .storeUnreachable, .systemError, .storeProductNotAvailable,
             .notEntitled, .unsupportedPlatform]
        }
        guard let index, cases.indices.contains(index) else { return .unknown }
        return cases[index]
    }
}
