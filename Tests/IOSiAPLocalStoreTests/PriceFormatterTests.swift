import Foundation
import IOSiAPLocalStore
import Testing

@Suite struct PriceFormatterTests {
    @Test(arguments: [
        ("0.99", "USD", "en_US", "$0.99"),
        ("0.99", "EUR", "de_DE", "0,99\u{A0}€"),
        ("1.99", "EUR", "es_ES", "1,99\u{A0}€"),
        ("120", "JPY", "ja_JP", "¥120"),
        ("4.99", "GBP", "en_GB", "£4.99"),
        ("1299.5", "USD", "en_US", "$1,299.50"),
    ])
    func formatsForTheLocale(price: String, currency: String, locale: String, expected: String) throws {
        let value = try #require(Decimal(string: price))
        #expect(PriceFormatter.format(value, currencyCode: currency, locale: locale) == expected)
    }
}
