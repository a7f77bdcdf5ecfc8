// Writes Sources/IOSiAPLocalStore/Store/PriceFormatTable+Data.swift from this toolchain's ICU (through Foundation's
// NumberFormatter): how every locale ICU knows shows a price in every currency of an App Store storefront. Run by
// scripts/price-formats/generate.sh; Tests/IOSiAPLocalStoreTests/PriceFormatterTests.swift checks the table against
// NumberFormatter for all of them.
//
// usage: generate AppStoreStorefront.swift > PriceFormatTable+Data.swift (built with Sources/IOSiAPLocalStore/Store/PriceNumberShape.swift,
// the library's own rendering of the number)
import Foundation

func formatter(_ locale: String, _ currency: String) -> NumberFormatter {
    let formatter = NumberFormatter()
    formatter.numberStyle = .currency
    formatter.locale = Locale(identifier: locale)
    formatter.currencyCode = currency
    return formatter
}

let storefronts = try String(contentsOfFile: CommandLine.arguments[1], encoding: .utf8)
let currencies = Set(storefronts.matches(of: /\("\d+", "([A-Z]{3})"\)/).map { String($0.output.1) }).sorted()
precondition(currencies.count > 10, "no currencies found in \(CommandLine.arguments[1])")

let rounded = PriceNumberShape.rounded

let probes = ["1234567.25", "0.99", "1234", "12345", "0", "120.5", "99999.995", "0.125", "0.135", "2.5", "3.5"]

/// The number shape of `f` (a locale's currency format for one currency: some currencies have separators of their
/// own in some locales, as EUR in en_150).
func shape(of f: NumberFormatter, digits: [Character]) -> PriceNumberShape {
    var shape = PriceNumberShape(digits: digits, decimal: f.currencyDecimalSeparator, group: f.currencyGroupingSeparator,
                            primary: f.usesGroupingSeparator ? f.groupingSize : 0,
                            secondary: f.secondaryGroupingSize, minimumGrouping: 1)
    // ICU's minimum grouping digits (1 or 2) shows only in a number of primary + 1 digits: find which fits.
    for minimum in [1, 2, 3] {
        shape.minimumGrouping = minimum
        let text = String(repeating: "1", count: shape.primary + minimum)
        let formatted = f.string(from: NSDecimalNumber(string: text))!
        if formatted.contains(shape.render(text, fractionDigits: 0)) || formatted.contains(shape.render(text, fractionDigits: 2))
            || formatted.contains(shape.render(text, fractionDigits: 3)) {
            return shape
        }
    }
    fatalError("\(f.locale.identifier) \(f.currencyCode!): no minimum grouping fits")
}

/// One currency's format in one locale: a number shape and the text around the number.
struct Cell: Hashable {
    var shape: Int
    var affix: Int
}

var shapes: [PriceNumberShape] = []
var affixes: [String] = []
var cells: [Cell] = []
var rows: [[Int]] = []
var fractionDigits: [String: Int] = [:]

func index<T: Hashable>(_ value: T, in list: inout [T]) -> Int {
    if let found = list.firstIndex(of: value) { return found }
    list.append(value)
    return list.count - 1
}

/// The cells of `locale`, one per currency.
@MainActor func row(for locale: String) -> [Int] {
    let plain = NumberFormatter()
    plain.locale = Locale(identifier: locale)
    plain.numberStyle = .none
    let digits = (0...9).map { Character(plain.string(from: NSNumber(value: $0))!) }
    var row: [Int] = []
    for currency in currencies {
        let f = formatter(locale, currency)
        let numberShape = shape(of: f, digits: digits)
        // NumberFormatter's maximumFractionDigits does not follow the currency: read from what it shows.
        let shown = f.string(from: NSDecimalNumber(string: "1234567.25"))!
        guard let digits = [2, 0, 3].first(where: { shown.contains(numberShape.render(rounded("1234567.25", $0), fractionDigits: $0)) }) else {
            fatalError("\(locale) \(currency): '\(shown)' shows no number of fraction digits the table can hold")
        }
        precondition(fractionDigits[currency].map { $0 == digits } ?? true, "\(currency): fraction digits differ by locale")
        fractionDigits[currency] = digits
        var affix: (String, String)?
        for probe in probes {
            let expected = f.string(from: NSDecimalNumber(string: probe))!
            let number = numberShape.render(rounded(probe, digits), fractionDigits: digits)
            guard let range = expected.range(of: number), expected.ranges(of: number).count == 1 else {
                fatalError("\(locale) \(currency): '\(expected)' does not contain '\(number)' once")
            }
            let found = (String(expected[..<range.lowerBound]), String(expected[range.upperBound...]))
            if let affix { precondition(affix == found, "\(locale) \(currency): the affixes change with the value") }
            affix = found
        }
        let cell = Cell(shape: index(numberShape, in: &shapes), affix: index(affix!.0 + "\t" + affix!.1, in: &affixes))
        row.append(index(cell, in: &cells))
    }
    return row
}

