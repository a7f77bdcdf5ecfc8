import Foundation
import IOSiAPCore
@testable import IOSiAPLocalStore
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// The shapes real `.storekit` files have beyond the ones Xcode's newest files show (issue 25, item 4), written
/// out here so that they are checked on every clone: an offer price left empty, payment mode `none`, format
/// 5.0's billing plans, older and synced settings, every time rate Xcode writes, groups sharing an id, and
/// `.storekit` packages.
@Suite struct CatalogShapeTests {
    let folder = TemporaryDirectory()

    /// A catalog of one yearly subscription (5.99) with `offers` spliced into it, and `settings`.
    static func subscription(_ offers: String, settings: String = "{}") -> String {
        """
        {"subscriptionGroups": [{"id": "G1", "name": "Club", "subscriptions": [{"productID": "club.yearly", "displayPrice": "5.99",
          "recurringSubscriptionPeriod": "P1Y", "groupNumber": 1, "type": "RecurringSubscription"\(offers.isEmpty ? "" : ", " + offers)}]}],
         "settings": \(settings), "version": {"major": 4, "minor": 0}}
        """
    }

    static func load(_ json: String) throws -> Catalog {
        try Catalog(data: Data(json.utf8), fileName: "shapes.storekit")
    }

    static func refusal(_ json: String) -> String? {
        do {
            _ = try load(json)
            return nil
        } catch let error as StoreError {
            return error.code == .invalidCatalog ? error.message : "\(error.code): \(error.message)"
        } catch {
            return "\(error)"
        }
    }

    // MARK: - An empty offer price (adapty-ios)

    @Test func anOfferWhosePriceWasLeftEmptyChargesNothingAndKeepsItsMode() throws {
        let catalog = try Self.load(Self.subscription("""
            "introductoryOffer": {"displayPrice": "", "internalID": "32524E3C", "numberOfPeriods": 1, "paymentMode": "payAsYouGo",
                                  "subscriptionPeriod": "P1Y"},
            "adHocOffers": [{"displayPrice": " ", "offerID": "back", "referenceName": "Back", "paymentMode": "payUpFront",
                             "subscriptionPeriod": "P1M"}]
            """))
        let subscription = try #require(catalog.product(id: "club.yearly")?.subscription)
        #expect(subscription.introductoryOffer?.paymentMode == .payAsYouGo && subscription.introductoryOffer?.price == 0)
        #expect(subscription.promotionalOffers.first?.paymentMode == .payUpFront && subscription.promotionalOffers.first?.price == 0)
    }

