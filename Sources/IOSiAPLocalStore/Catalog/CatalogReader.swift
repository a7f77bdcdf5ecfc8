#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPVerification

/// Turns the decoded JSON of a `.storekit` file into validated catalog values, naming the key path of
/// anything it cannot accept.
struct CatalogReader {
    let fileName: String
    private var seenIDs: [String: String] = [:]

    init(fileName: String) {
        self.fileName = fileName
    }

    mutating func products(of file: StoreKitConfigurationFile) throws(StoreError) -> [CatalogProduct] {
        var products: [CatalogProduct] = []
        for (offset, entry) in (file.products ?? []).enumerated() {
            products.append(try product(entry, at: ".products[\(offset)]"))
        }
        for (offset, entry) in (file.nonRenewingSubscriptions ?? []).enumerated() {
            products.append(try product(entry, at: ".nonRenewingSubscriptions[\(offset)]"))
        }
        // A suite's subscriptions renew and expire as any auto-renewable subscription does (StoreKit 816 gives them
        // a group and a period), in the suite's group.
        for (key, groups) in [("subscriptionGroups", file.subscriptionGroups), ("subscriptionSuiteGroups", file.subscriptionSuiteGroups)] {
            for (groupOffset, group) in (groups ?? []).enumerated() {
                for (offset, entry) in (group.subscriptions ?? []).enumerated() {
                    let path = ".\(key)[\(groupOffset)].subscriptions[\(offset)]"
                    products.append(try subscription(entry, group: group, at: path))
                }
            }
        }
        if let bundles = file.subscriptionBundleGroups, !bundles.isEmpty {
            throw invalid(".subscriptionBundleGroups", "the local store cannot sell subscription bundles yet (no public "
                          + "Xcode 27 file shows how they are written); test them on StoreKit, or remove them here")
        }
        return products
    }

    func settings(_ entry: StoreKitConfigurationFile.SettingsEntry?) throws(StoreError) -> CatalogSettings {
        var settings = CatalogSettings.defaults
        guard let entry else { return settings }
        if let code = entry._storefront {
            guard let storefront = AppStoreStorefront(code: code) else {
                throw invalid(".settings._storefront", AppStoreStorefront.unknownMessage(code))
            }
            settings.storefront = storefront
        }
        if let locale = entry._locale, !locale.isEmpty { settings.locale = locale }
        settings.askToBuyEnabled = entry._askToBuyEnabled ?? false
        settings.failTransactionsEnabled = entry._failTransactionsEnabled ?? false
        if let rate = entry._timeRate {
            guard let timeRate = TimeRate(rawValue: rate) else {
                throw invalid(".settings._timeRate", "unknown time rate \(rate)")
            }
            settings.timeRate = timeRate
        }
        settings.billingIssuesEnabled = (entry._billingIssuesEnabled ?? false) || (entry._renewalBillingIssuesEnabled ?? false)
        settings.billingGracePeriodEnabled = entry._billingGracePeriodEnabled ?? false
        for simulated in entry._storeKitErrors ?? [] where simulated.enabled == true {
            // Names from newer Xcode releases that we do not know are ignored, like unknown keys.
            guard let api = FailableAPI(catalogName: simulated.name) else { continue }
            settings.simulatedErrors[api] = FailableAPI.simulatedError(type: simulated.current?.type,
                                                                       index: simulated.current?.index)
        }
        return settings
    }

    // MARK: - Products

    private mutating func product(_ entry: StoreKitConfigurationFile.ProductEntry, at path: String) throws(StoreError) -> CatalogProduct {
        let type: ProductType = switch entry.type {
        case "Consumable": .consumable
        case "NonConsumable": .nonConsumable
        case "NonRenewingSubscription": .nonRenewing
        default: throw invalid("\(path).type", "unknown product type '\(entry.type)'")
        }
        try claim(entry.productID, at: path)
        return CatalogProduct(
            id: entry.productID, type: type, referenceName: entry.referenceName ?? entry.productID,
            price: try price(entry.displayPrice, at: "\(path).displayPrice"),
            familyShareable: entry.familyShareable ?? false,
            localizations: localizations(entry.localizations), subscription: nil)
    }

