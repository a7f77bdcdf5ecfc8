import Foundation
import IOSiAPCore
import IOSiAPStoreKit
import IOSiAPTestSupport
import Testing

/// Opening a StoreKit store as the C ABI and the C++ layers do.
@Suite struct StoreKitPurchaseStoreTests {
    let folder = TemporaryDirectory()

    @Test func storeKitsVerdictComesFirstThenTheServers() async throws {
        let storeKit = ScriptedStoreKit()
        storeKit.script.withLock {
            $0.purchases = [.success(.success(.verified(ScriptedStoreKit.transaction(5, "coins")))),
                            .success(.success(.unverified(ScriptedStoreKit.transaction(6, "coins"), .invalidSignature)))]
        }
        let server = ScriptedVerifier([.failed(StoreError(.verificationRejectedByServer, "21003"))])
        let store = try StoreKitPurchaseStore.open(api: storeKit, stateDirectory: folder.state, serverVerifier: server)
        defer { store.close() }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins"]))
        let first = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins")).last
        guard case .verificationFailed(_, _, let rejected) = first else { Issue.record("\(String(describing: first))"); return }
        #expect(rejected.code == .verificationRejectedByServer)
        // StoreKit's own refusal decides before the server is asked.
        let second = try await store.pollUntilTerminal(of: try store.requestPayment(productID: "coins")).last
        guard case .verificationFailed(_, _, let unverified) = second else { Issue.record("\(String(describing: second))"); return }
        #expect(unverified.code == .verificationInvalidSignature)
        #expect(server.verifiedIDs == [5])
    }

    @Test func withoutAFolderTheJournalIsInApplicationSupport() throws {
        let directory = try StoreKitPurchaseStore.defaultStateDirectory()
        #expect(directory.url.lastPathComponent == "IOSiAP")
        #expect(FileManager.default.fileExists(atPath: directory.url.path))
    }
}
