/// An App Store storefront: its ISO 3166-1 alpha-3 code, Apple's numeric storefront id and its currency.
public struct AppStoreStorefront: Sendable, Equatable {
    /// The alpha-3 country code, e.g. `USA` (the `.storekit` `_storefront`).
    public let code: String
    /// Apple's numeric storefront id (the signed payload's `storefrontId`).
    public let id: String
    /// The ISO 4217 currency prices are in.
    public let currencyCode: String

    /// The storefront for an alpha-3 code, or `nil` when it is not an App Store storefront.
    public init?(code: String) {
        let upper = code.uppercased()
        let canonical = Self.aliases[upper] ?? upper
        guard let (id, currency) = Self.known[canonical] else { return nil }
        self.code = canonical
        self.id = id
        self.currencyCode = currency
    }

    /// The storefronts the local store can simulate: every App Store storefront.
    public static var knownCodes: [String] { known.keys.sorted() }

    /// Why `code` names no storefront, for every refusal of one (a list of all 175 would drown the message).
    static func unknownMessage(_ code: String) -> String {
        "unknown storefront '\(code)': not the alpha-3 code of one of the App Store's \(known.count) storefronts (USA, DEU, JPN, …)"
    }

    /// Kosovo: App Store Connect writes `XKS`; Apple's web code and many lists write `XKX`.
    private static let aliases = ["XKX": "XKS"]

