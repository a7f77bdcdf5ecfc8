import Foundation
import IOSiAPCore
import Testing

/// The byte-level base64url codec against Foundation's base64 with the URL alphabet swapped in.
@Suite struct Base64URLTests {
    static func foundationBase64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test func everyLengthRoundTripsAndMatchesFoundation() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...130 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let encoded = Base64URL.encode(bytes)
            #expect(encoded == Self.foundationBase64URL(bytes), "length \(length)")
            #expect(Base64URL.decode(encoded) == bytes, "length \(length)")
        }
        #expect(Base64URL.encode(Array("\u{FB}\u{FF}".utf8)) == "w7vDvw")  // '-' and '_' never '+' or '/'
        #expect(Base64URL.decode("-_-_") == [0xFB, 0xFF, 0xBF])
    }

    @Test func textOutsideTheAlphabetOrOfAnImpossibleLengthIsRefused() {
        for bad in ["abc=", "ab+c", "ab/c", "a", "abcde", "ab c", "ab.c", "é"] {
            #expect(Base64URL.decode(bad) == nil, "\(bad)")
        }
        #expect(Base64URL.decode("") == [])
    }
}
