import Foundation
import IOSiAPCore
@testable import IOSiAPLocalStore
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// Every App Store storefront, with Apple's numeric id and its currency (issue 25, item 2), and prices shown
/// and signed in that currency.
@Suite struct AppStoreStorefrontTests {
    let folder = TemporaryDirectory()

    @Test func everyAppStoreStorefrontIsKnownOnceWithAnIdAndACurrency() throws {
        let codes = AppStoreStorefront.knownCodes
        #expect(codes.count == 175)
        let storefronts = try codes.map { try #require(AppStoreStorefront(code: $0)) }
        #expect(Set(storefronts.map(\.id)).count == 175)
        for storefront in storefronts {
            #expect(storefront.code.count == 3 && storefront.code.allSatisfy { $0.isASCII && $0.isUppercase }, "\(storefront.code)")
            #expect(storefront.id.count == 6 && ["1434", "1435", "1436"].contains(String(storefront.id.prefix(4))),
                    "\(storefront.code) \(storefront.id)")
            #expect(Locale.commonISOCurrencyCodes.contains(storefront.currencyCode), "\(storefront.code) \(storefront.currencyCode)")
        }
    }

    /// Ids as published (e.g. USA 143441, the id of Xcode's own signed transactions) and currencies as App Store
    /// Connect's financial report regions list them.
    @Test(arguments: [
        ("USA", "143441", "USD"), ("GBR", "143444", "GBP"), ("DEU", "143443", "EUR"), ("JPN", "143462", "JPY"),
        ("COL", "143501", "COP"), ("CHL", "143483", "CLP"), ("PER", "143507", "PEN"), ("KAZ", "143517", "KZT"),
        ("TZA", "143572", "TZS"), ("NGA", "143561", "NGN"), ("VNM", "143471", "VND"), ("EGY", "143516", "EGP"),
        ("HRV", "143494", "EUR"), ("BGR", "143526", "EUR"), ("SRB", "143500", "EUR"), ("MNE", "143619", "EUR"),
        ("CZE", "143489", "CZK"), ("HUN", "143482", "HUF"), ("ROU", "143487", "RON"), ("POL", "143478", "PLN"),
        ("ARG", "143505", "USD"), ("ISL", "143558", "USD"), ("AFG", "143610", "USD"), ("ZWE", "143605", "USD"),
    ])
    func aStorefrontHasItsIdAndCurrency(code: String, id: String, currency: String) throws {
        let storefront = try #require(AppStoreStorefront(code: code))
        #expect(storefront.id == id && storefront.currencyCode == currency)
        #expect(AppStoreStorefront(code: code.lowercased()) == storefront)
    }

    @Test func kosovoIsKnownByBothOfItsCodes() throws {
        let kosovo = try #require(AppStoreStorefront(code: "XKX"))
        #expect(kosovo == AppStoreStorefront(code: "XKS"))
        #expect(kosovo.code == "XKS" && kosovo.id == "143624")
    }

    @Test(arguments: ["XYZ", "US", "", "ANT", "ATA", "PRK", "USA "])
    func aCodeThatIsNoAppStoreStorefrontIsUnknown(code: String) {
        #expect(AppStoreStorefront(code: code) == nil)
    }

    @Test func aCatalogsUnknownStorefrontNamesTheKeyAndWhatIsWanted() {
        let error = #expect(throws: StoreError.self) {
            try Catalog(data: Data(#"{"settings": {"_storefront": "COLOMBIA"}}"#.utf8), fileName: "c.storekit")
        }
        #expect(error?.message == "c.storekit: .settings._storefront: unknown storefront 'COLOMBIA': not the alpha-3 code of one of "
                + "the App Store's 175 storefronts (USA, DEU, JPN, …)")
    }

    // MARK: - Prices in the storefront's currency

    static let colombia = """
        {"products": [{"productID": "coins", "displayPrice": "3900", "type": "Consumable",
                       "localizations": [{"locale": "es_MX", "displayName": "Monedas", "description": ""}]}],
         "settings": {"_storefront": "COL", "_locale": "es_CO"}}
        """

    @Test func colombianPricesAreShownInPesos() {
        #expect(PriceFormatter.format(3900, currencyCode: "COP", locale: "es_CO") == "$\u{A0}3.900")
        #expect(PriceFormatter.format(3900, currencyCode: "COP", locale: "en_US") == "COP\u{A0}3,900")
    }

    @Test func aProductInTheColombianStorefrontIsPricedAndSignedInPesos() async throws {
        let catalog = try Catalog(data: Data(Self.colombia.utf8), fileName: "colombia.storekit")
        let local = try LocalStore(catalog: catalog, stateDirectory: folder.state)
        let store = try PurchaseStore(backend: local, stateDirectory: folder.state)
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins"]))
        let coins = try #require(store.product(id: "coins"))
        #expect(coins.currencyCode == "COP" && coins.displayPrice == "$\u{A0}3.900")
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins"))
        guard case .purchased(_, let transaction) = events.last else { Issue.record("\(events)"); return }
        let payload = try local.makeVerifier().verifyTransaction(try #require(transaction.signedJWS))
        #expect(payload.storefront == "COL" && payload.storefrontId == "143501")
        #expect(payload.currency == "COP" && payload.price == 3_900_000)
    }

    @Test func anyAppStoreStorefrontCanBeChosenWhileTheStoreRuns() async throws {
        let catalog = try Catalog(data: Data(Self.colombia.utf8), fileName: "colombia.storekit")
        let local = try LocalStore(catalog: catalog, stateDirectory: folder.state)
        try local.setStorefront("KAZ")
        try local.setLocale("en_US")
        let coins = try #require(try await local.products(for: ["coins"]).first)
        #expect(coins.currencyCode == "KZT" && coins.displayPrice.contains("3,900"))
        #expect(try await local.storefront() == "KAZ")
    }
}
