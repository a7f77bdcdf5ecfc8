/// Finds which field of a JSON object made a decoder refuse it, for an error message that names it.
///
/// `JSONDecoder` refuses a number it cannot represent (`1e400`, a 300-digit integer, `2147483648` for an
/// `Int32`) as "not valid JSON", without saying where. This splits the object into its members (a lenient
/// scan: it only finds where each member starts and ends) and decodes it again without one numeric member
/// at a time: the first whose removal lets it decode is the one at fault. Members that are objects (a
/// notification's `data` or `summary`) are searched the same way, `maximumDepth` levels down; the field is
/// then named by its path, `data.status`. It runs only on the failure path, at most `maximumTries` decodes,
/// on payloads of at most `maximumPayloadLength` bytes.
enum RefusedFieldFinder {
    static let maximumTries = 64
    /// An App Store payload is one or two KiB.
    static let maximumPayloadLength = 8 * 1024
    /// How many levels of objects are searched: a notification's fields are one level down.
    static let maximumDepth = 2

    /// The path of the numeric member whose removal makes `decodes` succeed, if there is one.
    static func field(in bytes: [UInt8], decodes: ([UInt8]) -> Bool) -> String? {
        var tries = 0
        return field(in: bytes, depth: 0, tries: &tries, decodes: decodes)
    }

    private static func field(in bytes: [UInt8], depth: Int, tries: inout Int, decodes: ([UInt8]) -> Bool) -> String? {
        guard let members = members(of: bytes) else { return nil }
        /// The object with member `index` replaced by `replacement` (its whole text), or left out (nil).
        func object(replacing index: Int, with replacement: [UInt8]?) -> [UInt8] {
            var result: [UInt8] = [UInt8(ascii: "{")]
            for (other, kept) in members.enumerated() {
                let text = other == index ? replacement : Array(bytes[kept.range])
                guard let text else { continue }
                if result.count > 1 { result.append(UInt8(ascii: ",")) }
                result += text
            }
            result.append(UInt8(ascii: "}"))
            return result
        }
        for (index, member) in members.enumerated() {
            if member.isNumber {
                tries += 1
                if tries > maximumTries { return nil }
                if decodes(object(replacing: index, with: nil)) { return member.key }
            } else if member.isObject, depth < maximumDepth {
                let prefix = Array(bytes[member.range.lowerBound..<member.valueStart])
                let inner = field(in: Array(bytes[member.valueStart..<member.range.upperBound]), depth: depth + 1, tries: &tries) {
                    decodes(object(replacing: index, with: prefix + $0))
                }
                if let inner { return member.key + "." + inner }
                if tries > maximumTries { return nil }
            }
        }
        return nil
    }

    struct Member {
        var key: String
        /// From the key's opening quote to the end of the value.
        var range: Range<Int>
        /// Where the value starts.
        var valueStart: Int
        var isNumber: Bool
        var isObject: Bool
    }

    /// The top-level members of the object in `bytes`, or `nil` when it does not scan as one.
    static func members(of bytes: [UInt8]) -> [Member]? {
        var scanner = Scanner(bytes: bytes)
        scanner.skipSpace()
        guard scanner.consume(UInt8(ascii: "{")) else { return nil }
        var members: [Member] = []
        scanner.skipSpace()
        if scanner.consume(UInt8(ascii: "}")) { return members }
        repeat {
            scanner.skipSpace()
            let start = scanner.index
            guard let key = scanner.string() else { return nil }
            scanner.skipSpace()
            guard scanner.consume(UInt8(ascii: ":")) else { return nil }
            scanner.skipSpace()
            let valueStart = scanner.index
            let isNumber = scanner.peek.map { $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false
            let isObject = scanner.peek == UInt8(ascii: "{")
            guard scanner.skipValue(depth: 0) else { return nil }
            members.append(Member(key: key, range: start..<scanner.index, valueStart: valueStart, isNumber: isNumber, isObject: isObject))
            scanner.skipSpace()
        } while scanner.consume(UInt8(ascii: ","))
        return scanner.consume(UInt8(ascii: "}")) ? members : nil
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard peek == byte else { return false }
            index += 1
            return true
        }

        mutating func skipSpace() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        /// A string's text as it is written (escapes left as they are), after its closing quote.
        mutating func string() -> String? {
            guard consume(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while let byte = peek {
                if byte == UInt8(ascii: "\"") {
                    defer { index += 1 }
                    return String(decoding: bytes[start..<index], as: UTF8.self)
                }
                index += byte == UInt8(ascii: "\\") ? 2 : 1
            }
            return nil
        }

        mutating func skipValue(depth: Int) -> Bool {
            guard depth < 64, let byte = peek else { return false }
            switch byte {
            case UInt8(ascii: "\""):
                return string() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                index += 1
                skipSpace()
                if consume(close) { return true }
                repeat {
                    skipSpace()
                    if byte == UInt8(ascii: "{") {
                        guard string() != nil else { return false }
                        skipSpace()
                        guard consume(UInt8(ascii: ":")) else { return false }
                        skipSpace()
                    }
                    guard skipValue(depth: depth + 1) else { return false }
                    skipSpace()
                } while consume(UInt8(ascii: ","))
                return consume(close)
            default:
                // A number or a literal: up to the next delimiter.
                let start = index
                while let next = peek, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09].contains(next) {
                    index += 1
                }
                return index > start
            }
        }
    }
}
