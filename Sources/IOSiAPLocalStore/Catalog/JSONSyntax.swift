#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a JSON text stops being JSON. Foundation's decoder says only that the data is not valid JSON; a tester
/// editing a `.storekit` file by hand wants the line and column of the slip (a missing comma, a stray quote) or,
/// for a file saved halfway, where it is cut short. It accepts what Foundation's decoder accepts and JSON does not
/// (a comma before a closing bracket, a control character inside a string) and leaves alone what the decoder checks
/// only in the values it decodes (escapes, the form of a number), so that it never points at text the decoder took.
package enum JSONSyntax {
    /// The first place `data` is not JSON: its line and column (from 1, in Unicode scalars: UTF-8 continuation
    /// bytes and a leading byte order mark do not count) and what is wrong there. `nil` when the scanner finds nothing
    /// wrong (the decoder then failed for another reason, such as text that is not UTF-8).
    package static func firstProblem(in data: Data) -> (line: Int, column: Int, problem: String)? {
        let bytes = [UInt8](data)
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var scanner = Scanner(bytes: bytes, index: start)
        guard let (index, problem) = scanner.firstProblem() else { return nil }
        var line = 1, column = 1
        for byte in bytes[start..<index] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column, problem)
    }

    static let cutShort = "the file ends before its JSON does (is it cut short?)"

    /// A single pass over the bytes with a stack of the open objects and arrays, not recursion: nesting as deep
    /// as a hostile file likes costs memory, never the stack.
    private struct Scanner {
        let bytes: [UInt8]
        var index: Int

        private enum Expecting { case value, valueOrClose, keyOrClose, colon, commaOrClose, end }

        mutating func firstProblem() -> (Int, String)? {
            var open: [UInt8] = []  // "{" or "[" for each container not yet closed
            var expecting = Expecting.value
            func afterValue() -> Expecting { open.isEmpty ? .end : .commaOrClose }
            while true {
                while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
                guard index < bytes.count else { return expecting == .end ? nil : (index, JSONSyntax.cutShort) }
                let byte = bytes[index]
                switch expecting {
                case .value, .valueOrClose:
                    if expecting == .valueOrClose, byte == UInt8(ascii: "]") {
                        open.removeLast()
                        index += 1
                        expecting = afterValue()
                    } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                        open.append(byte)
                        index += 1
                        expecting = byte == UInt8(ascii: "{") ? .keyOrClose : .valueOrClose
                    } else {
                        if let problem = scalar() { return problem }
                        expecting = afterValue()
                    }
                case .keyOrClose:
                    if byte == UInt8(ascii: "}") {
                        open.removeLast()
                        index += 1
                        expecting = afterValue()
                    } else if byte == UInt8(ascii: "\"") {
                        if let problem = string() { return problem }
                        expecting = .colon
                    } else {
                        return unexpected("where a key in quotes or '}' should be")
                    }
                case .colon:
                    guard byte == UInt8(ascii: ":") else { return unexpected("where ':' should be") }
                    index += 1
                    expecting = .value
                case .commaOrClose:
                    let object = open.last == UInt8(ascii: "{")
                    if byte == UInt8(ascii: ",") {
                        index += 1
                        expecting = object ? .keyOrClose : .valueOrClose
                    } else if byte == UInt8(ascii: object ? "}" : "]") {
                        open.removeLast()
                        index += 1
                        expecting = afterValue()
                    } else {
                        return unexpected(object ? "where ',' or '}' should be" : "where ',' or ']' should be")
                    }
                case .end:
                    return unexpected("after the end of the JSON")
                }
            }
        }

        /// A string, number, true, false or null at `index`.
        private mutating func scalar() -> (Int, String)? {
            switch bytes[index] {
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return unexpected("where a value should be")
            }
        }

        /// A string: up to its closing quote, an escaped character never closing it. What follows a '\\' is not
        /// checked: the decoder checks it only in a value it decodes, so a slip there may be no error to it.
        private mutating func string() -> (Int, String)? {
            index += 1  // the opening quote
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return nil
                }
                index += byte == UInt8(ascii: "\\") ? 2 : 1
            }
            return (bytes.count, JSONSyntax.cutShort)
        }

        /// A number: a run of what numbers are written with. Its form is not checked, for the same reason as a
        /// string's escapes.
        private mutating func number() -> (Int, String)? {
            let numberBytes = Array("0123456789+-.eE".utf8)
            while index < bytes.count, numberBytes.contains(bytes[index]) { index += 1 }
            return nil
        }

        private mutating func literal(_ word: String) -> (Int, String)? {
            for expected in word.utf8 {
                guard index < bytes.count else { return (index, JSONSyntax.cutShort) }
                guard bytes[index] == expected else { return unexpected("in '\(word)'") }
                index += 1
            }
            return nil
        }

        private func unexpected(_ context: String) -> (Int, String) {
            let byte = bytes[index]
            let shown = (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "a character"
            return (index, "unexpected \(shown) \(context)")
        }

    }
}
