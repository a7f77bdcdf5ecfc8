import Foundation
import IOSiAPCore
import IOSiAPTestSupport
@testable import IOSiAPVerification
import Testing

/// The fast payload decoder reads exactly what JSONDecoder reads, or gives up.
@Suite struct PayloadDecoderTests {
    static func payload(of jws: String) throws -> [UInt8] {
        let segment = try #require(jws.split(separator: ".").dropFirst().first)
        return try #require(Base64URL.decode(segment))
    }

    /// `fixture`'s payload read by both decoders, which must agree; the fast one must not give up on it.
    static func bothRead<Payload: Decodable & Equatable>(_ type: Payload.Type, _ fixture: String) throws -> Payload {
        let bytes = try payload(of: try Fixtures.text(fixture))
        let fast = try PayloadDecoder.decode(type, from: bytes)
        #expect(fast == (try JSONDecoder().decode(type, from: Data(bytes))))
        return fast
    }

    @Test(.needsSharedFixtures, arguments: ["jws/xcode-signed-transaction.jws", "jws/mock-testchain-transactionInfo.jws"])
    func signedTransactionsDecodeAsJSONDecoderDecodesThem(_ fixture: String) throws {
        let fast = try Self.bothRead(SignedTransactionPayload.self, fixture)
        #expect(fast.environment != nil && fast.signedDate != nil)
    }

    @Test(.needsSharedFixtures, arguments: ["jws/xcode-signed-renewal-info.jws", "jws/mock-testchain-renewalInfo.jws"])
    func renewalInfosDecodeAsJSONDecoderDecodesThem(_ fixture: String) throws {
        let fast = try Self.bothRead(RenewalInfoPayload.self, fixture)
        #expect(fast.environment != nil && fast.signedDate != nil)
    }

    @Test(.needsSharedFixtures) func xcodesAppTransactionDecodesAsJSONDecoderDecodesIt() throws {
        // Its deviceVerification escapes '/' as \/, which the fast path leaves to JSONDecoder: without the
        // escapes, the fast path must read it, negative year-1 date included, as JSONDecoder does.
        let text = String(decoding: try Self.payload(of: try Fixtures.text("jws/xcode-signed-app-transaction.jws")), as: UTF8.self)
        let bytes = Array(text.replacingOccurrences(of: "\\/", with: "/").utf8)
        let fast = try PayloadDecoder.decode(AppTransactionPayload.self, from: bytes)
        #expect(fast == (try JSONDecoder().decode(AppTransactionPayload.self, from: Data(bytes))))
        #expect(fast.receiptType == "Xcode" && fast.originalPurchaseDate?.value == -62_135_769_600_000)
        // The App Store ids are read as UInt64 by the fast path too, and agree with JSONDecoder.
        let ids = Array(#"{"appAppleId":1234,"versionExternalIdentifier":18446744073709551615}"#.utf8)
        let decoded = try PayloadDecoder.decode(AppTransactionPayload.self, from: ids)
        #expect(decoded == (try JSONDecoder().decode(AppTransactionPayload.self, from: Data(ids))))
        #expect(decoded.appAppleId == 1234 && decoded.versionExternalIdentifier == .max)
    }

    @Test func everyFieldOfOurOwnPayloadsRoundTrips() throws {
        var payload = SignedTransactionPayload()
        payload.transactionId = "7"
        payload.productId = "com.example.gold"
        payload.quantity = 3
        payload.price = 9990
        payload.isUpgraded = false
        payload.offerType = 2
        payload.offerIdentifier = "winback"
        payload.expiresDate = Milliseconds(Date(timeIntervalSince1970: 1_767_225_600.5))
        payload.appAccountToken = "5f0e8d3a-1c2b-4d5e-8f90-a1b2c3d4e5f6"
        payload.storefront = "日本"  // not ASCII
        let bytes = Array(try JSONEncoder().encode(payload))
        #expect(try PayloadDecoder.decode(SignedTransactionPayload.self, from: bytes) == payload)
        var renewal = RenewalInfoPayload()
        renewal.eligibleWinBackOfferIds = ["a", "b"]
        renewal.isInBillingRetryPeriod = true
        renewal.expirationIntent = 2
        #expect(try PayloadDecoder.decode(RenewalInfoPayload.self, from: Array(try JSONEncoder().encode(renewal))) == renewal)
    }

    @Test func whatItIsNotSureOfItLeavesToJSONDecoder() {
        let unsure = [
            #"{"productId":"a\"b"}"#,          // an escape
            #"{"quantity":1e2}"#,               // an exponent
            #"{"quantity":1.5}"#,               // a fraction for an integer
            #"{"quantity":012}"#,               // a leading zero
            #"{"productId":"a","productId":"b"}"#,  // a duplicate key
            #"{"productId":"a"} x"#,            // trailing text
            #"{"productId":"a""#,               // cut short
            #"{"quantity":99999999999}"#,       // beyond Int32
            "{\"productId\":\"\u{1}\"}",        // a control character
            #"{"productId":null,"quantity":"3"}"#,  // a string for a number
            String(repeating: "[", count: 40) + String(repeating: "]", count: 40),
        ]
        for text in unsure {
            #expect(throws: (any Error).self, "\(text)") {
                try PayloadDecoder.decode(SignedTransactionPayload.self, from: Array(text.utf8))
            }
        }
        #expect(throws: (any Error).self) { try PayloadDecoder.decode(SignedTransactionPayload.self, from: [0x7B, 0xFF, 0x7D]) }
    }

