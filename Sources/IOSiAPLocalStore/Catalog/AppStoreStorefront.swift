/// An App Store storefront: its ISO 3166-1 alpha-3 code, Apple's numeric storefront id and its currency.
public struct AppStoreStorefront: Sendable, Equatable {
    /// The alpha-3 country code, e.g. `USA` (the `.storekit` `_storefront`).
    public let code: String
    /// Apple's numeric storefront id (the signed payload's `storefrontId`).
    public let id: String
    /// The ISO 4217 currency prices are in.
    public let currencyCode: String

    /// The storefront for an alpha-3 code, or `nil` when the local store does not know it.
    public init?(code: String) {
        guard let (id, currency) = Self.known[code.uppercased()] else { return nil }
        self.code = code.uppercased()
        self.id = id
        self.currencyCode = currency
    }

    /// The storefronts the local store can simulate.
    public static var knownCodes: [String] { known.keys.sorted() }

    private static let known: [String: (String, String)] = [
        "USA": ("143441", "USD"), "FRA": ("143442", "EUR"), "DEU": ("143443", "EUR"), "GBR": ("143444", "GBP"),
        "AUT": ("143445", "EUR"), "BEL": ("143446", "EUR"), "FIN": ("143447", "EUR"), "GRC": ("143448", "EUR"),
        "IRL": ("143449", "EUR"), "ITA": ("143450", "EUR"), "LUX": ("143451", "EUR"), "NLD": ("143452", "EUR"),
        "PRT": ("143453", "EUR"), "ESP": ("143454", "EUR"), "CAN": ("143455", "CAD"), "SWE": ("143456", "SEK"),
        "NOR": ("143457", "NOK"), "DNK": ("143458", "DKK"), "CHE": ("143459", "CHF"), "AUS": ("143460", "AUD"),
        "NZL": ("143461", "NZD"), "JPN": ("143462", "JPY"), "CHN": ("143465", "CNY"), "KOR": ("143466", "KRW"),
        "IND": ("143467", "INR"), "MEX": ("143468", "MXN"), "BRA": ("143503", "BRL"),
    ]
}
