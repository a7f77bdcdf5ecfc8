import Foundation

/// Formats prices the way the App Store shows them in a storefront: the storefront's currency, the user's
/// locale ("$0.99" in en_US, "0,99 €" in de_DE, "¥120" in ja_JP).
public enum PriceFormatter {
    /// `price` in `currencyCode`, formatted for `locale`.
    public static func format(_ price: Decimal, currencyCode: String, locale: String) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.locale = Locale(identifier: locale)
        formatter.currencyCode = currencyCode
        return formatter.string(from: price as NSDecimalNumber) ?? "\(price) \(currencyCode)"
    }
}