    @Test func nullsAndUnknownFieldsAreReadAsJSONDecoderReadsThem() throws {
        let text = #"{"productId":null,"quantity":-4,"future":{"nested":[1,true,null,"x"]},"purchaseDate":1697.25}"#
        let fast = try PayloadDecoder.decode(SignedTransactionPayload.self, from: Array(text.utf8))
        #expect(fast == (try JSONDecoder().decode(SignedTransactionPayload.self, from: Data(text.utf8))))
        #expect(fast.productId == nil && fast.quantity == -4 && fast.purchaseDate?.value == 1697.25)
    }

    /// Hostile numbers in every numeric field: the fast path reads what JSONDecoder reads, or refuses.
    @Test func hostileNumbersGetJSONDecodersVerdictOrARefusal() throws {
        let numbers = ["-0", "0", "-0.0", "1e3", "1E-400", "1e400", "-1e400", "2147483647", "2147483648", "-2147483649",
                       "9223372036854775807", "9223372036854775808", "-9223372036854775809", String(repeating: "9", count: 300),
                       "0." + String(repeating: "0", count: 300) + "1", "1." + String(repeating: "5", count: 400),
                       "1767225600000.9999999999999999999", "253402300799999", "253402300800000", "4.9e-324", "1.7976931348623157e308",
                       "0." + String(repeating: "0", count: 400) + "600123"]  // found by FuzzPayload: JSONDecoder refuses it
        let transactionFields = ["quantity", "price", "revocationReason", "offerType", "revocationPercentage", "signedDate",
                                 "purchaseDate", "expiresDate"]
        let renewalFields = ["expirationIntent", "autoRenewStatus", "priceIncreaseStatus", "renewalPrice", "offerType",
                             "gracePeriodExpiresDate", "renewalDate"]
        func agree<Payload: Decodable & Equatable>(_ type: Payload.Type, _ text: String) {
            let bytes = Array(text.utf8)
            let slow = try? JSONDecoder().decode(type, from: Data(bytes))
            if let fast = try? PayloadDecoder.decode(type, from: bytes) {
                #expect(fast == slow, "\(text)")
            }
        }
        for number in numbers {
            for field in transactionFields { agree(SignedTransactionPayload.self, #"{"productId":"a","\#(field)":\#(number)}"#) }
            for field in renewalFields { agree(RenewalInfoPayload.self, #"{"productId":"a","\#(field)":\#(number)}"#) }
        }
    }
}
