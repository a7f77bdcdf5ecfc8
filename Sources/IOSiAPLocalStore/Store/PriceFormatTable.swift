/// How ICU shows a price in each App Store currency for each locale it knows, read from the generated text of
/// `PriceFormatTable+Data.swift` at first use: the library formats prices without ICU (tens of megabytes of data that
/// nothing else of a purchase needs).
struct PriceFormatTable: Sendable {
    /// One currency's format in one locale.
    struct Format: Sendable {
        var shape: PriceNumberShape
        var prefix: String
        var suffix: String
        var fractionDigits: Int
    }

    static let shared = PriceFormatTable()

    private let currencies: [String: (index: Int, fractionDigits: Int)]
    private let shapes: [PriceNumberShape]
    private let affixes: [(prefix: String, suffix: String)]
    private let cells: [(shape: Int, affix: Int)]
    private let rows: [[Int]]
    private let locales: [String: Int]

    private init() {
        func lines(_ text: String) -> [[Substring]] {
            text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        }
        func numbers(_ text: Substring, _ separator: Character) -> [Int] {
            text.split(separator: separator).map { Int($0)! }
        }
        var currencies: [String: (Int, Int)] = [:]
        for (index, line) in Self.currencyText.split(separator: "\n").enumerated() {
            let fields = line.split(separator: " ")
            currencies[String(fields[0])] = (index, Int(fields[1])!)
        }
        self.currencies = currencies
        shapes = lines(Self.shapeText).map { fields in
            PriceNumberShape(digits: Array(fields[0]), decimal: String(fields[1]), group: String(fields[2]), primary: Int(fields[3])!,
                             secondary: Int(fields[4])!, minimumGrouping: Int(fields[5])!)
        }
        affixes = lines(Self.affixText).map { (String($0[0]), String($0[1])) }
        cells = Self.cellText.split(separator: "\n").map { line in
            let fields = numbers(line, " ")
            return (fields[0], fields[1])
        }
        rows = Self.rowText.split(separator: "\n").map { numbers($0, ",") }
        var locales: [String: Int] = [:]
        for line in Self.localeText.split(separator: "\n") {
            let fields = line.split(separator: " ")
            locales[String(fields[0])] = Int(fields[1])!
        }
        self.locales = locales
    }

    /// The locale identifiers the table has rows for: ICU's, its root and the aliases it resolves differently.
    var localeIdentifiers: [String] { Array(locales.keys) }

    /// The format of `currencyCode` in `locale` (`en_US`, `de-DE`, `zh_Hant_TW`): the locale's own, or, for one ICU
    /// does not list, that of the locale without its last part (`de_US` is `de`'s), as ICU falls back; nil for a
    /// currency of no App Store storefront.
    func format(currencyCode: String, locale: String) -> Format? {
        guard let currency = currencies[currencyCode] else { return nil }
        var parts = Self.canonicalParts(of: locale)
        var row = locales["root"]!
        while !parts.isEmpty {
            if let found = locales[parts.joined(separator: "_")] {
                row = found
                break
            }
            parts.removeLast()
        }
        let cell = cells[rows[row][currency.index]]
        let affix = affixes[cell.affix]
        return Format(shape: shapes[cell.shape], prefix: affix.prefix, suffix: affix.suffix, fractionDigits: currency.fractionDigits)
    }

    /// `locale`'s parts as ICU writes them: the language in lower case, a script capitalised, a region in upper case.
    private static func canonicalParts(of locale: String) -> [String] {
        locale.split { $0 == "_" || $0 == "-" }.enumerated().map { index, part in
            if index == 0 { return part.lowercased() }
            if part.count == 4 { return part.prefix(1).uppercased() + part.dropFirst().lowercased() }
            return part.uppercased()
        }
    }
}
