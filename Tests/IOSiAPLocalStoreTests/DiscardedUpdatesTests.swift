import Foundation
import IOSiAPCore
@testable import IOSiAPLocalStore
import IOSiAPTestSupport
import Testing

/// A store no game reads (the transaction manager's `serve`, for hours) keeps none of its updates in memory once
/// told so; a game that listens later hears what happens from then on.
@Suite struct DiscardedUpdatesTests {
    let folder = TemporaryDirectory()

    @Test func updatesMadeWhileDiscardingAreNotKeptForALaterReader() async throws {
        let store = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state,
                                   bundleID: "com.iosiap.example")
        defer { store.close() }
        store.discardUpdates()
        let discarded = try store.buyProduct("com.iosiap.example.coins_100")
        let updates = store.updates()  // a game listens from now on
        let heard = try store.buyProduct("com.iosiap.example.pro_upgrade")
        var iterator = updates.makeAsyncIterator()
        let first = await iterator.next()
        guard case .purchased(let transaction) = first else { Issue.record("\(String(describing: first))"); return }
        #expect(transaction.id == heard.id, "the purchase made while discarding (\(discarded.id)) was kept")
    }
}
