import Foundation
import IOSiAPCore
import IOSiAPTestSupport
import Testing

/// A restore requested while launch redelivery is underway takes nothing the store holds unfinished for
/// finished: a paid purchase is still delivered.
@Suite struct RestoreDuringLaunchTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    @Test func aRestoreDuringLaunchDoesNotTakeAnUnfinishedPurchaseForFinished() async throws {
        // Charged, then the game died before the journal write: only the store knows the purchase.
        let paid = backend.makeTransaction("pro")
        backend.holdUnfinished([paid])
        backend.scriptRestore(.success([paid]))
        backend.holdUnfinishedList()                // the store is slow to list what it holds unfinished
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
        let restore = try store.requestRestore()    // right after open
        // The restore ends first, or waits for the store's list as well: either way, once the worker has done all
        // it can without the list.
        var events = await store.pollSettled()
        backend.openUnfinishedList()
        func ended() -> Bool {
            events.contains(.restoreFinished(requestID: restore, result: .success(1)))
                && events.contains(.purchased(requestID: nil, transaction: paid))
        }
        if !ended() {
            _ = try await store.pollUntil { event in
                events.append(event)
                return ended()
            }
        }
        #expect(events.contains(.restored(requestID: restore, transaction: paid)))
        #expect(!backend.finishedIDs.contains(paid.id))          // not finished behind the game's back
        #expect(try store.unfinishedTransactions() == [paid])    // until the game finishes it
    }
}