    @Test func aPaidOfferWithoutAPriceOrWithABadOneIsStillRefused() {
        #expect(Self.refusal(Self.subscription(#""introductoryOffer": {"paymentMode": "payUpFront", "subscriptionPeriod": "P1M"}"#))?
            .hasPrefix("shapes.storekit: .subscriptionGroups[0].subscriptions[0].introductoryOffer.displayPrice: '' is not a price") == true)
        #expect(Self.refusal(Self.subscription(
            #""introductoryOffer": {"paymentMode": "payAsYouGo", "subscriptionPeriod": "P1M", "displayPrice": "1,99"}"#))?
            .hasPrefix("shapes.storekit: .subscriptionGroups[0].subscriptions[0].introductoryOffer.displayPrice: '1,99'") == true)
    }

    /// What the local store does with it: the game sees the offer at 0 in its mode, and the signed transaction
    /// carries the introductory offer, pay as you go, at price 0; the renewal after it is charged 5.99.
    @Test func aPurchaseWithAnEmptyPricedIntroductoryOfferIsSignedAtZero() async throws {
        let catalog = try Self.load(Self.subscription(
            #""introductoryOffer": {"displayPrice": "", "numberOfPeriods": 1, "paymentMode": "payAsYouGo", "subscriptionPeriod": "P1W"}"#))
        let local = try LocalStore(catalog: catalog, stateDirectory: folder.state)
        let store = try PurchaseStore(backend: local, stateDirectory: folder.state)
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["club.yearly"]))
        let intro = try #require(store.product(id: "club.yearly")?.subscription?.introductoryOffer)
        #expect(intro.paymentMode == .payAsYouGo && intro.price == 0 && intro.displayPrice == "$0.00")
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "club.yearly"))
        guard case .purchased(_, let transaction) = events.last else { Issue.record("\(events)"); return }
        let payload = try local.makeVerifier().verifyTransaction(try #require(transaction.signedJWS))
        #expect(payload.offerType == 1 && payload.offerDiscountType == "PAY_AS_YOU_GO" && payload.offerPeriod == "P1W")
        #expect(payload.price == 0 && payload.currency == "USD")
        let renewal = try local.makeVerifier().verifyRenewalInfo(try #require(transaction.signedRenewalInfo))
        #expect(renewal.renewalPrice == 5990)
    }

    // MARK: - Payment mode none (cisum-swiftui)

    @Test func anOfferWhoseModeIsNoneIsNoOffer() throws {
        let catalog = try Self.load(Self.subscription("""
            "introductoryOffer": {"displayPrice": "0.99", "internalID": "86438374", "paymentMode": "none", "subscriptionPeriod": "P1W"},
            "adHocOffers": [{"offerID": "unset", "paymentMode": "none", "subscriptionPeriod": "P1M"},
                            {"offerID": "free_month", "paymentMode": "free", "subscriptionPeriod": "P1M"}],
            "codeOffers": [{"referenceName": "unset_code", "paymentMode": "none", "subscriptionPeriod": "P1M"}],
            "winbackOffers": [{"offerID": "unset_back", "paymentMode": "none", "subscriptionPeriod": "P1M", "isEligible": true}]
            """))
        let subscription = try #require(catalog.product(id: "club.yearly")?.subscription)
        #expect(subscription.introductoryOffer == nil)
        #expect(subscription.promotionalOffers.compactMap(\.id) == ["free_month"])
        #expect(subscription.codeOffers.isEmpty && subscription.winBackOffers.isEmpty)
    }

    @Test func anOfferWhoseModeIsNoneStillNeedsItsPeriodAsXcodeWritesIt() {
        #expect(Self.refusal(Self.subscription(#""introductoryOffer": {"displayPrice": "0.99", "paymentMode": "none"}"#))
                == "shapes.storekit: .subscriptionGroups[0].subscriptions[0].introductoryOffer.subscriptionPeriod: required key is missing")
        #expect(Self.refusal(Self.subscription(#""introductoryOffer": {"paymentMode": "nothing", "subscriptionPeriod": "P1M"}"#))?
            .contains("unknown payment mode 'nothing'") == true)
    }

    // MARK: - Billing plans (format 5.0)

    @Test func theBilledUpFrontPlansIntroductoryOfferIsTheOneSold() throws {
        let catalog = try Self.load(Self.subscription("""
            "billingPlans": [{"billingPlanType": "MONTHLY", "commitmentDisplayPrice": "6.00", "displayPrice": "0.5", "internalID": "8BCD7D45",
                              "isEnabled": true},
                             {"billingPlanType": "BILLED_UPFRONT", "commitmentDisplayPrice": "5.99", "displayPrice": "5.99",
                              "internalID": "1261786A", "isEnabled": true}],
            "introductoryOffers": [{"billingPlanType": "MONTHLY", "paymentMode": "free", "subscriptionPeriod": "P1M", "numberOfPeriods": 1},
                                   {"billingPlanType": "BILLED_UPFRONT", "paymentMode": "payUpFront", "displayPrice": "0.99",
                                    "subscriptionPeriod": "P3M", "numberOfPeriods": 1}]
            """))
        let product = try #require(catalog.product(id: "club.yearly"))
        #expect(product.price == Decimal(string: "5.99"))
        let intro = try #require(product.subscription?.introductoryOffer)
        #expect(intro.paymentMode == .payUpFront && intro.price == Decimal(string: "0.99")
                && intro.period == StoreSubscriptionPeriod(value: 3, unit: .month))
    }

    @Test func introductoryOffersWithoutAPlanGiveTheFirst() throws {
        let catalog = try Self.load(Self.subscription(
            #""introductoryOffers": [{"paymentMode": "free", "subscriptionPeriod": "P2W"}, {"paymentMode": "free", "subscriptionPeriod": "P1M"}]"#))
        #expect(catalog.product(id: "club.yearly")?.subscription?.introductoryOffer?.period == StoreSubscriptionPeriod(value: 2, unit: .week))
        let error = Self.refusal(Self.subscription(
            #""introductoryOffers": [{"billingPlanType": "BILLED_UPFRONT", "paymentMode": "gratis", "subscriptionPeriod": "P2W"}]"#))
        #expect(error?.hasPrefix("shapes.storekit: .subscriptionGroups[0].subscriptions[0].introductoryOffers[0].paymentMode") == true)
    }

    // MARK: - Settings of older and synced files

    @Test(arguments: [
        #"{"_storeKitError": 0, "_timeRate": 0, "_storefront": "USA", "_locale": "en_US"}"#,
        #"{"_storeKitError": 3}"#,
        #"{"_lastSynchronizedDate": 743722291.470198, "_applicationInternalID": "1552944963", "_developerTeamID": "8SXR2327BM"}"#,
        #"{"_lastSynchronizedDate": 0}"#,
        #"{"_lastSynchronizedDate": 748108800.0, "_compatibilityTimeRate": {"3": 6}, "_timeRate": 13}"#,
    ])
    func olderAndSyncedSettingsLoad(settings: String) throws {
        #expect(throws: Never.self) { try Self.load(Self.subscription("", settings: settings)) }
    }

    @Test func aFileWithoutSettingsHasTheDefaults() throws {
        let json = #"{"products": [{"productID": "coins", "displayPrice": "0.99", "type": "Consumable"}]}"#
        #expect(try Self.load(json).settings == .defaults)
    }

    /// `_timeRate`: the raw values of StoreKitTest's `SKTestSession.TimeRate`, 15 and 1000…1005 included.
    @Test(arguments: [0, 1, 2, 3, 4, 5, 6, 10, 11, 12, 13, 15, 1000, 1001, 1002, 1003, 1004, 1005])
    func everyTimeRateXcodeWritesLoads(rate: Int) throws {
        let catalog = try Self.load(Self.subscription("", settings: #"{"_timeRate": \#(rate)}"#))
        #expect(catalog.settings.timeRate.rawValue == rate)
    }

    @Test(arguments: [-1, 7, 14, 999, 1006, Int(Int32.max), Int.max])
    func anUnknownTimeRateIsRefused(rate: Int) {
        #expect(Self.refusal(Self.subscription("", settings: #"{"_timeRate": \#(rate)}"#))?
            .hasPrefix("shapes.storekit: .settings._timeRate: unknown time rate \(rate)") == true)
    }

    // MARK: - Groups and ids

    /// Three groups with one id (revenuecat-kmp): the store knows a group by its id, as StoreKit does; each product
    /// keeps its group's name. Duplicate `internalID`s are Xcode's business, not the store's.
    @Test func groupsSharingAnIdAndDuplicateInternalIDsLoad() throws {
        let json = """
            {"subscriptionGroups": [
              {"id": "6306BD58", "name": "cat_paywalls", "subscriptions": [{"productID": "a", "displayPrice": "1.99", "internalID": "D11E21B6",
               "recurringSubscriptionPeriod": "P1M", "groupNumber": 1}]},
              {"id": "6306BD58", "name": "pro_photo", "subscriptions": [{"productID": "b", "displayPrice": "2.99", "internalID": "D11E21B6",
               "recurringSubscriptionPeriod": "P1Y", "groupNumber": 1}]}]}
            """
        let catalog = try Self.load(json)
        #expect(catalog.products.compactMap(\.subscription?.groupID) == ["6306BD58", "6306BD58"])
        #expect(catalog.products.compactMap(\.subscription?.groupName) == ["cat_paywalls", "pro_photo"])
    }

    // MARK: - .storekit packages

    /// A folder holding `Configuration.storekit` and `Assets/`, as Xcode saves a configuration with images.
    func package(_ name: String, configuration: Data?) throws -> URL {
        let package = folder.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: package.appendingPathComponent("Assets"), withIntermediateDirectories: true)
        try Data(#"{"info":{"author":"xcode","version":1}}"#.utf8).write(to: package.appendingPathComponent("Assets/Contents.json"))
        if let configuration { try configuration.write(to: package.appendingPathComponent("Configuration.storekit")) }
        return package
    }

    @Test func aPackageLoadsFromItsFolderAndIsRememberedByIt() throws {
        let package = try package("Example.storekit", configuration: Data(contentsOf: Fixtures.exampleCatalog))
        let catalog = try Catalog.load(contentsOf: package)
        #expect(catalog.products == (try Catalog.load(contentsOf: Fixtures.exampleCatalog)).products)
        #expect(catalog.sourcePath == package.standardizedFileURL.path)

        let state = folder.url.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let local = try LocalStore(catalog: catalog, stateDirectory: StateDirectory(state))
        _ = local.updates()  // a game listens: the store remembers its catalog for the transaction manager
        local.close()
        let remembered = try #require(try LocalStore.remembered(in: StateDirectory(state)).catalogPath)
        #expect(try Catalog.load(contentsOf: URL(fileURLWithPath: remembered)).products == catalog.products)
    }

    @Test func aPackagesErrorsNameTheFileInside() throws {
        let broken = try package("Broken.storekit", configuration: Data(#"{"products": [{"productID": "a", "displayPrice": "x", "type": "Consumable"}]}"#.utf8))
        let invalid = #expect(throws: StoreError.self) { try Catalog.load(contentsOf: broken) }
        #expect(invalid?.code == .invalidCatalog
                && invalid?.message.hasPrefix("Broken.storekit/Configuration.storekit: .products[0].displayPrice") == true)

        let empty = try package("Empty.storekit", configuration: nil)
        let unreadable = #expect(throws: StoreError.self) { try Catalog.load(contentsOf: empty) }
        #expect(unreadable?.code == .catalogNotReadable && unreadable?.message.contains("has no readable Configuration.storekit") == true)
    }
}
