/// The shape of a locale identifier as Xcode's StoreKit configuration files write one (`en_US`, `de`,
/// `zh_Hans_CN`; `-` is taken for `_`): a language of 2 or 3 letters, then an optional script of 4 letters,
/// then an optional region of 2 letters or 3 digits (Unicode's language identifiers, without variants).
enum LocaleIdentifier {
    /// Whether `text` has that shape. Anything else (spaces, markup, empty parts) is refused.
    static func isWellFormed(_ text: String) -> Bool {
        let parts = text.split(separator: "_", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "-", omittingEmptySubsequences: false) }
        guard (1...3).contains(parts.count), letters(parts[0], 2...3) else { return false }
        var rest = parts.dropFirst()
        if let script = rest.first, letters(script, 4...4) { rest = rest.dropFirst() }
        if let region = rest.first, letters(region, 2...2) || digits(region, 3) { rest = rest.dropFirst() }
        return rest.isEmpty
    }

    private static func letters(_ part: Substring, _ lengths: ClosedRange<Int>) -> Bool {
        lengths.contains(part.utf8.count) && part.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) }
    }

    private static func digits(_ part: Substring, _ length: Int) -> Bool {
        part.utf8.count == length && part.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
