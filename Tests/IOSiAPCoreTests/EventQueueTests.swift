@testable import IOSiAPCore
import Testing

@Suite struct EventQueueTests {
    func event(_ n: UInt64) -> StoreEvent { .cancelled(requestID: n, productID: "p") }

    @Test func drainsInOrderUpToTheLimit() {
        let queue = EventQueue()
        #expect(queue.isEmpty)
        #expect(queue.drain().isEmpty)
        for n: UInt64 in 1...5 { queue.push(event(n)) }
        #expect(!queue.isEmpty)
        #expect(queue.drain(limit: 2) == [event(1), event(2)])
        #expect(queue.drain() == [event(3), event(4), event(5)])
        #expect(queue.isEmpty)
        queue.push(event(6))
        #expect(queue.drain(limit: 0).isEmpty)
        #expect(queue.drain() == [event(6)])
    }

    @Test func anAsyncConsumerGetsEventsPushedLater() async {
        let queue = EventQueue()
        async let received = queue.next()
        try? await Task.sleep(for: .milliseconds(20))
        queue.push(event(7))
        #expect(await received == event(7))
        #expect(queue.isEmpty)
    }

    @Test func closingEndsWaitingConsumersButKeepsQueuedEvents() async {
        let queue = EventQueue()
        queue.push(event(1))
        queue.close()
        queue.push(event(2))
        #expect(await queue.next() == event(1))
        #expect(await queue.next() == nil)
    }

    @Test func cancellingAWaitingConsumerEndsItsWait() async {
        let queue = EventQueue()
        let waiting = Task { await queue.next() }
        try? await Task.sleep(for: .milliseconds(20))
        waiting.cancel()
        #expect(await waiting.value == nil)
        queue.push(event(8))
        #expect(queue.drain() == [event(8)])
    }
}
