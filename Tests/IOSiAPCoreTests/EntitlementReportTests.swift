import Foundation
import IOSiAPCore
import IOSiAPTestSupport
import Testing

/// What the store reports the user owns at launch (`StoreUpdate.entitled`: a reinstall, a new device), recorded
/// when the journal lacks it.
@Suite struct EntitlementReportTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    /// A store that cannot list its unfinished transactions when the report is checked cannot say whether launch
    /// redelivery will tell it (then it must not be recorded finished, unseen): it is checked again in the launch,
    /// and recorded once the list answers, not only at the next launch.
    @Test func aReportMetWhileTheStoreCannotListItsUnfinishedOnesIsCheckedAgainInTheLaunch() async throws {
        let owned = StoreTransaction(id: 41, originalID: 41, productID: "pro", productType: .nonConsumable, quantity: 1,
                                     purchaseDate: Date().addingTimeInterval(-86_400), originalPurchaseDate: Date().addingTimeInterval(-86_400),
                                     environment: .xcode, storefront: "USA")
        backend.failUnfinishedList(times: 2)  // launch redelivery's list, then the report's
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state,
                                      retryPolicy: VerificationRetryPolicy(initial: .milliseconds(10), maximum: .milliseconds(20)))
        defer { store.close() }
        _ = await store.pollSettled()
        backend.send(.entitled(owned))
        try await waitUntil { try store.isEntitled(to: "pro") }
        #expect(try store.unfinishedTransactions().isEmpty, "recorded finished: the store holds it finished")
        #expect(await store.pollSettled().isEmpty, "a report tells the game nothing")
    }
}
