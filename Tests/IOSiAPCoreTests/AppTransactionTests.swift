import Foundation
import IOSiAPCore
import IOSiAPTestSupport
import Testing

/// `PurchaseStore.appTransaction()`: the backend's App Transaction reaches the game, while the store is open.
@Suite struct AppTransactionTests {
    @Test func theGameGetsTheStoresAppTransactionWithItsJWS() async throws {
        let directory = TemporaryDirectory()
        let store = try PurchaseStore(backend: ScriptedBackend(), stateDirectory: directory.state)
        defer { store.close() }
        let app = try await store.appTransaction()
        #expect(app == ScriptedBackend.sampleAppTransaction)
        #expect(app.originalAppVersion == "1.0" && app.signedJWS == "header.payload.signature")
    }

    @Test func aClosedStoreAnswersStoreNotOpen() async throws {
        let directory = TemporaryDirectory()
        let store = try PurchaseStore(backend: ScriptedBackend(), stateDirectory: directory.state)
        store.close()
        await #expect(throws: StoreError.self) { try await store.appTransaction() }
        do {
            _ = try await store.appTransaction()
        } catch {
            #expect(error.code == .storeNotOpen)
        }
    }
}
