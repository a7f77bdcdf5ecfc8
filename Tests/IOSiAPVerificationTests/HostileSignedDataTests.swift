import Foundation
import IOSiAPCore
@testable import IOSiAPVerification
import IOSiAPTestSupport
import Testing

/// Signed data made by someone hostile, with a genuine signature over it: numbers out of every range,
/// chains of the wrong shape. Each is refused with a clear error naming what is wrong, never a trap.
@Suite struct HostileSignedDataTests {
    static let bundleID = "com.iosiap.tests"
    /// Inside the test chain's validity, which starts a day ago.
    static let now = String(Int64(Date().timeIntervalSince1970 * 1000))
    let chain: SigningChain

    init() throws {
        chain = try SigningChain.create()
    }

    /// A transaction payload whose `field` holds `number` written as it is, the rest genuine.
    func transactionJSON(_ field: String, _ number: String) -> String {
        var fields = [
            "transactionId": "\"42\"", "originalTransactionId": "\"42\"", "bundleId": "\"\(Self.bundleID)\"",
            "productId": "\"coins\"", "type": "\"Consumable\"", "quantity": "3", "environment": "\"Sandbox\"",
            "signedDate": Self.now, "purchaseDate": Self.now,
        ]
        fields[field] = number
        return "{" + fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
    }

    func verifier(_ date: SignedDataVerifier.ValidationDate = .signedDate) throws -> SignedDataVerifier {
        try SignedDataVerifier(trustedRoots: [chain.root.der], bundleID: Self.bundleID, environment: .sandbox, validationDate: date)
    }

    /// What `body` threw: a `StoreError`, or `nil` when it did not throw one.
    func error(_ body: () throws -> Void) -> StoreError? {
        do { try body(); return nil } catch { return error as? StoreError }
    }

    static let hostileDates = [
        "10000000000000000000000", "1e22", String(repeating: "9", count: 400), "-1", "-10000000000000000000000",
        "-9223372036854775809", "1.5e308", "1e400", "-1e400", "253402300800000", "1" + String(repeating: "0", count: 300) + ".5",
    ]

    @Test(arguments: ["signedDate", "purchaseDate", "originalPurchaseDate", "expiresDate", "revocationDate"], hostileDates)
    func aDateNoCalendarHoldsIsAFormatErrorNamingTheField(field: String, number: String) throws {
        let jws = try chain.sign(Array(transactionJSON(field, number).utf8))
        let refused = try #require(error { _ = try verifier().verifyTransaction(jws) })
        #expect(refused.code == .verificationInvalidFormat)
        #expect(refused.message.contains("'\(field)'"), "\(refused.message)")
        #expect(refused.code.rawValue == -200)
    }

    @Test(arguments: [("quantity", "2147483648"), ("quantity", "-2147483649"), ("quantity", "3.5"),
                      ("price", "9223372036854775808"), ("price", String(repeating: "7", count: 300)),
                      ("revocationReason", "4294967296"), ("offerType", "-99999999999"), ("revocationPercentage", "1e10")])
    func anIntegerOutsideItsFieldsRangeIsAFormatErrorNamingTheField(field: String, number: String) throws {
        let jws = try chain.sign(Array(transactionJSON(field, number).utf8))
        let refused = try #require(error { _ = try verifier().verifyTransaction(jws) })
        #expect(refused.code == .verificationInvalidFormat)
        #expect(refused.message.contains("'\(field)'"), "\(refused.message)")
    }

    @Test(arguments: ["signedDate", "gracePeriodExpiresDate", "renewalDate"])
    func renewalInfoDatesAreRangeCheckedToo(field: String) throws {
        let json = field == "signedDate" ? #"{"environment":"Sandbox","signedDate":1e300}"#
            : #"{"environment":"Sandbox","signedDate":\#(Self.now),"\#(field)":1e300}"#
        let jws = try chain.sign(Array(json.utf8))
        let refused = try #require(error { _ = try verifier().verifyRenewalInfo(jws) })
        #expect(refused.code == .verificationInvalidFormat && refused.message.contains("'\(field)'"), "\(refused.message)")
    }

    @Test func negativeZeroAndLongFractionsReadAsNumbers() throws {
        let verifier = try verifier()
        let zero = try verifier.verifyTransaction(try chain.sign(Array(transactionJSON("quantity", "-0").utf8)))
        #expect(zero.quantity == 0)
        let fraction = Self.now + "." + String(repeating: "4", count: 300)
        let long = try verifier.verifyTransaction(try chain.sign(Array(transactionJSON("purchaseDate", fraction).utf8)))
        #expect(abs((long.purchaseDate?.value ?? 0) - (Double(Self.now)! + 0.444)) < 0.01)
    }

    @Test(arguments: [1e300, -1e300, Double.infinity, -62_135_596_800, 253_402_300_800])
    func aFixedValidationDateOutsideTheCalendarIsRefusedNotConverted(seconds: Double) throws {
        let jws = try chain.sign(Array(transactionJSON("quantity", "1").utf8))
        let refused = error {
            _ = try verifier(.fixed(Date(timeIntervalSince1970: seconds))).verifyTransaction(jws)
        }
        #expect(refused?.code == .verificationInvalidFormat, "\(String(describing: refused))")
    }

    @Test func aSingleCertificateEqualToTheTrustedRootIsRefused() throws {
        // Signed by the root's own key would need it; a single certificate is refused before any key is used.
        let jws = try CompactJWS.sign(payload: Array(transactionJSON("quantity", "1").utf8), key: chain.leafKey, x5c: [chain.leaf.der])
        let trustingTheLeaf = try SignedDataVerifier(trustedRoots: [chain.leaf.der], bundleID: Self.bundleID, environment: .sandbox)
        let refused = error { _ = try trustingTheLeaf.verifyTransaction(jws) }
        #expect(refused?.code == .verificationInvalidChainLength)
    }

    @Test func certificateDERWithTrailingBytesIsRefused() throws {
        for index in 0..<2 {
            var x5c = chain.x5c
            x5c[index] += [0x00]
            let jws = try CompactJWS.sign(payload: Array(transactionJSON("quantity", "1").utf8), key: chain.leafKey, x5c: x5c)
            let refused = error { _ = try verifier().verifyTransaction(jws) }
            #expect(refused?.code == .verificationInvalidCertificate, "x5c[\(index)]: \(String(describing: refused))")
        }
        #expect(throws: StoreError.self) { try X509Certificate(der: chain.root.der + [0x05, 0x00]) }
        #expect(throws: StoreError.self) {
            try SignedDataVerifier(trustedRoots: [chain.root.der + [0x00]], bundleID: Self.bundleID, environment: .sandbox)
        }
    }
}
