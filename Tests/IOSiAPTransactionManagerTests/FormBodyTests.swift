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
}
