import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport
import Testing

@Suite struct CatalogTests {
    @Test(.needsSharedFixtures) func loadsAppleSampleVersion3() throws {
        let catalog = try Catalog.load(contentsOf: Fixtures.storeKitFile("apple-sample-backyard-birds_Misc_Store_v3.0.storekit"))
        #expect(catalog.formatVersion == "3.0")
        #expect(catalog.products.count == 9)
        let pellets = try #require(catalog.product(id: "pellet.box"))
        #expect(pellets.type == .consumable)
        #expect(pellets.price == Decimal(string: "3.99"))
        let premium = try #require(catalog.product(id: "pass.premium"))
        #expect(premium.type == .autoRenewable)
        #expect(premium.price == Decimal(string: "11.99"))
        let subscription = try #require(premium.subscription)
        #expect(subscription.groupID == "6F3A93AB")
        #expect(subscription.groupName == "Backyard Birds Pass")
        #expect(subscription.level == 1)
        #expect(subscription.period == StoreSubscriptionPeriod(value: 1, unit: .month))
        #expect(subscription.introductoryOffer?.paymentMode == .freeTrial)
        #expect(subscription.introductoryOffer?.period == StoreSubscriptionPeriod(value: 1, unit: .month))
        #expect(catalog.product(id: "pass.individual")?.subscription?.level == 3)
        #expect(catalog.settings.storefront.code == "USA")
        #expect(catalog.settings.locale == "en_US")
        #expect(catalog.settings.simulatedErrors.isEmpty)
    }

