#if canImport(FoundationEssentials)
import FoundationEssentials
import Dispatch
import Glibc
#else
import Foundation
#endif

/// Delivers a store's events on one library-owned thread instead of the game's `poll` (C:
/// `IOSIAP_DELIVERY_THREAD`): one event at a time, in order, through the same path as `poll` (so the grant
/// ledger applies as it does there).
///
/// Delivery starts when the thread is created; create it once the code receiving events is ready for them.
/// After `close()` on the store the thread delivers nothing more: the callback in progress, if any, finishes,
/// and events still queued are dropped, as in poll mode, where nothing polls a closed store (purchases among
/// them stay unfinished in the journal and come back at the next launch).
public final class EventDeliveryThread: Sendable {
    private let ended = DispatchSemaphore(value: 0)
    private let threadID = Locked<pthread_t?>(nil)

    /// Starts delivering `store`'s events to `deliver` on a new thread named "iosiap.delivery". A `revoked` is
    /// told once `deliver` has returned.
    public convenience init(store: PurchaseStore, deliver: @escaping @Sendable (StoreEvent) -> Void) {
        self.init(handlingEventsOf: store) { event in
            deliver(event)
            return true
        }
    }

    /// Starts delivering `store`'s events to `handle`, which says whether it handled each (see
    /// `PurchaseStore.deliverEvents`): for the C ABI, whose callback may say it did not.
    package init(handlingEventsOf store: PurchaseStore, handle: @escaping @Sendable (StoreEvent) -> Bool) {
        JoinableThread(name: "iosiap.delivery") { [threadID, ended] in
            // Before the first callback, so that `isCurrentThread` is right there; on any other thread it is false
            // whether or not this has run yet, so init need not wait for it (it may run on Swift's pool).
            threadID.withLock { $0 = pthread_self() }
            // One event at a time, so that close stops delivery after the callback in progress.
            while store.isOpen {
                if store.deliverEvents(limit: 1, to: handle) == 0 { store.waitForEvents() }
            }
            ended.signal()
        }.detach()
    }

    /// Whether the caller runs on this delivery thread (inside a callback).
    public var isCurrentThread: Bool {
        threadID.withLock { id in id.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// Waits until the thread has ended, once its store is closed: the callback in progress has returned.
    /// Called from a callback (on the thread itself) it returns at once, since waiting would never end. It blocks
    /// the calling thread: async code awaits `waitUntilEnded() async`.
    @available(*, noasync, message: "blocks a thread of the concurrency pool; await waitUntilEnded() async instead")
    public func waitUntilEnded() {
        guard !isCurrentThread else { return }
        ended.wait()
        ended.signal()  // a second caller returns too
    }

    /// Waits until the thread has ended, once its store is closed, without blocking a thread of Swift's
    /// concurrency pool (the wait runs on a thread of its own): `waitUntilEnded()` for async code.
    public func waitUntilEnded() async {
        await onThreadOfItsOwn(name: "iosiap.delivery-wait") { self.waitUntilEnded() }
    }
}