    private mutating func subscription(_ entry: StoreKitConfigurationFile.SubscriptionEntry,
                                       group: StoreKitConfigurationFile.GroupEntry,
                                       at path: String) throws(StoreError) -> CatalogProduct {
        try claim(entry.productID, at: path)
        // A suite's subscription (format 6.3) writes its period as `duration`.
        let inSuite = path.hasPrefix(".subscriptionSuiteGroups")
        let periodKey = entry.recurringSubscriptionPeriod == nil && (entry.duration != nil || inSuite) ? "duration" : "recurringSubscriptionPeriod"
        guard let periodText = entry.recurringSubscriptionPeriod ?? entry.duration else {
            throw invalid("\(path).\(periodKey)", "a subscription needs its period, like P1W, P1M or P1Y")
        }
        guard let period = StoreSubscriptionPeriod(iso8601: periodText) else {
            throw invalid("\(path).\(periodKey)", "'\(periodText)' is not a period like P1W, P1M or P1Y")
        }
        let introductory = try introductoryOffer(of: entry, at: path)
        var promotional: [CatalogOffer] = []
        for (offset, offer) in (entry.adHocOffers ?? []).enumerated() {
            if let terms = try self.offer(offer, idKey: "offerID", at: "\(path).adHocOffers[\(offset)]") { promotional.append(terms) }
        }
        var codes: [CatalogCodeOffer] = []
        for (offset, code) in (entry.codeOffers ?? []).enumerated() {
            if let code = try codeOffer(code, at: "\(path).codeOffers[\(offset)]") { codes.append(code) }
        }
        var winBacks: [CatalogWinBackOffer] = []
        for (offset, winBack) in (entry.winbackOffers ?? []).enumerated() {
            if let winBack = try winBackOffer(winBack, at: "\(path).winbackOffers[\(offset)]") { winBacks.append(winBack) }
        }
        return CatalogProduct(
            id: entry.productID, type: .autoRenewable, referenceName: entry.referenceName ?? entry.productID,
            price: try price(entry.displayPrice, at: "\(path).displayPrice"),
            familyShareable: entry.familyShareable ?? entry.isFamilyShareable ?? false,
            localizations: localizations(entry.localizations),
            subscription: CatalogSubscription(
                groupID: group.id, groupName: group.name ?? group.id, level: entry.groupNumber ?? 1,
                period: period, introductoryOffer: introductory, promotionalOffers: promotional,
                codeOffers: codes, winBackOffers: winBacks))
    }

    /// The introductory offer: `introductoryOffer`, else (format 5.0, one per billing plan) the billed-up-front
    /// plan's entry of `introductoryOffers`, else its first; `nil` when there is none or its mode is `none`.
    private func introductoryOffer(of entry: StoreKitConfigurationFile.SubscriptionEntry,
                                   at path: String) throws(StoreError) -> CatalogOffer? {
        if let offer = entry.introductoryOffer {
            return try self.offer(offer, idKey: nil, at: "\(path).introductoryOffer")
        }
        let offers = entry.introductoryOffers ?? []
        guard let index = offers.firstIndex(where: { ($0.billingPlanType ?? "BILLED_UPFRONT") == "BILLED_UPFRONT" })
                ?? offers.indices.first else { return nil }
        return try self.offer(offers[index], idKey: nil, at: "\(path).introductoryOffers[\(index)]")
    }

    /// An offer code: its terms, identified by its reference name, and who may redeem it; `nil` when its mode is `none`.
    private func codeOffer(_ entry: StoreKitConfigurationFile.CodeOfferEntry, at path: String) throws(StoreError) -> CatalogCodeOffer? {
        guard let terms = try offer(.init(internalID: entry.internalID, offerID: entry.referenceName, referenceName: entry.referenceName,
                                          paymentMode: entry.paymentMode, subscriptionPeriod: entry.subscriptionPeriod,
                                          numberOfPeriods: entry.numberOfPeriods, displayPrice: entry.displayPrice),
                                    idKey: "referenceName", at: path) else { return nil }
        var eligibility: Set<OfferCodeEligibility> = []
        for (offset, name) in (entry.eligibility ?? []).enumerated() {
            guard let who = OfferCodeEligibility(rawValue: name) else {
                throw invalid("\(path).eligibility[\(offset)]", "unknown eligibility '\(name)'; known: new, existing, expired")
            }
            eligibility.insert(who)
        }
        guard !eligibility.isEmpty else { throw invalid("\(path).eligibility", "an offer code needs new, existing or expired") }
        return CatalogCodeOffer(terms: terms, eligibility: eligibility, isStackable: entry.isStackable ?? false)
    }

    /// A win-back offer: its terms, Xcode's `isEligible` and its eligibility rules, each a number of months within
    /// 0…120; `nil` when its mode is `none`.
    private func winBackOffer(_ entry: StoreKitConfigurationFile.WinBackOfferEntry, at path: String) throws(StoreError) -> CatalogWinBackOffer? {
        guard let terms = try offer(.init(internalID: entry.internalID, offerID: entry.offerID, referenceName: entry.referenceName,
                                          paymentMode: entry.paymentMode, subscriptionPeriod: entry.subscriptionPeriod,
                                          numberOfPeriods: entry.numberOfPeriods, displayPrice: entry.displayPrice),
                                    idKey: "offerID", at: path) else { return nil }
        func months(_ value: Int?, _ key: String) throws(StoreError) -> Int? {
            guard let value else { return nil }
            guard (0...CatalogWinBackOffer.maximumMonths).contains(value) else {
                throw invalid("\(path).\(key)", "\(value) is not a number of months within 0…\(CatalogWinBackOffer.maximumMonths)")
            }
            return value
        }
        let sinceKey = "customerEligibilityTimeSinceLastSubscribedInMonths"
        var since: ClosedRange<Int>?
        if let range = entry.customerEligibilityTimeSinceLastSubscribedInMonths {
            let minimum = try months(range.minimum, "\(sinceKey).minimum") ?? 0
            let maximum = try months(range.maximum, "\(sinceKey).maximum") ?? CatalogWinBackOffer.maximumMonths
            guard minimum <= maximum else { throw invalid("\(path).\(sinceKey)", "minimum \(minimum) is above maximum \(maximum)") }
            since = minimum...maximum
        }
        return CatalogWinBackOffer(
            terms: terms,
            isEligible: entry.isEligible,
            minimumPaidMonths: try months(entry.customerEligibilityPaidSubscriptionDurationInMonths,
                                          "customerEligibilityPaidSubscriptionDurationInMonths"),
            monthsSinceLastSubscribed: since,
            monthsBetweenOffers: try months(entry.customerEligibilityWaitBetweenOffersInMonths,
                                            "customerEligibilityWaitBetweenOffersInMonths"))
    }

