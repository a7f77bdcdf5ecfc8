import Foundation
import IOSiAPCore
@testable import IOSiAPVerification
import IOSiAPTestSupport
import Testing

/// `SignedDataVerifier.verifyAppTransaction`: Apple's `verify_and_decode_app_transaction` (chain, signature,
/// bundle id, App Store id in production, environment in `receiptType`).
@Suite struct AppTransactionVerificationTests {
    static let bundleID = "com.iosiap.tests"
    let chain: SigningChain
    /// When the App Transactions here are signed: inside the test chain's validity.
    let signedAt = AppTransactionDate(Date())

    init() throws {
        chain = try SigningChain.create()
    }

    func payload(bundleID: String = bundleID, receiptType: String = "Sandbox", appAppleID: UInt64? = nil) -> AppTransactionPayload {
        var payload = AppTransactionPayload()
        payload.receiptType = receiptType
        payload.bundleId = bundleID
        payload.appAppleId = appAppleID
        payload.applicationVersion = "2.0"
        payload.originalApplicationVersion = "1.3"
        payload.originalPurchaseDate = AppTransactionDate(Date(timeIntervalSince1970: 1_600_000_000))
        payload.receiptCreationDate = signedAt
        payload.appTransactionId = "704289572311459405"
        payload.originalPlatform = "iOS"
        return payload
    }

    func verifier(environment: StoreEnvironment = .sandbox, appAppleID: UInt64? = nil) throws -> SignedDataVerifier {
        try SignedDataVerifier(trustedRoots: [chain.root.der], bundleID: Self.bundleID, environment: environment,
                               appAppleID: appAppleID)
    }

    func code(_ jws: String, _ verifier: SignedDataVerifier? = nil) throws -> StoreErrorCode? {
        let verifier = try verifier ?? self.verifier()
        do {
            _ = try verifier.verifyAppTransaction(jws)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func anAppTransactionSignedByATrustedChainVerifiesWithItsFields() throws {
        let jws = try chain.sign(json: payload())
        let verified = try verifier().verifyAppTransaction(jws)
        #expect(verified == payload())
        let app = try verified.appTransaction(signedJWS: jws)
        #expect(app.originalAppVersion == "1.3" && app.appVersion == "2.0" && app.environment == .sandbox)
        #expect(app.originalPurchaseDate == Date(timeIntervalSince1970: 1_600_000_000))
        #expect(app.appTransactionID == "704289572311459405" && app.originalPlatform == "iOS" && app.signedJWS == jws)
    }

    @Test func aForgedAppTransactionIsRejected() throws {
        let jws = try chain.sign(json: payload())
        var parts = jws.split(separator: ".").map(String.init)
        var bytes = try #require(Base64URL.decode(Substring(parts[1])))
        let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\"1.3\"", with: "\"0.9\"")
        bytes = Array(text.utf8)
        parts[1] = Base64URL.encode(bytes)
        #expect(try code(parts.joined(separator: ".")) == .verificationInvalidSignature)
        // Signed by a chain the verifier does not trust.
        #expect(try code(try SigningChain.create().sign(json: payload())) == .verificationUntrustedChain)
    }

    @Test func anotherAppsOrEnvironmentsAppTransactionIsRejected() throws {
        #expect(try code(try chain.sign(json: payload(bundleID: "com.other.game"))) == .verificationInvalidAppIdentifier)
        #expect(try code(try chain.sign(json: payload(receiptType: "Production"))) == .verificationInvalidEnvironment)
        var missing = payload()
        missing.bundleId = nil
        #expect(try code(try chain.sign(json: missing)) == .verificationInvalidAppIdentifier)
    }

    @Test func inProductionTheAppStoreIDMustMatch() throws {
        let production = try verifier(environment: .production, appAppleID: 1234)
        #expect(try production.verifyAppTransaction(try chain.sign(json: payload(receiptType: "Production", appAppleID: 1234))).appAppleId == 1234)
        #expect(try code(try chain.sign(json: payload(receiptType: "Production", appAppleID: 99)), production) == .verificationInvalidAppIdentifier)
        #expect(try code(try chain.sign(json: payload(receiptType: "Production")), production) == .verificationInvalidAppIdentifier)
        // Without the app's id, a production App Transaction cannot be checked, as in Apple's libraries.
        let unconfigured = try verifier(environment: .production)
        #expect(try code(try chain.sign(json: payload(receiptType: "Production", appAppleID: 1234)), unconfigured) == .verificationInvalidAppIdentifier)
    }

    @Test(.needsSharedFixtures) func xcodesSignedAppTransactionDecodesWithItsYearOneOriginalPurchaseDate() throws {
        let jws = try Fixtures.text("jws/xcode-signed-app-transaction.jws")
        let payload = try SignedDataVerifier.decodeUnverified(jws, as: AppTransactionPayload.self)
        #expect(payload.receiptType == "Xcode" && payload.bundleId == "com.example.naturelab.backyardbirds.example")
        #expect(payload.originalPurchaseDate?.value == -62_135_769_600_000)
        #expect(payload.receiptCreationDate?.value == 1697680122257.447)
        #expect(payload.deviceVerificationNonce == "48c8b92d-ce0d-4229-bedf-e61b4f9cfc92")
        let app = try payload.appTransaction(signedJWS: jws)
        #expect(app.environment == .xcode && app.originalAppVersion == "1" && app.appID == nil)
        // One self-signed certificate: refused like Xcode's transactions.
        let xcode = try SignedDataVerifier(bundleID: "com.example.naturelab.backyardbirds.example", environment: .xcode)
        #expect(try code(jws, xcode) == .verificationInvalidChainLength)
    }

    @Test(arguments: [
        #"{"appAppleId":-1}"#, #"{"versionExternalIdentifier":-5}"#, #"{"originalPurchaseDate":-1e17}"#,
        #"{"receiptCreationDate":1e300}"#, #"{"preorderDate":"yesterday"}"#, #"{"appAppleId":18446744073709551616}"#,
    ])
    func numbersOutOfRangeAreRefusedWhereDecoded(json: String) throws {
        let jws = try CompactJWS.sign(payload: Array(json.utf8), key: chain.leafKey, x5c: chain.x5c)
        #expect(try code(jws) == .verificationInvalidFormat)
    }
}
