import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport
import Testing

/// The locale control takes locale identifiers as Xcode's StoreKit configuration files write them (a
/// language, then an optional script and region), and refuses anything else without changing the setting.
@Suite struct LocaleIdentifierTests {
    let folder = TemporaryDirectory()

    func open() throws -> LocalStore {
        try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state)
    }

    @Test(arguments: ["en_US", "de", "de-DE", "zh_Hans_CN", "zh-Hant-TW", "es_419", "fil_PH", "sr_Latn"])
    func wellFormedLocalesAreTaken(_ locale: String) throws {
        let store = try open()
        defer { store.close() }
        try store.setLocale(locale)
        #expect(try store.currentSettings().locale == locale)
    }

    @Test(arguments: ["<script>alert(1)</script>", "en US", "e", "english_US", "en_USA1", "en__US", "en_US_", "_US",
                      "en_Hans_CN_x", "de\u{0}DE", "en_\u{1F600}", String(repeating: "a", count: 64)])
    func malformedLocalesAreRefusedAndChangeNothing(_ locale: String) throws {
        let store = try open()
        defer { store.close() }
        try store.setLocale("de_DE")
        #expect(throws: StoreError.self) { try store.setLocale(locale) }
        do {
            try store.setLocale(locale)
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.message.contains("e.g. en_US"))
        }
        #expect(try store.currentSettings().locale == "de_DE")
    }
}
