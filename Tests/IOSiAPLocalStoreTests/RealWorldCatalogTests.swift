import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport
import Testing

/// The 40 real `.storekit` files and packages of `../shared/fixtures/realworld/storekit` (31 public repositories,
/// `PROVENANCE.md`): each loads, and its products, prices, offers, groups and settings are what the file says,
/// read here independently of the catalog reader; the one malformed file is refused naming its key path.
@Suite(.needsSharedFixtures) struct RealWorldCatalogTests {
    /// A file that lacks an introductory offer's `subscriptionPeriod`.
    static let malformed = "cisum-swiftui__Products.d6f0324.storekit"

    static var loadable: [String] { Fixtures.realWorldStoreKitNames.filter { $0 != malformed } }

    @Test func theFolderHoldsTheFortyFilesOfItsProvenance() {
        #expect(Fixtures.realWorldStoreKitNames.count == 40)
        #expect(Fixtures.realWorldStoreKitNames.contains(Self.malformed))
    }

    /// The scanner that locates a syntax error finds none in a file the decoder reads: it never points at text
    /// the decoder took.
    @Test(arguments: Fixtures.realWorldStoreKitNames)
    func theSyntaxScannerFindsNothingWrongInJSONTheDecoderReads(_ name: String) throws {
        var url = Fixtures.realWorldStoreKit(name)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            url.appendPathComponent("Configuration.storekit")
        }
        let data = try Data(contentsOf: url)
        struct AnyObject: Decodable {}
        #expect((try? JSONDecoder().decode(AnyObject.self, from: data)) != nil, "\(name)")
        #expect(JSONSyntax.firstProblem(in: data) == nil, "\(name)")
    }

    @Test(arguments: RealWorldCatalogTests.loadable)
    func loadsAsTheFileSays(_ name: String) throws {
        let url = Fixtures.realWorldStoreKit(name)
        let catalog = try Catalog.load(contentsOf: url)
        let file = try ExpectedCatalog(url)

        #expect(catalog.products.map(\.id) == file.products.map(\.id))
        #expect(catalog.products.count == file.products.count)
        #expect(catalog.products.filter { $0.type == .autoRenewable }.count == file.subscriptionCount)
        #expect(Set(catalog.products.compactMap(\.subscription?.groupID)) == file.groupIDs)
        for (product, expected) in zip(catalog.products, file.products) {
            #expect(product.type == expected.type, "\(product.id)")
            #expect(product.price == expected.price, "\(product.id)")
            #expect(product.familyShareable == expected.familyShareable, "\(product.id)")
            #expect(product.localizations.map(\.locale) == expected.locales, "\(product.id)")
            guard let subscription = expected.subscription else {
                #expect(product.subscription == nil)
                continue
            }
            let actual = try #require(product.subscription, "\(product.id)")
            #expect(actual.groupID == subscription.groupID, "\(product.id)")
            #expect(actual.groupName == subscription.groupName, "\(product.id)")
            #expect(actual.level == subscription.level, "\(product.id)")
            #expect(actual.period == subscription.period, "\(product.id)")
            #expect(actual.introductoryOffer.map(OfferTerms.init) == subscription.introductoryOffer, "\(product.id)")
            #expect(actual.promotionalOffers.map(OfferTerms.init) == subscription.promotionalOffers, "\(product.id)")
            #expect(actual.codeOffers.map { OfferTerms($0.terms) } == subscription.codeOffers, "\(product.id)")
            #expect(actual.winBackOffers.map { OfferTerms($0.terms) } == subscription.winBackOffers, "\(product.id)")
            #expect(actual.winBackOffers.map(\.isEligible) == subscription.winBackEligibility, "\(product.id)")
        }
        #expect(catalog.formatVersion == file.version)
        #expect(catalog.promotionalOfferKey?.id == file.offerKeyID)
        #expect(catalog.settings.storefront.code == file.storefront ?? "USA")
        #expect(catalog.settings.timeRate.rawValue == file.timeRate ?? 0)
        #expect(catalog.settings.locale == file.locale ?? "en_US")
    }

    @Test func theFileWithoutAnIntroductoryOffersPeriodIsRefusedNamingTheKeyPath() {
        let error = #expect(throws: StoreError.self) { try Catalog.load(contentsOf: Fixtures.realWorldStoreKit(Self.malformed)) }
        #expect(error?.code == .invalidCatalog)
        #expect(error?.message == "\(Self.malformed): .subscriptionGroups[0].subscriptions[1].introductoryOffer.subscriptionPeriod: "
                + "required key is missing")
    }

    // MARK: - What issue 25 found in these files

    /// adapty-ios: a pay-as-you-go introductory offer whose price was left empty.
    @Test func anIntroductoryOfferWithAnEmptyPriceLoadsAsChargingNothing() throws {
        let catalog = try Catalog.load(contentsOf: Fixtures.realWorldStoreKit("adapty-ios__UIKit_StoreKitConfiguration.d9073e2.storekit"))
        let yearly = try #require(catalog.product(id: "basic_subscription_1_year"))
        #expect(yearly.price == Decimal(string: "5.99"))
        let intro = try #require(yearly.subscription?.introductoryOffer)
        #expect(intro.paymentMode == .payAsYouGo && intro.price == 0 && intro.periodCount == 1)
        #expect(intro.period == StoreSubscriptionPeriod(value: 1, unit: .year))
    }

    /// chemsims: storefront Colombia, priced in pesos.
    @Test func theColombianStorefrontIsKnownWithItsCurrency() throws {
        let catalog = try Catalog.load(contentsOf: Fixtures.realWorldStoreKit("chemsims-chemistry__ColombiaConfig.storekit"))
        #expect(catalog.settings.storefront == AppStoreStorefront(code: "COL"))
        #expect(catalog.settings.storefront.id == "143501" && catalog.settings.storefront.currencyCode == "COP")
        #expect(catalog.settings.locale == "es_MX" && catalog.settings.timeRate == .oneSecondIsOneDay)
    }

    /// revenuecat-cordova, revenuecat-kmp, flutter-packages' Runner: win-back offers as Xcode writes them.
    @Test(arguments: [
        ("revenuecat-cordova__RevenueCatTest.storekit", "com.revenuecat.monthly_4.99", "winback.1m0"),
        ("revenuecat-cordova__RevenueCatTest.storekit", "com.revenuecat.monthly_4.99.1_week_intro", "winback.2m0"),
        ("revenuecat-kmp__SKConfig.storekit", "com.revenuecat.monthly_4.99", "winback1w0"),
        ("flutter-packages__in_app_purchase_storekit_Runner_Configuration.storekit", "subscription_silver",
         "subscription_silver_winback_offer"),
    ])
    func winBackOffersAsXcodeWritesThemCarryIsEligible(file: String, product: String, offer: String) throws {
        let catalog = try Catalog.load(contentsOf: Fixtures.realWorldStoreKit(file))
        let winBack = try #require(catalog.product(id: product)?.subscription?.winBackOffers.first { $0.terms.id == offer })
        #expect(winBack.isEligible == true)
        #expect(winBack.minimumPaidMonths == nil && winBack.monthsSinceLastSubscribed == nil && winBack.monthsBetweenOffers == nil)
    }

    @Test func flutterRunnersPayAsYouGoWinBackOfferHasItsPrice() throws {
        let catalog = try Catalog.load(contentsOf: Fixtures.realWorldStoreKit(
            "flutter-packages__in_app_purchase_storekit_Runner_Configuration.storekit"))
        let terms = try #require(catalog.product(id: "subscription_silver")?.subscription?.winBackOffers.first?.terms)
        #expect(terms.paymentMode == .payAsYouGo && terms.price == Decimal(string: "0.99") && terms.periodCount == 1)
        #expect(terms.period == StoreSubscriptionPeriod(value: 1, unit: .week))
    }

    /// revenuecat-kmp's app201bda4dab: three groups with one id, no `settings`.
    @Test func threeGroupsSharingOneIdAndNoSettingsLoad() throws {
        let catalog = try Catalog.load(contentsOf: Fixtures.realWorldStoreKit("revenuecat-kmp__app201bda4dab.storekit"))
        let subscriptions = catalog.products.compactMap(\.subscription)
        #expect(subscriptions.count == 11)
        #expect(Set(subscriptions.map(\.groupID)) == ["6306BD58"])
        #expect(Set(subscriptions.map(\.groupName)) == ["cat_paywalls", "pro_photo", "Paywalls Tester (App Store) Pro"])
        #expect(catalog.product(id: "photo_pro_yearly")?.subscription?.groupName == "pro_photo")
        #expect(catalog.settings == .defaults)
    }

    /// Format 5.0 (tiktok): billing plans, an introductory offer both as `introductoryOffer` and in
    /// `introductoryOffers`, and promotional offers with `billingPlanType`.
    @Test func billingPlansOfFormat5Load() throws {
        let catalog = try Catalog.load(contentsOf: Fixtures.realWorldStoreKit("tiktok-business-ios-sdk__StoreKitConfig.storekit"))
        #expect(catalog.formatVersion == "5.0")
        let subscription = try #require(catalog.product(id: "com.tiktok.TikTokBusinessSDKTestApp.ARSubscriptionPurchaseOne")?.subscription)
        #expect(subscription.introductoryOffer?.paymentMode == .payUpFront && subscription.introductoryOffer?.price == Decimal(string: "0.99"))
        #expect(subscription.promotionalOffers.compactMap(\.id) == ["test_ycq_promotional"])
    }

    @Test(arguments: [
        ("apple-skdemo-mirror__Products.storekit", TimeRate.monthlyRenewalEveryThirtySeconds),
        ("apphud-sdk__ApphudDemoSwift_StoreKit.storekit", .oneRenewalEveryFifteenMinutes),
        ("skhelper__SampleProducts.storekit", .oneRenewalEveryFiveMinutes),
        ("duckduckgo-ios__Subscription.storekit", .oneRenewalEveryMinute),
        ("superwall-ios__Superwall_Advanced-Products.storekit", .oneRenewalEveryThirtySeconds),
        ("pocket-casts-ios__Pocket_Casts_Configuration.storekit", .oneRenewalEveryTenSeconds),
    ])
    func timeRatesOf15And1000To1004Load(file: String, rate: TimeRate) throws {
        #expect(try Catalog.load(contentsOf: Fixtures.realWorldStoreKit(file)).settings.timeRate == rate)
    }

    /// storehelper and storehelperdemo: the integer `_storeKitError` of older files; synced files: a fractional
    /// or a whole `_lastSynchronizedDate`; cordova: two win-back offers with one `internalID`.
    @Test(arguments: [("storehelper__SampleProducts.storekit", "_storeKitError"),
                      ("storehelperdemo__Products.34b3ef7.storekit", "_storeKitError"),
                      ("itpassport__Products.storekit", "_lastSynchronizedDate"),
                      ("chengyu__Configuration-CN.storekit", "_lastSynchronizedDate"),
                      ("duckduckgo-ios__Subscription.storekit", "_lastSynchronizedDate")])
    func olderAndSyncedSettingsLoad(file: String, key: String) throws {
        let url = Fixtures.realWorldStoreKit(file)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        #expect((json["settings"] as? [String: Any])?[key] is NSNumber)
        #expect(throws: Never.self) { try Catalog.load(contentsOf: url) }
    }

    @Test func duplicateInternalIDsLoad() throws {
        let url = Fixtures.realWorldStoreKit("revenuecat-cordova__RevenueCatTest.storekit")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.components(separatedBy: "\"internalID\" : \"D11E21B6\"").count - 1 == 2)
        let catalog = try Catalog.load(contentsOf: url)
        #expect(catalog.products.compactMap(\.subscription).flatMap(\.winBackOffers).compactMap(\.terms.id) == ["winback.1m0", "winback.2m0"])
    }

    /// A `.storekit` package made here from a real file: the folder Xcode saves, `Configuration.storekit` beside
    /// `Assets/`, loads as the file does and is remembered by its folder.
    @Test func aPackageMadeFromARealFileLoadsAsTheFile() throws {
        let source = Fixtures.realWorldStoreKit("revenuecat-cordova__RevenueCatTest.storekit")
        let folder = TemporaryDirectory()
        let package = folder.url.appendingPathComponent("RevenueCatTest.storekit")
        try FileManager.default.createDirectory(at: package.appendingPathComponent("Assets/Promo.imageset"), withIntermediateDirectories: true)
        try Data(#"{"info":{"author":"xcode","version":1}}"#.utf8).write(to: package.appendingPathComponent("Assets/Contents.json"))
        try FileManager.default.copyItem(at: source, to: package.appendingPathComponent("Configuration.storekit"))
        let fromPackage = try Catalog.load(contentsOf: package)
        let fromFile = try Catalog.load(contentsOf: source)
        #expect(fromPackage.products == fromFile.products)
        #expect(fromPackage.settings == fromFile.settings)
        #expect(fromPackage.sourcePath == package.standardizedFileURL.path)
        // Linked into place (a project that keeps its configuration elsewhere), the package is still one.
        let link = folder.url.appendingPathComponent("Linked.storekit")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: package)
        #expect(try Catalog.load(contentsOf: link).products == fromFile.products)
    }
}

