import Foundation
import IOSiAPCore
@testable import IOSiAPLocalStore
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// The local store's App Transaction: signed with its chain for its bundle id and environment, with an id and
/// original purchase date kept per state directory, and the original app version QA sets.
@Suite struct LocalAppTransactionTests {
    let folder = TemporaryDirectory()

    func open() throws -> (LocalStore, PurchaseStore) {
        let local = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state,
                                   bundleID: "com.iosiap.example")
        return (local, try PurchaseStore(backend: local, stateDirectory: folder.state))
    }

    @Test func theAppTransactionIsSignedByTheStoresChainForItsBundleAndEnvironment() async throws {
        let (local, store) = try open()
        defer { store.close() }
        let app = try await store.appTransaction()
        #expect(app.bundleID == "com.iosiap.example" && app.environment == local.environment)
        #expect(app.originalAppVersion == "1.0" && app.appVersion == "1.0")
        let verified = try local.makeVerifier().verifyAppTransaction(app.signedJWS)
        #expect(try verified.appTransaction(signedJWS: app.signedJWS) == app)
        #expect(verified.appTransactionId == app.appTransactionID && app.appTransactionID?.count == 18)
    }

    @Test func theOriginalVersionIsSetByTheControlAndIdAndDateStayForTheStateDirectory() async throws {
        var (local, store) = try open()
        let first = try await store.appTransaction()
        try local.setOriginalAppVersion("1.2", appVersion: "3.0")
        let changed = try await store.appTransaction()
        #expect(changed.originalAppVersion == "1.2" && changed.appVersion == "3.0")
        #expect(changed.appTransactionID == first.appTransactionID && changed.originalPurchaseDate == first.originalPurchaseDate)
        store.close()
        // Another launch over the same state directory: the same record.
        (local, store) = try open()
        defer { store.close() }
        let relaunched = try await store.appTransaction()
        #expect(relaunched.originalAppVersion == "1.2" && relaunched.appTransactionID == first.appTransactionID)
        #expect(relaunched.originalPurchaseDate == first.originalPurchaseDate)
        try local.setOriginalAppVersion("2.0")
        #expect(try await store.appTransaction().appVersion == "2.0")
        #expect(throws: StoreError.self) { try local.setOriginalAppVersion("") }
        #expect(throws: StoreError.self) { try local.setOriginalAppVersion(String(repeating: "9", count: 65)) }
    }

    @Test func aSimulatedAppTransactionErrorFailsTheGamesCall() async throws {
        let (local, store) = try open()
        defer { store.close() }
        try local.setSimulatedError(.storeUnreachable, for: .appTransaction)
        do {
            _ = try await store.appTransaction()
            Issue.record("no error")
        } catch {
            #expect(error.code == .storeUnreachable)
        }
    }
}