    /// An offer's terms; `idKey` names the key its id comes from (`nil`: an introductory offer, which has none).
    /// `nil` for payment mode `none`, which Xcode writes for an offer whose type was never chosen: no offer.
    private func offer(_ entry: StoreKitConfigurationFile.OfferEntry, idKey: String?,
                       at path: String) throws(StoreError) -> CatalogOffer? {
        guard entry.paymentMode != "none" else { return nil }
        let mode: OfferPaymentMode = switch entry.paymentMode {
        case "free": .freeTrial
        case "payAsYouGo": .payAsYouGo
        case "payUpFront": .payUpFront
        default: throw invalid("\(path).paymentMode", "unknown payment mode '\(entry.paymentMode)'")
        }
        guard let period = StoreSubscriptionPeriod(iso8601: entry.subscriptionPeriod) else {
            throw invalid("\(path).subscriptionPeriod", "'\(entry.subscriptionPeriod)' is not a period like P3D or P1M")
        }
        let count = entry.numberOfPeriods ?? 1
        // Bounded: a charge's end is computed period by period, and App Store Connect's longest offers are a
        // few dozen periods; 120 leaves room without letting a typo stall the store.
        guard (1...120).contains(count) else { throw invalid("\(path).numberOfPeriods", "\(count) is not within 1…120") }
        // A paid offer whose price was left empty (Xcode writes "") charges nothing per period and keeps its mode.
        let price: Decimal = if mode == .freeTrial || entry.displayPrice?.trimmingWhitespace.isEmpty == true {
            0
        } else {
            try self.price(entry.displayPrice ?? "", at: "\(path).displayPrice")
        }
        if let idKey, (entry.offerID ?? "").isEmpty {
            throw invalid("\(path).\(idKey)", "the offer needs an id here")
        }
        return CatalogOffer(id: idKey == nil ? nil : entry.offerID, paymentMode: mode, period: period,
                            periodCount: count, price: price)
    }

    private func localizations(_ entries: [StoreKitConfigurationFile.LocalizationEntry]?) -> [CatalogLocalization] {
        (entries ?? []).map {
            CatalogLocalization(locale: $0.locale ?? "en_US", displayName: $0.displayName ?? "",
                                description: $0.description ?? "")
        }
    }

    private func price(_ text: String, at path: String) throws(StoreError) -> Decimal {
        let trimmed = text.trimmingWhitespace
        let isPlainDecimal = !trimmed.isEmpty && trimmed.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
            && trimmed.filter { $0 == "." }.count <= 1
        guard isPlainDecimal, let value = Decimal(string: trimmed) else {
            throw invalid(path, "'\(text)' is not a price like 0.99")
        }
        return value
    }

    /// The key Xcode generated for signing promotional offers (Editor ▸ Subscription Offers Key), checked
    /// to be a usable P-256 key now rather than at the first offer.
    func promotionalOfferKey(_ entry: StoreKitConfigurationFile.OfferKeyPairEntry?) throws(StoreError) -> PromotionalOfferKey? {
        guard let entry else { return nil }
        guard !entry.id.isEmpty else { throw invalid(".subscriptionOffersKeyPair.id", "key id is empty") }
        do {
            _ = try PromotionalOfferSigner(privateKey: entry.privateKey, keyID: entry.id, bundleID: "")
        } catch {
            throw invalid(".subscriptionOffersKeyPair.privateKey", error.message)
        }
        return PromotionalOfferKey(id: entry.id, privateKey: entry.privateKey)
    }

    private mutating func claim(_ id: String, at path: String) throws(StoreError) {
        guard !id.isEmpty else { throw invalid("\(path).productID", "product id is empty") }
        if let first = seenIDs[id] {
            throw invalid("\(path).productID", "product id '\(id)' is already used at \(first)")
        }
        seenIDs[id] = path
    }

    private func invalid(_ path: String, _ reason: String) -> StoreError {
        StoreError(.invalidCatalog, "\(fileName): \(path): \(reason)")
    }
}
