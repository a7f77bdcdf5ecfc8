/// The store's events as an `AsyncSequence`, for Swift games (`for await event in store.events`).
///
/// It drains the same queue as `PurchaseStore.poll`: use one or the other. It ends when the store closes.
public struct StoreEventSequence: AsyncSequence, Sendable {
    public typealias Element = StoreEvent

    let queue: EventQueue
    let worker: StoreWorker

    /// Iterates the events in order. An event counts as handled (a `revoked` is then noted told, and not told again
    /// at the next launch) once the game asks for the next one: a loop body that throws, a `break` and a cancelled
    /// task all end the loop before, so the last event taken is told again at the next launch.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let queue: EventQueue
        let worker: StoreWorker
        /// The event last returned, handled once `next` is called again.
        var returned: StoreEvent?

        public mutating func next() async -> StoreEvent? {
            if let handled = returned {
                returned = nil
                worker.delivered(handled)
            }
            while let event = await queue.next() {
                if let delivered = worker.handOut(event) {
                    returned = delivered
                    return delivered
                }
            }
            return nil
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(queue: queue, worker: worker, returned: nil)
    }
}
