import Foundation
import IOSiAPCore
@testable import IOSiAPTransactionManager
import Testing

/// The page's form bodies: decoding, and what is refused.
@Suite struct FormBodyTests {
    @Test func formBodies() throws {
        #expect(try FormBody.parse(Array("a=1&b=x+y%20z&c&d=%C3%A9".utf8)) == ["a": "1", "b": "x y z", "c": "", "d": "é"])
        #expect(try FormBody.parse([]) == [:])
        for bad in ["a=%", "a=%4", "=1", "a=1&a=2", String(repeating: "x=1&", count: 33)] {
            #expect(throws: ControlInputError.self) { try FormBody.parse(Array(bad.utf8)) }
        }
    }

    /// Random bodies, weighted towards the bytes the parser looks at, either parse or are refused: never a trap.
    @Test func randomBodiesNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("%&=+aF0\u{80}\u{FF}".utf8) + [0, 0xC3, 0xA9, 0xFF]
        for _ in 0..<5_000 {
            let body = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                Bool.random(using: &generator) ? alphabet.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
            }
            if let fields = try? FormBody.parse(body) {
                #expect(fields.count <= FormBody.maximumFields)
            }
        }
    }
}