/// What the library's lookup falls back to for an identifier the table lacks: the identifier without its last part,
/// then root.
func fallbackRow(_ identifier: String, _ table: [String: Int]) -> Int? {
    var parts = identifier.split(separator: "_").map(String.init)
    while !parts.isEmpty {
        if let row = table[parts.joined(separator: "_")] { return row }
        parts.removeLast()
    }
    return table["root"]
}

var table: [String: Int] = [:]
table["root"] = index(row(for: "root"), in: &rows)
let available = Locale.availableIdentifiers.sorted()
for identifier in available where identifier != "root" {
    table[identifier] = index(row(for: identifier), in: &rows)
}
// Identifiers ICU resolves through an alias or a likely script (zh_TW is zh_Hant_TW): kept where the fallback by
// truncation would show them otherwise.
for identifier in available {
    let parts = identifier.split(separator: "_")
    guard parts.count == 3, parts[1].count == 4 else { continue }
    let alias = "\(parts[0])_\(parts[2])"
    guard table[alias] == nil else { continue }
    let aliasRow = index(row(for: alias), in: &rows)
    if fallbackRow(alias, table) != aliasRow { table[alias] = aliasRow }
}

func escaped(_ text: String) -> String {
    text.unicodeScalars.map { scalar in
        switch scalar {
        case "\\": "\\\\"
        case "\"": "\\\""
        case "\t": "\\t"
        case " ": "\\u{20}"  // a space at a line's end would not survive an editor
        default: scalar.isASCII && scalar.value >= 0x20 ? String(scalar) : "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        }
    }.joined()
}

print("""
// Generated by scripts/price-formats/generate.sh from ICU \(available.count) locales' currency formats (through
// Foundation's NumberFormatter); do not edit. Tests/IOSiAPLocalStoreTests/PriceFormatterTests.swift checks it against
// NumberFormatter for every locale and currency.

extension PriceFormatTable {
    /// The currencies of the App Store's storefronts and how many fraction digits each shows.
    static let currencyText = \"\"\"
""")
print(currencies.map { "    \($0) \(fractionDigits[$0]!)" }.joined(separator: "\n"))
print("""
    \"\"\"

    /// Number shapes: the digits 0 to 9, the decimal and grouping separators, the primary and secondary grouping
    /// sizes and the minimum grouping digits, tab-separated.
    static let shapeText = \"\"\"
""")
print(shapes.map { shape in
    "    " + [String(shape.digits), shape.decimal, shape.group, "\(shape.primary)", "\(shape.secondary)", "\(shape.minimumGrouping)"]
        .map(escaped).joined(separator: "\\t")
}.joined(separator: "\n"))
print("""
    \"\"\"

    /// Text before and after the number, tab-separated.
    static let affixText = \"\"\"
""")
print(affixes.map { "    " + escaped($0) }.joined(separator: "\n"))
print("""
    \"\"\"

    /// Cells: a number shape and an affix pair, space-separated.
    static let cellText = \"\"\"
""")
print(cells.map { "    \($0.shape) \($0.affix)" }.joined(separator: "\n"))
print("""
    \"\"\"

    /// Rows: a cell for each currency in `currencyText`'s order, comma-separated.
    static let rowText = \"\"\"
""")
print(rows.map { "    " + $0.map(String.init).joined(separator: ",") }.joined(separator: "\n"))
print("""
    \"\"\"

    /// Locale identifiers and their rows.
    static let localeText = \"\"\"
""")
print(table.keys.sorted().map { "    \($0) \(table[$0]!)" }.joined(separator: "\n"))
print("""
    \"\"\"
}
""")
