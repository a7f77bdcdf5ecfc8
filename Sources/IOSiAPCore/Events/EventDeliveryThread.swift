import Foundation

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

    /// Starts delivering `store`'s events to `deliver` on a new thread named "iosiap.delivery".
    public init(store: PurchaseStore, deliver: @escaping @Sendable (StoreEvent) -> Void) {
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [threadID, ended] in
            threadID.withLock { $0 = pthread_self() }
            started.signal()
            // One event at a time, so that close stops delivery after the callback in progress.
            while store.isOpen {
                if store.poll(limit: 1, deliver) == 0 { store.waitForEvents() }
            }
            ended.signal()
        }
        thread.name = "iosiap.delivery"
        thread.start()
        // The thread's id is known before init returns, so `isCurrentThread` is right from the first callback.
        started.wait()
    }

    /// Whether the caller runs on this delivery thread (inside a callback).
    public var isCurrentThread: Bool {
        threadID.withLock { id in id.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// Waits until the thread has ended, once its store is closed: the callback in progress has returned.
    /// Called from a callback (on the thread itself) it returns at once, since waiting would never end.
    public func waitUntilEnded() {
        guard !isCurrentThread else { return }
        ended.wait()
        ended.signal()  // a second caller returns too
    }
}
