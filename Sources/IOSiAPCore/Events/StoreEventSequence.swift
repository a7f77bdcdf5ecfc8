/// The store's events as an `AsyncSequence`, for Swift games (`for await event in store.events`).
///
/// It drains the same queue as `PurchaseStore.poll`: use one or the other. It ends when the store closes.
public struct StoreEventSequence: AsyncSequence, Sendable {
    public typealias Element = StoreEvent

    let queue: EventQueue
    let ledger: GrantLedger

    /// Iterates the events in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let queue: EventQueue
        let ledger: GrantLedger

        public mutating func next() async -> StoreEvent? {
            while let event = await queue.next() {
                if let delivered = ledger.apply(event) { return delivered }
            }
            return nil
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(queue: queue, ledger: ledger)
    }
}
