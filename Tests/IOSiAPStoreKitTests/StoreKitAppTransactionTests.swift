import Foundation
import IOSiAPCore
import IOSiAPStoreKit
import IOSiAPTestSupport
import Testing

/// The StoreKit backend's App Transaction: StoreKit's verified record reaches the game with its JWS; an
/// unverified one, one from an unknown environment, or StoreKit's error, never does.
@Suite struct StoreKitAppTransactionTests {
    let folder = TemporaryDirectory()
    let storeKit = ScriptedStoreKit()

    func open() throws -> PurchaseStore {
        let backend = StoreKitBackend(api: storeKit)
        return try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: backend.verifier)
    }

    func code(_ store: PurchaseStore) async -> StoreErrorCode? {
        do {
            _ = try await store.appTransaction()
            return nil
        } catch {
            return error.code
        }
    }

    @Test func aVerifiedAppTransactionReachesTheGameWithItsFieldsAndJWS() async throws {
        let store = try open()
        defer { store.close() }
        let app = try await store.appTransaction()
        #expect(app.environment == .sandbox && app.bundleID == "com.example.game")
        #expect(app.originalAppVersion == "1.0" && app.appVersion == "2.1")
        #expect(app.originalPurchaseDate == Date(timeIntervalSince1970: 1_600_000_000))
        #expect(app.appTransactionID == "704289572311459405" && app.originalPlatform == "iOS")
        #expect(app.deviceVerification == "AQID" && app.deviceVerificationNonce?.uuidString == "48C8B92D-CE0D-4229-BEDF-E61B4F9CFC92")
        #expect(app.signedJWS == "header.app-transaction.signature")
    }

    @Test func anUnverifiedAppTransactionIsAVerificationError() async throws {
        storeKit.script.withLock { $0.appTransaction = .success(.unverified(ScriptedStoreKit.sampleAppTransaction, .invalidSignature)) }
        let store = try open()
        defer { store.close() }
        #expect(await code(store) == .verificationInvalidSignature)
        storeKit.script.withLock { $0.appTransaction = .success(.unverified(ScriptedStoreKit.sampleAppTransaction, .invalidCertificateChain)) }
        #expect(await code(store) == .verificationUntrustedChain)
    }

    @Test func anUnknownEnvironmentIsNeverTakenForProduction() async throws {
        var app = ScriptedStoreKit.sampleAppTransaction
        app.environment = "Staging"
        storeKit.script.withLock { $0.appTransaction = .success(.verified(app)) }
        let store = try open()
        defer { store.close() }
        #expect(await code(store) == .verificationInvalidEnvironment)
    }

    @Test func storeKitsErrorsAreMapped() async throws {
        storeKit.script.withLock { $0.appTransaction = .failure(.networkError("offline")) }
        let store = try open()
        defer { store.close() }
        #expect(await code(store) == .storeUnreachable)
        storeKit.script.withLock { $0.appTransaction = .failure(.userCancelled) }
        #expect(await code(store) == .paymentCancelled)
    }
}
