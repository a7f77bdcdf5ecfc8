/// The store's events as an `AsyncSequence`, for Swift games (`for await event in store.events`).
///
/// It drains the same queue as `PurchaseStore.poll`: use one or the other. It ends when the store closes.
public struct StoreEventSequence: AsyncSequence, Sendable {
    public typealias Element = StoreEvent

    let queue: EventQueue

    /// Iterates the events in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let queue: EventQueue

        public mutating func next() async -> StoreEvent? {
            await queue.next()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(queue: queue)
    }
}
