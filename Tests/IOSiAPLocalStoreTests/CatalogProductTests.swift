import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import Testing

@Suite struct CatalogProductTests {
    func product(locales: [String]) throws -> CatalogProduct {
        let localizations = locales.map { #"{"locale": "\#($0)", "displayName": "title \#($0)", "description": ""}"# }
        let json = #"{"products": [{"productID": "p", "displayPrice": "1", "type": "Consumable", "localizations": [\#(localizations.joined(separator: ","))]}]}"#
        return try #require(try Catalog(data: Data(json.utf8), fileName: "l.storekit").product(id: "p"))
    }

    @Test func picksTheExactLocaleThenTheLanguageThenEnglish() throws {
        let item = try product(locales: ["en_GB", "en_US", "de_DE", "fr"])
        #expect(item.localization(for: "de_DE")?.locale == "de_DE")
        #expect(item.localization(for: "de-AT")?.locale == "de_DE")
        #expect(item.localization(for: "fr_CA")?.locale == "fr")
        #expect(item.localization(for: "ja_JP")?.locale == "en_US")
        #expect(item.localization(for: "en_AU")?.locale == "en_GB")
    }

    @Test func fallsBackToAnyLocalization() throws {
        #expect(try product(locales: ["ko_KR"]).localization(for: "ja_JP")?.locale == "ko_KR")
        #expect(try product(locales: []).localization(for: "ja_JP") == nil)
    }
}