/// An offer's terms as compared here.
struct OfferTerms: Equatable, CustomStringConvertible {
    var id: String?
    var mode: OfferPaymentMode
    var period: StoreSubscriptionPeriod?
    var count: Int
    var price: Decimal

    init(id: String?, mode: OfferPaymentMode, period: StoreSubscriptionPeriod?, count: Int, price: Decimal) {
        (self.id, self.mode, self.period, self.count, self.price) = (id, mode, period, count, price)
    }

    init(_ offer: CatalogOffer) {
        self.init(id: offer.id, mode: offer.paymentMode, period: offer.period, count: offer.periodCount, price: offer.price)
    }

    var description: String { "\(id ?? "intro") \(mode) \(period?.iso8601 ?? "-")×\(count) \(price)" }
}

/// What a `.storekit` file says, read with JSONSerialization, independently of `Catalog`.
struct ExpectedCatalog {
    struct Subscription {
        var groupID: String
        var groupName: String
        var level: Int
        var period: StoreSubscriptionPeriod?
        var introductoryOffer: OfferTerms?
        var promotionalOffers: [OfferTerms]
        var codeOffers: [OfferTerms]
        var winBackOffers: [OfferTerms]
        var winBackEligibility: [Bool?]
    }

    struct Product {
        var id: String
        var type: ProductType
        var price: Decimal?
        var familyShareable: Bool
        var locales: [String]
        var subscription: Subscription?
    }

