#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Formats prices the way the App Store shows them in a storefront: the storefront's currency, the user's
/// locale ("$0.99" in en_US, "0,99 €" in de_DE, "¥120" in ja_JP). The formats are ICU's, for every locale it
/// knows, from a table generated from it (`PriceFormatTable`), so that the library needs no ICU.
public enum PriceFormatter {
    /// `price` in `currencyCode`, formatted for `locale`, rounded half to even to the currency's decimals. A
    /// currency of no App Store storefront shows its code before the number, in the locale's way with USD's
    /// decimals; a negative price, a minus sign before it all (ICU places it otherwise in some locales); no
    /// number, "NaN".
    public static func format(_ price: Decimal, currencyCode: String, locale: String) -> String {
        guard !price.isNaN else { return "NaN" }
        if price < 0 { return "-" + format(-price, currencyCode: currencyCode, locale: locale) }
        let table = PriceFormatTable.shared
        guard let format = table.format(currencyCode: currencyCode, locale: locale) else {
            var dollars = table.format(currencyCode: "USD", locale: locale)!
            dollars.prefix = currencyCode + "\u{A0}"
            dollars.suffix = ""
            return render(price, dollars)
        }
        return render(price, format)
    }

    private static func render(_ price: Decimal, _ format: PriceFormatTable.Format) -> String {
        // Decimal's text is its exact value in plain ASCII digits, whatever the locale.
        let digits = PriceNumberShape.rounded("\(price)", format.fractionDigits)
        return format.prefix + format.shape.render(digits, fractionDigits: format.fractionDigits) + format.suffix
    }
}