    /// The 175 App Store storefronts (App Store Connect Help, "Manage availability for your app on the App Store":
    /// 175 countries or regions; the codes are the App Store Connect API's `TerritoryCode`s).
    ///
    /// Ids: the alpha-3 to storefront id table of Apple's MusicKit JS (js-cdn.music.apple.com/musickit), the same
    /// ids StoreKit's `Storefront.id` and the signed payloads' `storefrontId` carry (USA 143441, as Xcode signs).
    /// That table has 184 iTunes storefronts; the nine without the App Store (AND, BGD, CAF, ETH, GIN, LIE, MCO,
    /// PSE, WSM) are left out. The lists published with majd/ipatool (`pkg/appstore/storefront.go`, 133 entries)
    /// and facundoolano/app-store-scraper (`lib/constants.js`) agree with it wherever they overlap.
    ///
    /// Currencies: App Store Connect Help, "Financial report regions and currencies": a storefront with a region
    /// of its own is priced in its currency (COL: COP, KAZ: KZT), the euro region in EUR (with Croatia and, from
    /// 2026, Bulgaria), Latin America and the Caribbean and the rest of the world in USD.
    private static let known: [String: (String, String)] = [
        "AFG": ("143610", "USD"), "AGO": ("143564", "USD"), "AIA": ("143538", "USD"), "ALB": ("143575", "USD"),
        "ARE": ("143481", "AED"), "ARG": ("143505", "USD"), "ARM": ("143524", "USD"), "ATG": ("143540", "USD"),
        "AUS": ("143460", "AUD"), "AUT": ("143445", "EUR"), "AZE": ("143568", "USD"), "BEL": ("143446", "EUR"),
        "BEN": ("143576", "USD"), "BFA": ("143578", "USD"), "BGR": ("143526", "EUR"), "BHR": ("143559", "USD"),
        "BHS": ("143539", "USD"), "BIH": ("143612", "EUR"), "BLR": ("143565", "USD"), "BLZ": ("143555", "USD"),
        "BMU": ("143542", "USD"), "BOL": ("143556", "USD"), "BRA": ("143503", "BRL"), "BRB": ("143541", "USD"),
        "BRN": ("143560", "USD"), "BTN": ("143577", "USD"), "BWA": ("143525", "USD"), "CAN": ("143455", "CAD"),
        "CHE": ("143459", "CHF"), "CHL": ("143483", "CLP"), "CHN": ("143465", "CNY"), "CIV": ("143527", "USD"),
        "CMR": ("143574", "USD"), "COD": ("143613", "USD"), "COG": ("143582", "USD"), "COL": ("143501", "COP"),
        "CPV": ("143580", "USD"), "CRI": ("143495", "USD"), "CYM": ("143544", "USD"), "CYP": ("143557", "EUR"),
        "CZE": ("143489", "CZK"), "DEU": ("143443", "EUR"), "DMA": ("143545", "USD"), "DNK": ("143458", "DKK"),
        "DOM": ("143508", "USD"), "DZA": ("143563", "USD"), "ECU": ("143509", "USD"), "EGY": ("143516", "EGP"),
        "ESP": ("143454", "EUR"), "EST": ("143518", "EUR"), "FIN": ("143447", "EUR"), "FJI": ("143583", "USD"),
        "FRA": ("143442", "EUR"), "FSM": ("143591", "USD"), "GAB": ("143614", "USD"), "GBR": ("143444", "GBP"),
        "GEO": ("143615", "USD"), "GHA": ("143573", "USD"), "GMB": ("143584", "USD"), "GNB": ("143585", "USD"),
        "GRC": ("143448", "EUR"), "GRD": ("143546", "USD"), "GTM": ("143504", "USD"), "GUY": ("143553", "USD"),
        "HKG": ("143463", "HKD"), "HND": ("143510", "USD"), "HRV": ("143494", "EUR"), "HUN": ("143482", "HUF"),
        "IDN": ("143476", "IDR"), "IND": ("143467", "INR"), "IRL": ("143449", "EUR"), "IRQ": ("143617", "USD"),
        "ISL": ("143558", "USD"), "ISR": ("143491", "ILS"), "ITA": ("143450", "EUR"), "JAM": ("143511", "USD"),
        "JOR": ("143528", "USD"), "JPN": ("143462", "JPY"), "KAZ": ("143517", "KZT"), "KEN": ("143529", "USD"),
        "KGZ": ("143586", "USD"), "KHM": ("143579", "USD"), "KNA": ("143548", "USD"), "KOR": ("143466", "KRW"),
        "KWT": ("143493", "USD"), "LAO": ("143587", "USD"), "LBN": ("143497", "USD"), "LBR": ("143588", "USD"),
        "LBY": ("143567", "USD"), "LCA": ("143549", "USD"), "LKA": ("143486", "USD"), "LTU": ("143520", "EUR"),
        "LUX": ("143451", "EUR"), "LVA": ("143519", "EUR"), "MAC": ("143515", "USD"), "MAR": ("143620", "USD"),
        "MDA": ("143523", "USD"), "MDG": ("143531", "USD"), "MDV": ("143488", "USD"), "MEX": ("143468", "MXN"),
        "MKD": ("143530", "USD"), "MLI": ("143532", "USD"), "MLT": ("143521", "EUR"), "MMR": ("143570", "USD"),
        "MNE": ("143619", "EUR"), "MNG": ("143592", "USD"), "MOZ": ("143593", "USD"), "MRT": ("143590", "USD"),
        "MSR": ("143547", "USD"), "MUS": ("143533", "USD"), "MWI": ("143589", "USD"), "MYS": ("143473", "MYR"),
        "NAM": ("143594", "USD"), "NER": ("143534", "USD"), "NGA": ("143561", "NGN"), "NIC": ("143512", "USD"),
        "NLD": ("143452", "EUR"), "NOR": ("143457", "NOK"), "NPL": ("143484", "USD"), "NRU": ("143606", "USD"),
        "NZL": ("143461", "NZD"), "OMN": ("143562", "USD"), "PAK": ("143477", "PKR"), "PAN": ("143485", "USD"),
        "PER": ("143507", "PEN"), "PHL": ("143474", "PHP"), "PLW": ("143595", "USD"), "PNG": ("143597", "USD"),
        "POL": ("143478", "PLN"), "PRT": ("143453", "EUR"), "PRY": ("143513", "USD"), "QAT": ("143498", "QAR"),
        "ROU": ("143487", "RON"), "RUS": ("143469", "RUB"), "RWA": ("143621", "USD"), "SAU": ("143479", "SAR"),
        "SEN": ("143535", "USD"), "SGP": ("143464", "SGD"), "SLB": ("143601", "USD"), "SLE": ("143600", "USD"),
        "SLV": ("143506", "USD"), "SRB": ("143500", "EUR"), "STP": ("143598", "USD"), "SUR": ("143554", "USD"),
        "SVK": ("143496", "EUR"), "SVN": ("143499", "EUR"), "SWE": ("143456", "SEK"), "SWZ": ("143602", "USD"),
        "SYC": ("143599", "USD"), "TCA": ("143552", "USD"), "TCD": ("143581", "USD"), "THA": ("143475", "THB"),
        "TJK": ("143603", "USD"), "TKM": ("143604", "USD"), "TON": ("143608", "USD"), "TTO": ("143551", "USD"),
        "TUN": ("143536", "USD"), "TUR": ("143480", "TRY"), "TWN": ("143470", "TWD"), "TZA": ("143572", "TZS"),
        "UGA": ("143537", "USD"), "UKR": ("143492", "USD"), "URY": ("143514", "USD"), "USA": ("143441", "USD"),
        "UZB": ("143566", "USD"), "VCT": ("143550", "USD"), "VEN": ("143502", "USD"), "VGB": ("143543", "USD"),
        "VNM": ("143471", "VND"), "VUT": ("143609", "USD"), "XKS": ("143624", "USD"), "YEM": ("143571", "USD"),
        "ZAF": ("143472", "ZAR"), "ZMB": ("143622", "USD"), "ZWE": ("143605", "USD"),
    ]
}
