import Foundation
import IOSiAPCore
@testable import IOSiAPVerification
import IOSiAPTestSupport
import Testing

@Suite struct ChainVerifierTests {
    func appleChain() throws -> [String] {
        try ["Prod-ECC-MAS-iTunes-Receipt-Signing-leaf-2025.der", "AppleWWDRCA-G6.der", "AppleRootCA-G3.der"]
            .map { try Data(Fixtures.bytes("certs/\($0)")).base64EncodedString() }
    }

    func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test(.needsSharedFixtures) func theRealAppleChainVerifiesInsideItsValidity() throws {
        let verifier = try ChainVerifier(trustedRoots: [AppleRootCertificate.g3DER], capacity: 4)
        let key = try verifier.leafKey(x5c: try appleChain(), at: date("2026-06-01T00:00:00Z"))
        #expect(key.isP256)
    }

    @Test(.needsSharedFixtures) func theBuiltInRootIsApplesG3() throws {
        #expect(AppleRootCertificate.g3DER == (try Fixtures.bytes("certs/AppleRootCA-G3.der")))
    }

    @Test(.needsSharedFixtures, arguments: ["2025-09-01T00:00:00Z", "2027-11-01T00:00:00Z", "2040-01-01T00:00:00Z"])
    func theRealAppleChainFailsOutsideItsValidity(at time: String) throws {
        let verifier = try ChainVerifier(trustedRoots: [AppleRootCertificate.g3DER], capacity: 4)
        let error = try #require(throws: StoreError.self) { try verifier.leafKey(x5c: try appleChain(), at: date(time)) }
        #expect(error.code == .verificationCertificateNotValidAtDate)
    }

    @Test(.needsSharedFixtures) func theRootIsTheCallersNeverTheOneInX5c() throws {
        var chain = try appleChain()
        let other = try SigningChain.create()
        chain[2] = Data(other.root.der).base64EncodedString()  // x5c[2] is ignored ...
        let verifier = try ChainVerifier(trustedRoots: [AppleRootCertificate.g3DER], capacity: 4)
        #expect(try verifier.leafKey(x5c: chain, at: date("2026-06-01T00:00:00Z")).isP256)
        // ... and trusting another root does not make Apple's chain verify.
        let wrongRoot = try ChainVerifier(trustedRoots: [other.root.der], capacity: 4)
        let error = try #require(throws: StoreError.self) { try wrongRoot.leafKey(x5c: try appleChain(), at: date("2026-06-01T00:00:00Z")) }
        #expect(error.code == .verificationUntrustedChain)
    }

    /// Apple's library's mock chain has no Authority Key Identifiers: strict checking (OpenSSL's
    /// X509_STRICT, as Apple's Python library uses) refuses it, though its signatures are genuine.
    @Test(.needsSharedFixtures) func theLibraryMockChainIsRefusedByStrictCheckingButItsSignatureIsGenuine() throws {
        let jws = try CompactJWS(try Fixtures.text("jws/mock-testchain-transactionInfo.jws"))
        let verifier = try ChainVerifier(trustedRoots: [try Fixtures.bytes("certs/library-testCA.der")], capacity: 4)
        let error = try #require(throws: StoreError.self) { try verifier.leafKey(x5c: jws.header.x5c, at: date("2023-01-06T00:00:00Z")) }
        #expect(error.code == .verificationUntrustedChain)
        #expect(error.message.contains("Authority Key Identifier"))
        let leaf = try X509Certificate(der: Array(try #require(jws.header.x5c?.first.flatMap { Data(base64Encoded: $0) })))
        #expect(try leaf.publicKey().verifyES256(signature: jws.signature, message: jws.signingInput))
    }

    @Test func chainsAreCachedWithinTheirValidity() throws {
        let chain = try SigningChain.create(from: date("2026-01-01T00:00:00Z"), days: 30)
        let x5c = chain.x5c.map { Data($0).base64EncodedString() }
        let verifier = try ChainVerifier(trustedRoots: [chain.root.der], capacity: 1)
        let first = try verifier.leafKey(x5c: x5c, at: date("2026-01-10T00:00:00Z"))
        let second = try verifier.leafKey(x5c: x5c, at: date("2026-01-11T00:00:00Z"))
        #expect(first === second)  // the same key object: the chain was not verified again
        let error = try #require(throws: StoreError.self) { try verifier.leafKey(x5c: x5c, at: date("2026-03-01T00:00:00Z")) }
        #expect(error.code == .verificationCertificateNotValidAtDate)
    }
}
