// Imports nothing: scripts/price-formats/generate.sh compiles this file into the table's generator too.

/// How a locale writes the number of a price in one currency: its digits, its separators and its grouping (ICU's
/// rules, as the generated table records them).
struct PriceNumberShape: Hashable {
    /// The digits 0 to 9.
    var digits: [Character]
    var decimal: String
    var group: String
    /// The size of the group nearest the decimal separator (0: no grouping), and of the others (0: the same).
    var primary: Int
    var secondary: Int
    /// How many digits must stand before the first separator for the number to be grouped (ICU's minimum grouping
    /// digits: 2 writes 1234 but 12 345).
    var minimumGrouping: Int

    /// `text`, a non-negative number in plain ASCII digits with at most one "." and at most `fractionDigits` decimals
    /// (see `rounded`), in this shape with exactly `fractionDigits` decimals.
    func render(_ text: String, fractionDigits: Int) -> String {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = Array(parts[0])
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        fraction += String(repeating: "0", count: max(0, fractionDigits - fraction.count))
        var number: String
        if primary > 0, whole.count - primary >= minimumGrouping {
            var groups = [String(whole.suffix(primary))]
            var rest = whole.dropLast(primary)
            let size = secondary > 0 ? secondary : primary
            while !rest.isEmpty {
                groups.append(String(rest.suffix(size)))
                rest = rest.dropLast(size)
            }
            number = groups.reversed().joined(separator: group)
        } else {
            number = String(whole)
        }
        if fractionDigits > 0 { number += decimal + fraction.prefix(fractionDigits) }
        return String(number.map { character in character.wholeNumberValue.map { digits[$0] } ?? character })
    }

    /// `value` (plain ASCII digits, at most one ".") rounded half to even to `digits` decimals, as NumberFormatter
    /// rounds by default: "0.125" to 2 is "0.12", "0.135" is "0.14".
    static func rounded(_ value: String, _ digits: Int) -> String {
        let parts = value.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0].map { $0.wholeNumberValue ?? 0 }
        var fraction = parts.count > 1 ? parts[1].map { $0.wholeNumberValue ?? 0 } : []
        fraction += Array(repeating: 0, count: max(0, digits - fraction.count))
        let dropped = fraction[digits...]
        var kept = whole + fraction[..<digits]
        let first = dropped.first ?? 0
        let roundsUp = first > 5 || (first == 5 && (dropped.dropFirst().contains { $0 > 0 } || (kept.last ?? 0) % 2 == 1))
        if roundsUp {
            var index = kept.count - 1
            while index >= 0, kept[index] == 9 {
                kept[index] = 0
                index -= 1
            }
            if index >= 0 { kept[index] += 1 } else { kept.insert(1, at: 0) }
        }
        let wholeCount = kept.count - digits
        let text = kept[..<wholeCount].map(String.init).joined()
        return digits == 0 ? text : text + "." + kept[wholeCount...].map(String.init).joined()
    }
}