    @Test(.needsSharedFixtures) func loadsTheOldestFormat1_0() throws {
        let catalog = try Catalog.load(contentsOf: Fixtures.storeKitFile(
            "revenuecat-purchases-ios_IntegrationTests-PurchaseTester_Configuration_v1.0_minimal.storekit"))
        #expect(catalog.formatVersion == "1.0")
        #expect(catalog.identifier == nil)
        #expect(catalog.products.map(\.id) == ["lifetime", "com.revenuecat.monthly_4.99.1_week_intro",
                                              "com.revenuecat.annual_39.99.2_week_intro"])
        #expect(catalog.product(id: "lifetime")?.type == .nonConsumable)
        #expect(catalog.product(id: "lifetime")?.price == Decimal(string: "199.99"))
        let annual = try #require(catalog.product(id: "com.revenuecat.annual_39.99.2_week_intro")?.subscription)
        #expect(annual.period == StoreSubscriptionPeriod(value: 1, unit: .year))
        #expect(annual.introductoryOffer?.period == StoreSubscriptionPeriod(value: 2, unit: .week))
        #expect(annual.introductoryOffer?.periodCount == 1)
        #expect(catalog.settings == .defaults)
    }

    @Test(.needsSharedFixtures) func loadsVersion3WithOffersAndNonRenewingInProducts() throws {
        let catalog = try Catalog.load(contentsOf: Fixtures.storeKitFile(
            "revenuecat-purchases-ios_PurchaseTesterStoreKitConfiguration_v3.0_codeOffers.storekit"))
        #expect(catalog.product(id: "com.revenuecat.purchaseTester.archiveSub.1.20.99")?.type == .nonRenewing)
        #expect(catalog.product(id: "com.revenuecat.purchaseTester.archiveSub.1.20.99")?.price == Decimal(string: "20.99"))
        let p1 = try #require(catalog.product(id: "P1")?.subscription)
        #expect(p1.promotionalOffers.compactMap(\.id) == ["Deema_promo_offer_identifier_3", "deema_promo_offer_identifier",
                                                           "deema_promo2_offer_id"])
        let p2 = try #require(catalog.product(id: "P2")?.subscription?.introductoryOffer)
        #expect(p2.paymentMode == .payUpFront)
        #expect(p2.price == Decimal(string: "2.99"))
        #expect(p2.period == StoreSubscriptionPeriod(value: 2, unit: .month))
        let greenie = try #require(catalog.product(id: "greenie_annual"))
        #expect(greenie.localizations.map(\.locale) == ["en_GB"])
        #expect(greenie.localization(for: "en_US")?.locale == "en_GB")
        #expect(catalog.product(id: "demo2023_mv")?.localizations.isEmpty == true)
    }

    @Test(.needsSharedFixtures) func loadsTheNewestFormat5_0() throws {
        let catalog = try Catalog.load(contentsOf: Fixtures.storeKitFile("revenuecat-purchases-ios_UnitTestsConfiguration_v5.0.storekit"))
        #expect(catalog.formatVersion == "5.0")
        #expect(catalog.product(id: "com.revenuecat.consumable")?.price == Decimal(string: "1.49"))
        #expect(catalog.product(id: "com.revenuecat.non_renewable")?.type == .nonRenewing)
        let monthly = try #require(catalog.product(id: "com.revenuecat.monthly_4.99.1_week_intro"))
        #expect(monthly.localization(for: "en_US")?.displayName.isEmpty == false)
        let subscription = try #require(monthly.subscription)
        #expect(subscription.introductoryOffer?.period == StoreSubscriptionPeriod(value: 3, unit: .month))
        #expect(subscription.promotionalOffers.compactMap(\.id) == [
            "com.revenuecat.monthly_4.99.1_week_intro.year_discount",
            "com.revenuecat.monthly_4.99.1_week_intro.pay_as_you_go"])
        #expect(catalog.product(id: "com.revenuecat.annual_39.99_no_trial")?.subscription?.groupName == "subscription_group_2")
        #expect(catalog.settings.timeRate == .realTime)
        #expect(!catalog.settings.askToBuyEnabled)
    }

    @Test func loadsTheExampleCatalogWithItsLocalizations() throws {
        let catalog = try Catalog.load(contentsOf: Fixtures.exampleCatalog)
        #expect(catalog.products.map(\.type) == [.consumable, .nonConsumable, .nonRenewing, .autoRenewable, .autoRenewable])
        let coins = try #require(catalog.product(id: "com.iosiap.example.coins_100"))
        #expect(coins.localization(for: "de_DE")?.displayName == "100 Münzen")
        #expect(coins.localization(for: "ja_JP")?.displayName == "コイン100枚")
        let gold = try #require(catalog.product(id: "com.iosiap.example.club_gold_monthly")?.subscription)
        #expect(gold.level == 1)
        #expect(gold.introductoryOffer?.paymentMode == .freeTrial)
        #expect(catalog.product(id: "com.iosiap.example.club_silver_monthly")?.subscription?.level == 2)
    }

    @Test func settingsAreRead() throws {
        let json = """
            {"products": [], "settings": {"_askToBuyEnabled": true, "_failTransactionsEnabled": true,
             "_locale": "de_DE", "_storefront": "DEU", "_timeRate": 13, "_someFutureKey": [1, 2],
             "_storeKitErrors": [{"name": "Load Products", "enabled": true, "current": {"index": 2, "type": "generic"}},
                                 {"name": "App Store Sync", "enabled": false, "current": {"index": 4, "type": "generic"}},
                                 {"name": "Purchase", "enabled": true, "current": {"index": 2, "type": "purchase"}},
                                 {"name": "Some Future Sheet", "enabled": true, "current": null}]},
             "unknownTopLevel": {"x": 1}, "version": {"major": 4, "minor": 0}}
            """
        let settings = try Catalog(data: Data(json.utf8), fileName: "s.storekit").settings
        #expect(settings.askToBuyEnabled)
        #expect(settings.failTransactionsEnabled)
        #expect(settings.locale == "de_DE")
        #expect(settings.storefront.currencyCode == "EUR")
        #expect(settings.timeRate == .monthlyRenewalEveryFiveMinutes)
        #expect(settings.simulatedErrors == [.loadProducts: .storeUnreachable, .purchase: .paymentNotAllowed])
    }

    /// What Foundation's decoder takes beyond JSON (a comma before a closing bracket, a tab inside a string) is
    /// no syntax error to the scanner either.
    @Test func theSyntaxScannerTakesWhatTheDecoderTakes() throws {
        struct AnyObject: Decodable {}
        for text in ["{\"a\": [1, 2,],}", "{\"b\": \"tab\there\"}", "\u{FEFF}{\"c\": [-0.5e+3, true, false, null, \"\\u00e9\"]}\n"] {
            _ = try JSONDecoder().decode(AnyObject.self, from: Data(text.utf8))
            #expect(JSONSyntax.firstProblem(in: Data(text.utf8)) == nil, "\(text)")
        }
    }

    /// Slips inside values, which the decoder may not reach (it reads only the keys it knows): the scanner's own
    /// findings, line and column included.
    @Test func theSyntaxScannerPointsAtTheSlip() {
        let cases: [(String, Int, Int, String)] = [
            ("[-", 1, 3, "the file ends"),
            // An escape the decoder never reads is no error: the missing comma after it is.
            ("{\"a\": 1,\n \"note\": \"C:\\Games\",\n \"b\": 2\n \"c\": 3}", 4, 2, "unexpected '\"' where ',' or '}' should be"),
            ("[\"a\\\"]", 1, 7, "the file ends"),
            ("[nul", 1, 5, "the file ends"),
            ("{\"a\" 1}", 1, 6, "unexpected '1' where ':' should be"),
            ("{1: 2}", 1, 2, "unexpected '1' where a key in quotes or '}' should be"),
            ("[1]\n\n  ]", 3, 3, "unexpected ']' after the end of the JSON"),
            ("[\"é\", @]", 1, 7, "unexpected '@' where a value should be"),
        ]
        for (text, line, column, problem) in cases {
            let found = JSONSyntax.firstProblem(in: Data(text.utf8))
            #expect(found?.line == line && found?.column == column, "\(text): \(String(describing: found))")
            #expect(found?.problem.hasPrefix(problem) == true, "\(text): \(String(describing: found))")
        }
    }

    @Test(arguments: [
        ("{", "bad.storekit: line 1, column 2: not valid JSON: the file ends before its JSON does (is it cut short?)"),
        ("{\"products\": [\n  {\"productID\": \"a\", \"displ", "bad.storekit: line 2, column 28: not valid JSON: the file ends"),
        (#"{"products": [}"#, "bad.storekit: line 1, column 15: not valid JSON: unexpected '}' where a value should be"),
        // A slip in a file edited by hand: where it is, and what was found there.
        ("{\n  \"products\": [\n    {\"productID\": \"a\" \"type\": \"Consumable\"}\n  ]\n}",
         "bad.storekit: line 3, column 23: not valid JSON: unexpected '\"' where ',' or '}' should be"),
        ("{\"products\": [], \"settings\": {\"_locale\": \"de_DE}}", "bad.storekit: line 1, column 50: not valid JSON: the file ends"),
        ("{\"products\": [] \"settings\": {}}", "bad.storekit: line 1, column 17: not valid JSON: unexpected '\"' where ',' or '}' should be"),
        ("{\"products\": []} x", "bad.storekit: line 1, column 18: not valid JSON: unexpected 'x' after the end of the JSON"),
        ("{\"products\": [tru]}", "bad.storekit: line 1, column 18: not valid JSON: unexpected ']' in 'true'"),
        (String(repeating: "[", count: 100_000), "bad.storekit: line 1, column 100001: not valid JSON: the file ends"),
        ("\u{FEFF}{\"name\": \"Münzen €", "bad.storekit: line 1, column 19: not valid JSON: the file ends"),
        ("[]", "bad.storekit: .: expected"),
        (#"{"products": [{"displayPrice": "1", "type": "Consumable"}]}"#, "bad.storekit: .products[0].productID: required key is missing"),
        (#"{"products": [{"productID": "a", "displayPrice": 0.99, "type": "Consumable"}]}"#, "bad.storekit: .products[0].displayPrice: expected String"),
        (#"{"products": [{"productID": "a", "displayPrice": "abc", "type": "Consumable"}]}"#, "bad.storekit: .products[0].displayPrice: 'abc' is not a price"),
        (#"{"products": [{"productID": "a", "displayPrice": "-1", "type": "Consumable"}]}"#, "bad.storekit: .products[0].displayPrice: '-1' is not a price"),
        (#"{"products": [{"productID": "a", "displayPrice": "1", "type": "Gadget"}]}"#, "bad.storekit: .products[0].type: unknown product type 'Gadget'"),
        (#"{"products": [{"productID": "a", "displayPrice": "1", "type": "Consumable"}, {"productID": "a", "displayPrice": "1", "type": "NonConsumable"}]}"#,
         "bad.storekit: .products[1].productID: product id 'a' is already used at .products[0]"),
        (#"{"subscriptionGroups": [{"id": "G", "subscriptions": [{"productID": "s", "displayPrice": "1", "recurringSubscriptionPeriod": "monthly"}]}]}"#,
         "bad.storekit: .subscriptionGroups[0].subscriptions[0].recurringSubscriptionPeriod: 'monthly' is not a period"),
        (#"{"subscriptionGroups": [{"id": "G", "subscriptions": [{"productID": "s", "displayPrice": "1", "recurringSubscriptionPeriod": "P1M", "introductoryOffer": {"paymentMode": "gratis", "subscriptionPeriod": "P1W"}}]}]}"#,
         "bad.storekit: .subscriptionGroups[0].subscriptions[0].introductoryOffer.paymentMode: unknown payment mode 'gratis'"),
        (#"{"settings": {"_storefront": "XYZ"}}"#, "bad.storekit: .settings._storefront: unknown storefront 'XYZ'"),
        (#"{"settings": {"_timeRate": 7}}"#, "bad.storekit: .settings._timeRate: unknown time rate 7"),
        (#"{"settings": {"_locale": 5}}"#, "bad.storekit: .settings._locale: expected String"),
    ])
    func malformedFilesNameTheFileAndKeyPath(json: String, expected: String) {
        let error = #expect(throws: StoreError.self) { try Catalog(data: Data(json.utf8), fileName: "bad.storekit") }
        #expect(error?.code == .invalidCatalog)
        #expect(error?.message.hasPrefix(expected) == true, "\(error?.message ?? "")")
    }

    @Test func aMissingFileIsNotReadable() {
        let error = #expect(throws: StoreError.self) {
            try Catalog.load(contentsOf: URL(fileURLWithPath: "/nonexistent/Products.storekit"))
        }
        #expect(error?.code == .catalogNotReadable)
        #expect(error?.message.contains("/nonexistent/Products.storekit") == true)
    }

    @Test(.needsSharedFixtures) func truncatedFixturesFailCleanly() throws {
        let data = try Data(contentsOf: Fixtures.storeKitFile("revenuecat-purchases-ios_UnitTestsConfiguration_v5.0.storekit"))
        // Every length from 1 to just before the closing brace (the whole object without its newline is valid).
        for length in stride(from: 1, to: data.count - 1, by: 97) {
            let error = #expect(throws: StoreError.self) { try Catalog(data: data.prefix(length), fileName: "cut.storekit") }
            let lines = data.prefix(length).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
            #expect(error?.message.hasPrefix("cut.storekit: line \(lines), column ") == true, "\(error?.message ?? "")")
        }
    }
}
