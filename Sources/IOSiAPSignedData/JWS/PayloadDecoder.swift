#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes a signed payload (a JSON object of strings, numbers, booleans, nulls and arrays) into its
/// `Decodable` model with less work than `JSONDecoder`, which took most of a verification's time outside
/// OpenSSL (callgrind: about a third fewer instructions per payload). It is strict: anything it is not sure to read exactly as `JSONDecoder` does (a number
/// with a fraction or an exponent for an integer field, a duplicate key, deep nesting, …) makes it give up,
/// and the caller decodes with `JSONDecoder` instead. A test compares the two on every fixture, and the JWS
/// fuzz target on every input.
package enum PayloadDecoder {
    /// Why the fast path gave up; never shown to a user (the caller falls back to `JSONDecoder`).
    package struct Unsupported: Error {}

    /// `type` decoded from the JSON `bytes`; throws `Unsupported` or the model's own `DecodingError`.
    package static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws -> Value {
        var parser = Parser(bytes: bytes)
        let value = try parser.document()
        return try Value(from: ValueDecoder(value: value))
    }

    // MARK: - Parsing

    /// A parsed JSON value. Numbers keep their text, read when the model asks for a type.
    indirect enum Value {
        case string(String)
        case number(Substring)
        case bool(Bool)
        case null
        case array([Value])
        /// Members in order; looked up by a linear search, which for the few dozen short keys of a payload
        /// costs less than hashing them into a dictionary.
        case object([(key: String, value: Value)])
    }

    struct Parser {
        let bytes: [UInt8]
        var index = 0
        var depth = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func document() throws -> Value {
            let value = try self.value()
            skipSpace()
            guard index == bytes.count else { throw Unsupported() }
            return value
        }

        private mutating func value() throws -> Value {
            skipSpace()
            guard index < bytes.count else { throw Unsupported() }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try object()
            case UInt8(ascii: "["): return try array()
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            default: return try number()
            }
        }

        private mutating func object() throws -> Value {
            try enter()
            defer { depth -= 1 }
            index += 1
            var members: [(key: String, value: Value)] = []
            skipSpace()
            if try consume(UInt8(ascii: "}")) { return .object(members) }
            repeat {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Unsupported() }
                let key = try string()
                skipSpace()
                guard try consume(UInt8(ascii: ":")) else { throw Unsupported() }
                let member = try value()
                // A duplicate key, or more keys than a payload has: JSONDecoder's to judge.
                guard members.count < 256, !members.contains(where: { $0.key == key }) else { throw Unsupported() }
                members.append((key, member))
                skipSpace()
            } while try consume(UInt8(ascii: ","))
            guard try consume(UInt8(ascii: "}")) else { throw Unsupported() }
            return .object(members)
        }

        private mutating func array() throws -> Value {
            try enter()
            defer { depth -= 1 }
            index += 1
            var elements: [Value] = []
            skipSpace()
            if try consume(UInt8(ascii: "]")) { return .array(elements) }
            repeat {
                elements.append(try value())
                skipSpace()
            } while try consume(UInt8(ascii: ","))
            guard try consume(UInt8(ascii: "]")) else { throw Unsupported() }
            return .array(elements)
        }

        /// A string without escapes is taken as it is; one with escapes is left to `JSONDecoder`, as are
        /// control characters and invalid UTF-8. Signed payloads have no escapes but `\/`, seldom.
        private mutating func string() throws -> String {
            index += 1
            let start = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    defer { index += 1 }
                    return try bytes[start..<index].withUnsafeBufferPointer { buffer in
                        guard let text = String(validating: buffer, as: UTF8.self) else { throw Unsupported() }
                        return text
                    }
                }
                guard byte != UInt8(ascii: "\\"), byte >= 0x20 else { throw Unsupported() }
                index += 1
            }
            throw Unsupported()
        }

        /// The longest number text read here: signed payloads' numbers are at most about 20 characters (a
        /// date in milliseconds with a fraction); longer ones (hundreds of digits, which `JSONDecoder` may
        /// refuse as unrepresentable) are left to `JSONDecoder`.
        static let maximumNumberLength = 40

        /// An integer as JSON writes it (`-?(0|[1-9][0-9]*)`), optionally with a fraction; exponents and
        /// numbers over `maximumNumberLength` characters are left to `JSONDecoder`.
        private mutating func number() throws -> Value {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digitsStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            let digits = index - digitsStart
            guard digits > 0, digits == 1 || bytes[digitsStart] != UInt8(ascii: "0") else { throw Unsupported() }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                let fractionStart = index
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
                guard index > fractionStart else { throw Unsupported() }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") { throw Unsupported() }
            guard index - start <= Self.maximumNumberLength else { throw Unsupported() }
            return .number(Substring(decoding: bytes[start..<index], as: UTF8.self))
        }

        private mutating func literal(_ word: StaticString) throws {
            let length = word.utf8CodeUnitCount
            guard index + length <= bytes.count else { throw Unsupported() }
            let matches = word.withUTF8Buffer { expected in
                (0..<length).allSatisfy { bytes[index + $0] == expected[$0] }
            }
            guard matches else { throw Unsupported() }
            index += length
        }

        private mutating func enter() throws {
            depth += 1
            guard depth <= 16 else { throw Unsupported() }
        }

        private mutating func consume(_ byte: UInt8) throws -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        private func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }
    }

    // MARK: - Decoding

    /// The `Decoder` over one parsed value. Coding paths stay empty: the fast path never reports an error
    /// of its own (it gives up, and `JSONDecoder` reports), and building them cost as much as the rest.
    struct ValueDecoder: Decoder {
        let value: Value
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard case .object(let members) = value else { throw Unsupported() }
            return KeyedDecodingContainer(KeyedContainer<Key>(members: members))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard case .array(let elements) = value else { throw Unsupported() }
            return UnkeyedContainer(elements: elements)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            SingleValueContainer(value: value)
        }
    }

    /// Reads a value as one type, or gives up; shared by the three kinds of container.
    static func read<T: Decodable>(_ type: T.Type, from value: Value) throws -> T {
        switch value {
        case .string(let text):
            if type == String.self { return text as! T }
        case .bool(let flag):
            if type == Bool.self { return flag as! T }
        case .number(let text):
            if type == Double.self { return try number(Double(text)) as! T }
            if type == Int64.self { return try number(Int64(text)) as! T }
            if type == Int32.self { return try number(Int32(text)) as! T }
            if type == Int.self { return try number(Int(text)) as! T }
            // A negative or fractional text gives nil: JSONDecoder judges it (and refuses a negative).
            if type == UInt64.self { return try number(UInt64(text)) as! T }
        case .null:
            throw Unsupported()
        case .array, .object:
            break
        }
        // A primitive asked of the wrong kind of value: JSONDecoder's to judge. (Building it from this value
        // would ask this container for it again, forever.)
        if type == String.self || type == Bool.self || type == Double.self || type == Float.self
            || type is any FixedWidthInteger.Type {
            throw Unsupported()
        }
        // Another type built from this value, e.g. Milliseconds from a number, or [String].
        return try T(from: ValueDecoder(value: value))
    }

    private static func number<N>(_ value: N?) throws -> N {
        guard let value else { throw Unsupported() }
        return value
    }

    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [(key: String, value: Value)]
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { members.compactMap { Key(stringValue: $0.key) } }

        func contains(_ key: Key) -> Bool { lookUp(key) != nil }

        private func lookUp(_ key: Key) -> Value? {
            let name = key.stringValue
            return members.first { $0.key == name }?.value
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            if case .null = try member(key) { return true }
            return false
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try PayloadDecoder.read(type, from: try member(key))
        }

        // One lookup for an optional field, where the defaults would make three.
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(type, key) }
        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(type, key) }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(type, key) }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(type, key) }
        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try present(type, key) }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(type, key) }
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try present(type, key) }

        private func present<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
            guard let member = lookUp(key) else { return nil }
            if case .null = member { return nil }
            return try PayloadDecoder.read(type, from: member)
        }

        private func member(_ key: Key) throws -> Value {
            guard let member = lookUp(key) else { throw Unsupported() }
            return member
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try ValueDecoder(value: try member(key)).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try ValueDecoder(value: try member(key)).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { throw Unsupported() }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw Unsupported() }
    }

    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let elements: [Value]
        var codingPath: [any CodingKey] { [] }
        var currentIndex = 0

        init(elements: [Value]) {
            self.elements = elements
        }

        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd else { throw Unsupported() }
            guard case .null = elements[currentIndex] else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            guard !isAtEnd else { throw Unsupported() }
            let value = try PayloadDecoder.read(type, from: elements[currentIndex])
            currentIndex += 1
            return value
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            throw Unsupported()
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Unsupported() }
        mutating func superDecoder() throws -> any Decoder { throw Unsupported() }
    }

    struct SingleValueContainer: SingleValueDecodingContainer {
        let value: Value
        var codingPath: [any CodingKey] { [] }

        func decodeNil() -> Bool {
            if case .null = value { return true }
            return false
        }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try PayloadDecoder.read(type, from: value)
        }
    }
}