    var products: [Product] = []
    var subscriptionCount = 0
    var groupIDs: Set<String> = []
    var version: String?
    var offerKeyID: String?
    var storefront: String?
    var locale: String?
    var timeRate: Int?

    /// Reads the file at `url`, or a package's `Configuration.storekit`.
    init(_ url: URL) throws {
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
        let file = isFolder.boolValue ? url.appendingPathComponent("Configuration.storekit") : url
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        for entry in Self.list(json["products"]) + Self.list(json["nonRenewingSubscriptions"]) {
            products.append(Self.product(entry, type: try #require(Self.types[entry["type"] as? String ?? ""])))
        }
        for group in Self.list(json["subscriptionGroups"]) {
            let groupID = try #require(group["id"] as? String)
            for entry in Self.list(group["subscriptions"]) {
                var product = Self.product(entry, type: .autoRenewable)
                product.subscription = Subscription(
                    groupID: groupID, groupName: group["name"] as? String ?? groupID,
                    level: (entry["groupNumber"] as? NSNumber)?.intValue ?? 1,
                    period: (entry["recurringSubscriptionPeriod"] as? String).flatMap(StoreSubscriptionPeriod.init(iso8601:)),
                    introductoryOffer: Self.introductoryOffer(entry),
                    promotionalOffers: Self.list(entry["adHocOffers"]).compactMap { Self.offer($0, id: $0["offerID"]) },
                    codeOffers: Self.list(entry["codeOffers"]).compactMap { Self.offer($0, id: $0["referenceName"]) },
                    winBackOffers: Self.list(entry["winbackOffers"]).compactMap { Self.offer($0, id: $0["offerID"]) },
                    winBackEligibility: Self.list(entry["winbackOffers"]).filter { $0["paymentMode"] as? String != "none" }
                        .map { ($0["isEligible"] as? NSNumber)?.boolValue })
                products.append(product)
                subscriptionCount += 1
                groupIDs.insert(groupID)
            }
        }
        if let version = json["version"] as? [String: Any], let major = version["major"] as? NSNumber, let minor = version["minor"] as? NSNumber {
            self.version = "\(major).\(minor)"
        }
        offerKeyID = (json["subscriptionOffersKeyPair"] as? [String: Any])?["id"] as? String
        let settings = json["settings"] as? [String: Any] ?? [:]
        storefront = settings["_storefront"] as? String
        locale = (settings["_locale"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        timeRate = (settings["_timeRate"] as? NSNumber)?.intValue
    }

    static let types: [String: ProductType] = ["Consumable": .consumable, "NonConsumable": .nonConsumable,
                                               "NonRenewingSubscription": .nonRenewing]
    static let modes: [String: OfferPaymentMode] = ["free": .freeTrial, "payAsYouGo": .payAsYouGo, "payUpFront": .payUpFront]

    static func list(_ value: Any?) -> [[String: Any]] { value as? [[String: Any]] ?? [] }

    static func decimal(_ text: String) -> Decimal? { Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) }

    static func product(_ entry: [String: Any], type: ProductType) -> Product {
        Product(id: entry["productID"] as? String ?? "", type: type, price: decimal(entry["displayPrice"] as? String ?? ""),
                familyShareable: (entry["familyShareable"] as? NSNumber)?.boolValue ?? false,
                locales: list(entry["localizations"]).map { $0["locale"] as? String ?? "en_US" })
    }

    /// `introductoryOffer`, else the billed-up-front entry of `introductoryOffers`.
    static func introductoryOffer(_ entry: [String: Any]) -> OfferTerms? {
        if let offer = entry["introductoryOffer"] as? [String: Any] { return self.offer(offer, id: nil) }
        let offers = list(entry["introductoryOffers"])
        return (offers.first { ($0["billingPlanType"] as? String ?? "BILLED_UPFRONT") == "BILLED_UPFRONT" } ?? offers.first)
            .flatMap { offer($0, id: nil) }
    }

    /// An offer's terms; `nil` for payment mode `none`. A free offer, or one whose price is empty, costs nothing.
    static func offer(_ entry: [String: Any], id: Any?) -> OfferTerms? {
        guard let mode = modes[entry["paymentMode"] as? String ?? ""] else { return nil }
        let text = entry["displayPrice"] as? String ?? ""
        return OfferTerms(id: id as? String, mode: mode,
                          period: (entry["subscriptionPeriod"] as? String).flatMap(StoreSubscriptionPeriod.init(iso8601:)),
                          count: (entry["numberOfPeriods"] as? NSNumber)?.intValue ?? 1,
                          price: mode == .freeTrial || text.isEmpty ? 0 : decimal(text) ?? -1)
    }
}
