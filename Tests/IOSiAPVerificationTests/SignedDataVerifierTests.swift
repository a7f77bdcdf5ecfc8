import Foundation
import IOSiAPCore
@testable import IOSiAPVerification
import IOSiAPTestSupport
import Testing

@Suite struct SignedDataVerifierTests {
    static let bundleID = "com.iosiap.tests"
    let chain: SigningChain

    init() throws {
        chain = try SigningChain.create()
    }

    func payload(bundleID: String = bundleID, environment: String = "Sandbox") -> SignedTransactionPayload {
        var payload = SignedTransactionPayload()
        payload.transactionId = "42"
        payload.originalTransactionId = "42"
        payload.bundleId = bundleID
        payload.productId = "coins"
        payload.type = "Consumable"
        payload.quantity = 3
        payload.environment = environment
        payload.signedDate = Milliseconds(Date())
        payload.purchaseDate = payload.signedDate
        return payload
    }

    func verifier(roots: [[UInt8]]? = nil, environment: StoreEnvironment = .sandbox) throws -> SignedDataVerifier {
        try SignedDataVerifier(trustedRoots: roots ?? [chain.root.der], bundleID: Self.bundleID, environment: environment)
    }

    func code(_ jws: String, _ verifier: SignedDataVerifier? = nil) throws -> StoreErrorCode? {
        let verifier = try verifier ?? self.verifier()
        do {
            _ = try verifier.verifyTransaction(jws)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func aTransactionSignedByATrustedChainVerifies() throws {
        let jws = try chain.sign(json: payload())
        let verified = try verifier().verifyTransaction(jws)
        #expect(verified == payload().withDatesFrom(verified))
        #expect(verified.quantity == 3)
    }

    @Test(.needsSharedFixtures) func theXcodeSignedFixturesDecodeIntoTheDocumentedFields() throws {
        let jws = try Fixtures.text("jws/xcode-signed-transaction.jws")
        let payload = try SignedDataVerifier.decodeUnverified(jws, as: SignedTransactionPayload.self)
        #expect(payload.productId == "pass.premium")
        #expect(payload.subscriptionGroupIdentifier == "6F3A93AB")
        #expect(payload.transactionId == "0")
        #expect(payload.type == "Auto-Renewable Subscription")
        #expect(payload.storefront == "USA" && payload.storefrontId == "143441")
        #expect(payload.offerType == 1)
        #expect(payload.purchaseDate?.value == 1697679936049.7297)
        #expect(payload.expiresDate.map { $0.value - payload.purchaseDate!.value } == 2_678_400_000)
        let renewal = try SignedDataVerifier.decodeUnverified(try Fixtures.text("jws/xcode-signed-renewal-info.jws"), as: RenewalInfoPayload.self)
        #expect(renewal.autoRenewStatus == 1 && renewal.environment == "Xcode")
    }

    @Test(.needsSharedFixtures) func xcodeSignedDataIsRefusedEvenWhenTheCallerTrustsXcodesCertificate() throws {
        // Xcode signs with one self-signed certificate; Apple's algorithm wants three, always.
        let jws = try Fixtures.text("jws/xcode-signed-transaction.jws")
        let header = try CompactJWS(jws).header
        let xcodeCertificate = try #require(header.x5c?.first.flatMap { Data(base64Encoded: $0) })
        let trusting = try SignedDataVerifier(trustedRoots: [Array(xcodeCertificate)],
                                              bundleID: "com.example.naturelab.backyardbirds.example", environment: .xcode)
        #expect(try code(jws, trusting) == .verificationInvalidChainLength)
        #expect(throws: StoreError.self) { try trusting.verifyRenewalInfo(try Fixtures.text("jws/xcode-signed-renewal-info.jws")) }
        let production = try SignedDataVerifier(bundleID: "com.example.naturelab.backyardbirds.example", environment: .xcode)
        #expect(try code(jws, production) == .verificationInvalidChainLength)
    }

    @Test func aChangedPayloadByteIsRejected() throws {
        let jws = try chain.sign(json: payload())
        var parts = jws.split(separator: ".").map(String.init)
        var payloadBytes = try #require(Base64URL.decode(Substring(parts[1])))
        let index = try #require(payloadBytes.firstIndex(of: UInt8(ascii: "3")))  // quantity 3 -> 9
        payloadBytes[index] = UInt8(ascii: "9")
        parts[1] = Base64URL.encode(payloadBytes)
        #expect(try code(parts.joined(separator: ".")) == .verificationInvalidSignature)
    }

    @Test func aSignatureFromAnotherTransactionIsRejected() throws {
        let first = try chain.sign(json: payload()).split(separator: ".")
        var other = payload()
        other.transactionId = "43"
        let second = try chain.sign(json: other).split(separator: ".")
        #expect(try code([first[0], first[1], second[2]].joined(separator: ".")) == .verificationInvalidSignature)
    }

    @Test func aWrongRootIsRejected() throws {
        let jws = try chain.sign(json: payload())
        #expect(try code(jws, try verifier(roots: [try SigningChain.create().root.der])) == .verificationUntrustedChain)
        #expect(try code(jws, try verifier(roots: [AppleRootCertificate.g3DER])) == .verificationUntrustedChain)
    }

    @Test func aLeafWithoutAppleMarkersIsRejected() throws {
        let unmarked = try SigningChain.create(markers: false)
        let jws = try unmarked.sign(json: payload())
        #expect(try code(jws, try verifier(roots: [unmarked.root.der])) == .verificationMissingAppleMarker)
    }

    @Test func anExpiredLeafIsRejected() throws {
        let old = try SigningChain.create(from: Date().addingTimeInterval(-30 * 86_400), days: 3650, leafDays: 10)
        let jws = try old.sign(json: payload())
        #expect(try code(jws, try verifier(roots: [old.root.der])) == .verificationCertificateNotValidAtDate)
    }

    @Test(arguments: [1, 2, 4])
    func x5cOfAnyOtherLengthIsRejected(count: Int) throws {
        let x5c = Array(repeating: chain.x5c, count: 2).flatMap { $0 }.prefix(count).map { $0 }
        let jws = try CompactJWS.sign(payload: Array(JSONEncoder().encode(payload())), key: chain.leafKey, x5c: x5c)
        #expect(try code(jws) == .verificationInvalidChainLength)
    }

    @Test(arguments: ["none", "HS256", "RS256", "ES384", ""])
    func everyAlgorithmButES256IsRejected(alg: String) throws {
        let parts = try chain.sign(json: payload()).split(separator: ".")
        let header = try #require(Base64URL.decode(parts[0]))
        var json = try #require(try JSONSerialization.jsonObject(with: Data(header)) as? [String: Any])
        json["alg"] = alg
        let forged = Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: json)))
        #expect(try code([Substring(forged), parts[1], parts[2]].joined(separator: ".")) == .verificationUnsupportedAlgorithm)
        #expect(try code([Substring(forged), parts[1], ""].joined(separator: ".")) == .verificationUnsupportedAlgorithm)
    }

    @Test func malformedInputIsRejectedWithItsOwnCode() throws {
        let jws = try chain.sign(json: payload())
        let parts = jws.split(separator: ".")
        #expect(try code(String(repeating: "a", count: CompactJWS.maximumLength + 1)) == .verificationInputTooLarge)
        #expect(try code("") == .verificationInvalidFormat)
        #expect(try code("a.b") == .verificationInvalidFormat)
        #expect(try code(jws + ".x") == .verificationInvalidFormat)
        #expect(try code("%%%." + parts[1] + "." + parts[2]) == .verificationInvalidFormat)
        #expect(try code(parts[0] + ".!!!." + parts[2]) == .verificationInvalidFormat)
        #expect(try code(parts[0] + "." + Base64URL.encode(Array("not json".utf8)) + "." + parts[2]) == .verificationInvalidFormat)
    }

    @Test func truncatedCertificatesAreRejected() throws {
        var x5c = chain.x5c
        x5c[0] = Array(x5c[0].prefix(x5c[0].count / 2))
        let jws = try CompactJWS.sign(payload: Array(JSONEncoder().encode(payload())), key: chain.leafKey, x5c: x5c)
        #expect(try code(jws) == .verificationInvalidCertificate)
        let parts = try chain.sign(json: payload()).split(separator: ".")
        let header = #"{"alg":"ES256","x5c":["not base64!","AAAA","AAAA"]}"#
        #expect(try code(Base64URL.encode(Array(header.utf8)) + "." + parts[1] + "." + parts[2]) == .verificationInvalidCertificate)
    }

    @Test func anotherBundleOrEnvironmentIsRejected() throws {
        #expect(try code(try chain.sign(json: payload(bundleID: "com.other.game"))) == .verificationInvalidAppIdentifier)
        #expect(try code(try chain.sign(json: payload(environment: "Production"))) == .verificationInvalidEnvironment)
    }

    @Test func manyTransactionsFromOneChainVerify() throws {
        let verifier = try verifier()
        for id in 0..<200 {
            var next = payload()
            next.transactionId = String(id)
            #expect(try verifier.verifyTransaction(try chain.sign(json: next)).transactionId == String(id))
        }
    }
}

extension SignedTransactionPayload {
    /// This payload with the dates of `other`, for comparing what survives a round trip.
    func withDatesFrom(_ other: SignedTransactionPayload) -> SignedTransactionPayload {
        var copy = self
        copy.signedDate = other.signedDate
        copy.purchaseDate = other.purchaseDate
        return copy
    }
}
