/// The JSON of an Xcode `.storekit` file, versions 1.0 to 6.3, as written: every key optional except the
/// few a product cannot be sold without; unknown keys are ignored. `Catalog` validates and converts it.
/// Format 6.3 (Xcode 27) adds `subscriptionSuiteGroups`, groups shaped like `subscriptionGroups` whose
/// subscriptions write their period as `duration` and their sharing as `isFamilyShareable`, and
/// `subscriptionBundleGroups`, seen only empty in public files.
///
/// Keys real files carry that the local store makes no use of: `internalID` (Xcode's own ids, duplicated
/// in some files), `subscriptionGroupID` (the enclosing group's id), `billingPlans` (5.0: the product is sold
/// billed up front, at its `displayPrice`), `appPolicies`, `promotionalImageID`, and the settings
/// `_storeKitError` (an integer in 1.2 and 2.0 files, before `_storeKitErrors`), `_compatibilityTimeRate`,
/// `_lastSynchronizedDate` (a fractional or whole number), `_applicationInternalID` and `_developerTeamID`.
struct StoreKitConfigurationFile: Decodable {
    var identifier: String?
    var products: [ProductEntry]?
    var nonRenewingSubscriptions: [ProductEntry]?
    var subscriptionGroups: [GroupEntry]?
    var subscriptionSuiteGroups: [GroupEntry]?
    var subscriptionBundleGroups: [UnreadEntry]?
    var settings: SettingsEntry?
    var subscriptionOffersKeyPair: OfferKeyPairEntry?
    var version: VersionEntry?

    /// Any JSON value, read for its presence only.
    struct UnreadEntry: Decodable {
        init(from decoder: any Decoder) throws {}
    }

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
        var duration: String?
        var familyShareable: Bool?
        var groupNumber: Int?
        var internalID: String?
        var introductoryOffer: OfferEntry?
        var introductoryOffers: [OfferEntry]?
        var isFamilyShareable: Bool?
        var localizations: [LocalizationEntry]?
        var productID: String
        var recurringSubscriptionPeriod: String?
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

    /// A win-back offer (`winbackOffers[]`, format 3.0+). Xcode writes `internalID`, `offerID`, `referenceName`,
    /// `paymentMode`, `subscriptionPeriod`, `numberOfPeriods` and `displayPrice` (paid modes) as for the other
    /// offers, and `isEligible`, its StoreKit testing switch for whether the user may redeem it (seen in
    /// RevenueCat's cordova and KMP samples and Flutter's in_app_purchase example). A hand-written file may set
    /// the App Store's eligibility rules instead, with the App Store Connect API's names.
    struct WinBackOfferEntry: Decodable {
        var internalID: String?
        var offerID: String?
        var referenceName: String?
        var paymentMode: String
        var subscriptionPeriod: String
        var numberOfPeriods: Int?
        var displayPrice: String?
        var isEligible: Bool?
        var customerEligibilityPaidSubscriptionDurationInMonths: Int?
        var customerEligibilityTimeSinceLastSubscribedInMonths: MonthRange?
        var customerEligibilityWaitBetweenOffersInMonths: Int?

        struct MonthRange: Decodable {
            var minimum: Int?
            var maximum: Int?
        }
    }

    /// An introductory or promotional offer. `billingPlanType` (format 5.0) names the billing plan it belongs
    /// to: `BILLED_UPFRONT`, the plan the local store sells, or `MONTHLY`.
    struct OfferEntry: Decodable {
        var internalID: String?
        var offerID: String?
        var referenceName: String?
        var paymentMode: String
        var subscriptionPeriod: String
        var numberOfPeriods: Int?
        var displayPrice: String?
        var billingPlanType: String?
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
