/// The JSON of an Xcode `.storekit` file, versions 1.0 to 5.0, as written: every key optional except the
/// few a product cannot be sold without; unknown keys are ignored. `Catalog` validates and converts it.
struct StoreKitConfigurationFile: Decodable {
    var identifier: String?
    var products: [ProductEntry]?
    var nonRenewingSubscriptions: [ProductEntry]?
    var subscriptionGroups: [GroupEntry]?
    var settings: SettingsEntry?
    var subscriptionOffersKeyPair: OfferKeyPairEntry?
    var version: VersionEntry?

    struct OfferKeyPairEntry: Decodable {
        var id: String
        var privateKey: String
    }

    struct VersionEntry: Decodable {
        var major: Int
        var minor: Int
    }

    struct LocalizationEntry: Decodable {
        var description: String?
        var displayName: String?
        var locale: String?
    }

    struct ProductEntry: Decodable {
        var displayPrice: String
        var familyShareable: Bool?
        var internalID: String?
        var localizations: [LocalizationEntry]?
        var productID: String
        var referenceName: String?
        var type: String
    }

    struct GroupEntry: Decodable {
        var id: String
        var name: String?
        var localizations: [LocalizationEntry]?
        var subscriptions: [SubscriptionEntry]?
    }

    struct SubscriptionEntry: Decodable {
        var adHocOffers: [OfferEntry]?
        var codeOffers: [CodeOfferEntry]?
        var displayPrice: String
        var familyShareable: Bool?
        var groupNumber: Int?
        var internalID: String?
        var introductoryOffer: OfferEntry?
        var introductoryOffers: [OfferEntry]?
        var localizations: [LocalizationEntry]?
        var productID: String
        var recurringSubscriptionPeriod: String
        var referenceName: String?
        var subscriptionGroupID: String?
        var type: String?
        var winbackOffers: [WinBackOfferEntry]?
    }

    /// An offer code (`codeOffers[]`, format 1.1+): identified by its reference name, which transactions
    /// redeeming it carry as their offer id; `eligibility` lists "new", "existing" and "expired".
    struct CodeOfferEntry: Decodable {
        var internalID: String?
        var referenceName: String?
        var paymentMode: String
        var subscriptionPeriod: String
        var numberOfPeriods: Int?
        var displayPrice: String?
        var eligibility: [String]?
        var isStackable: Bool?
    }

    /// A win-back offer (`winbackOffers[]`, format 3.0+). Every public file has the array empty, so the
    /// element's keys are not confirmed: the offer's terms use the keys of the other offers, and the
    /// eligibility the App Store Connect API's names for a win-back offer's customer eligibility.
    struct WinBackOfferEntry: Decodable {
        var internalID: String?
        var offerID: String?
        var referenceName: String?
        var paymentMode: String
        var subscriptionPeriod: String
        var numberOfPeriods: Int?
        var displayPrice: String?
        var customerEligibilityPaidSubscriptionDurationInMonths: Int?
        var customerEligibilityTimeSinceLastSubscribedInMonths: MonthRange?
        var customerEligibilityWaitBetweenOffersInMonths: Int?

        struct MonthRange: Decodable {
            var minimum: Int?
            var maximum: Int?
        }
    }

    struct OfferEntry: Decodable {
        var internalID: String?
        var offerID: String?
        var referenceName: String?
        var paymentMode: String
        var subscriptionPeriod: String
        var numberOfPeriods: Int?
        var displayPrice: String?
    }

    struct SettingsEntry: Decodable {
        var _askToBuyEnabled: Bool?
        var _billingGracePeriodEnabled: Bool?
        var _billingIssuesEnabled: Bool?
        var _disableDialogs: Bool?
        var _failTransactionsEnabled: Bool?
        var _locale: String?
        var _renewalBillingIssuesEnabled: Bool?
        var _storefront: String?
        var _storeKitErrors: [StoreKitErrorEntry]?
        var _timeRate: Int?
    }

    struct StoreKitErrorEntry: Decodable {
        var name: String
        var enabled: Bool?
        var current: ErrorChoice?

        struct ErrorChoice: Decodable {
            var index: Int?
            var type: String?
        }
    }
}
