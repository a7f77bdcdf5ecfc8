/// The store's events as an `AsyncSequence`, for Swift games (`for await event in store.events`).
///
/// It drains the same queue as `PurchaseStore.poll`: use one or the other. It ends when the store closes.
public struct StoreEventSequence: AsyncSequence, Sendable {
    public typealias Element = StoreEvent

    let queue: EventQueue
    let ledger: GrantLedger
    let worker: StoreWorker

    /// Iterates the events in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let queue: EventQueue
        let ledger: GrantLedger
        let worker: StoreWorker

        public mutating func next() async -> StoreEvent? {
            while let event = await queue.next() {
                if let delivered = ledger.apply(event, storeIsOpen: worker.state.withLock { $0.isOpen }) {
                    worker.delivered(delivered)
                    return delivered
                }
            }
            return nil
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(queue: queue, ledger: ledger, worker: worker)
    }
}
