#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a JSON text that was cut short ends. Foundation's decoder says only that the data is not valid JSON when
/// it ends early; a `.storekit` file saved halfway, or copied in part, is the usual cause, and a tester wants the
/// line it stops at.
enum JSONCutShort {
    /// The line and column (from 1, in characters: UTF-8 continuation bytes and a leading byte order mark do not
    /// count) just past the end of `data` when it ends inside a string or with an
    /// object or array still open; `nil` when its brackets close or do not match (any error in it is then of
    /// another kind).
    static func end(of data: Data) -> (line: Int, column: Int)? {
        var open: [UInt8] = []  // the closing bracket each open object or array waits for
        var inString = false, escaped = false
        var line = 1, column = 1
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        for byte in data.starts(with: bom) ? data.dropFirst(3) : data[...] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"): open.append(UInt8(ascii: "}"))
            case UInt8(ascii: "["): open.append(UInt8(ascii: "]"))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard open.popLast() == byte else { return nil }
            default: break
            }
        }
        return inString || !open.isEmpty ? (line, column) : nil
    }
}
