import Foundation
import IOSiAPCore
import IOSiAPTestSupport
import Testing

/// A restore's verifications run beside the request jobs: a slow verification server holds up no later
/// request, and the restore still ends in one `restoreFinished` after all its `restored`.
@Suite struct RestoreBesideJobsTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    @Test func aProductsRequestIsAnsweredWhileARestoresVerificationHangs() async throws {
        let owned = backend.makeTransaction("pro")
        backend.scriptRestore(.success([owned]))
        let verifier = StepVerifier([.waitForGate])
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: verifier)
        let restore = try store.requestRestore()
        try await waitUntil { verifier.waiting > 0 }
        #expect(verifier.waiting == 1)
        let products = try store.requestProducts(["pro"])
        let answered = try await store.pollUntilTerminal(of: products)
        guard case .productsReceived(products, let found, []) = answered.last, found.map(\.id) == ["pro"] else {
            Issue.record("\(answered)"); return
        }
        #expect(!answered.contains { $0.requestID == restore })  // nothing of the restore told yet
        verifier.open()
        let rest = try await store.pollUntilTerminal(of: restore)
        let ofRestore = rest.filter { $0.requestID == restore }
        #expect(ofRestore == [.restored(requestID: restore, transaction: owned),
                              .restoreFinished(requestID: restore, result: .success(1))], "\(rest)")
        #expect(try store.unfinishedTransactions().isEmpty)  // recorded finished: restoring charges nothing
        let later = await store.pollSettled()
        #expect(!later.contains { $0.requestID == restore })
    }
}
