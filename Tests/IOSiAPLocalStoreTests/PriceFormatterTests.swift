import Foundation
@testable import IOSiAPLocalStore
import Testing

@Suite struct PriceFormatterTests {
    @Test(arguments: [
        ("0.99", "USD", "en_US", "$0.99"),
        ("0.99", "EUR", "de_DE", "0,99\u{A0}€"),
        ("1.99", "EUR", "es_ES", "1,99\u{A0}€"),
        ("120", "JPY", "ja_JP", "¥120"),
        ("4.99", "GBP", "en_GB", "£4.99"),
        ("1299.5", "USD", "en_US", "$1,299.50"),
        ("1234567.25", "EUR", "de_CH", "EUR\u{A0}1’234’567.25"),
        ("1234567.25", "EUR", "en_150", "1.234.567,25\u{A0}€"),
        ("1234567.25", "USD", "en_150", "1,234,567.25\u{A0}US$"),
        ("0.125", "USD", "en_US", "$0.12"),
        ("0.135", "USD", "en_US", "$0.14"),
        ("1.99", "EUR", "de-DE", "1,99\u{A0}€"),
        ("1.99", "EUR", "de_US", "1,99\u{A0}€"),
        ("5", "XYZ", "en_US", "XYZ\u{A0}5.00"),
        ("-1.99", "USD", "en_US", "-$1.99"),
        ("NaN", "USD", "en_US", "NaN"),
    ])
    func formatsForTheLocale(price: String, currency: String, locale: String, expected: String) throws {
        let value = price == "NaN" ? Decimal.nan : try #require(Decimal(string: price))
        #expect(PriceFormatter.format(value, currencyCode: currency, locale: locale) == expected)
    }

    /// The table shows every App Store currency in every locale ICU knows (and the aliases the table keeps, as
    /// zh_TW) as ICU itself does (through Foundation's NumberFormatter, which the library does not link):
    /// regenerate it (scripts/price-formats/generate.sh) when this fails after a toolchain update.
    @Test func everyLocaleICUKnowsShowsEveryCurrencyAsICUDoes() throws {
        let currencies = Set(AppStoreStorefront.knownCodes.compactMap { AppStoreStorefront(code: $0)?.currencyCode }).sorted()
        let prices = ["0.99", "1234567.25", "0.125", "12345", "99999.995"].map { Decimal(string: $0)! }
        var checked = 0
        var differences: [String] = []
        let locales = Set(Locale.availableIdentifiers).union(PriceFormatTable.shared.localeIdentifiers)
        for locale in locales {
            for currency in currencies {
                let formatter = NumberFormatter()
                formatter.numberStyle = .currency
                formatter.locale = Locale(identifier: locale)
                formatter.currencyCode = currency
                for price in prices {
                    let expected = formatter.string(from: price as NSDecimalNumber)
                    let shown = PriceFormatter.format(price, currencyCode: currency, locale: locale)
                    if shown != expected, differences.count < 10 { differences.append("\(locale) \(currency) \(price): \(shown) ≠ \(expected ?? "nil")") }
                    checked += 1
                }
            }
        }
        #expect(differences.isEmpty, "\(differences)")
        #expect(Locale.availableIdentifiers.count > 1000 && currencies.count > 40)
        #expect(checked == locales.count * currencies.count * prices.count)
    }
}
