import Foundation

/// An `application/x-www-form-urlencoded` body (what the page's forms send), decoded and checked: names and
/// values percent-decoded (`+` is a space) and valid UTF-8, at most `maximumFields` of them, no name twice.
enum FormBody {
    static let maximumFields = 32

    static func parse(_ body: [UInt8]) throws(ControlInputError) -> [String: String] {
        var fields: [String: String] = [:]
        guard !body.isEmpty else { return fields }
        let pairs = body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true)
        guard pairs.count <= maximumFields else { throw ControlInputError("the form has more than \(maximumFields) fields") }
        for pair in pairs {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = try decode(parts[0])
            let value = try parts.count > 1 ? decode(parts[1]) : ""
            guard !name.isEmpty else { throw ControlInputError("the form has a field without a name") }
            guard fields.updateValue(value, forKey: name) == nil else { throw ControlInputError("the form gives '\(name)' twice") }
        }
        return fields
    }

    /// Percent-decodes one name or value; a stray `%`, a bad hex digit or invalid UTF-8 is refused.
    private static func decode(_ encoded: ArraySlice<UInt8>) throws(ControlInputError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.count)
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let byte = encoded[index]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%") {
                guard index + 2 < encoded.endIndex,
                      let high = hex(encoded[index + 1]), let low = hex(encoded[index + 2]) else {
                    throw ControlInputError("the form is not valid URL encoding")
                }
                bytes.append(high << 4 | low)
                index += 2
            } else {
                bytes.append(byte)
            }
            index += 1
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw ControlInputError("the form is not valid UTF-8") }
        return text
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
