import Foundation
import IOSiAPCore
import IOSiAPTestSupport
import Testing

@Suite struct EventDeliveryThreadTests {
    let folder = TemporaryDirectory()
    let backend = ScriptedBackend()

    /// What a callback saw: each event, and whether it ran on the delivery thread.
    final class Received: Sendable {
        let events = Locked<[(StoreEvent, onDeliveryThread: Bool)]>([])

        func waitFor(_ count: Int) async throws -> [(StoreEvent, onDeliveryThread: Bool)] {
            do {
                try await waitUntil { events.withLock { $0.count } >= count }
            } catch {
                throw EventTimeout(description: "expected \(count) events, got \(events.withLock { $0.map(\.0) })")
            }
            return events.withLock { $0 }
        }
    }

    @Test func eventsArriveInOrderOnTheDeliveryThreadWithoutPolling() async throws {
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
        let received = Received()
        let holder = Locked<EventDeliveryThread?>(nil)
        let thread = EventDeliveryThread(store: store) { event in
            let onThread = holder.withLock { $0 }?.isCurrentThread ?? false
            received.events.withLock { $0.append((event, onThread)) }
        }
        holder.withLock { $0 = thread }
        let products = try store.requestProducts(["coins"])
        _ = try await received.waitFor(1)
        let payment = try store.requestPayment(productID: "coins", quantity: 2)
        let seen = try await received.waitFor(3)
        #expect(seen.map(\.0.requestID) == [products, payment, payment])
        guard case .purchased = seen[2].0 else { Issue.record("expected purchased, got \(seen[2].0)"); return }
        #expect(!thread.isCurrentThread)
        store.close()
        await thread.waitUntilEnded()
        // Only the first callback can have run before `holder` was set.
        #expect(seen.dropFirst().allSatisfy { $0.onDeliveryThread })
    }

    @Test func waitingForTheEndLetsTheCallbackInProgressFinishAndDeliversNothingAfter() async throws {
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
        let insideCallback = AsyncSignal()
        let releaseCallback = DispatchSemaphore(value: 0)  // waited for on the delivery thread, not on the pool
        let callbackReturned = Locked(false)
        let calls = Locked(0)
        let thread = EventDeliveryThread(store: store) { _ in
            guard calls.withLock({ $0 += 1; return $0 }) == 1 else { return }
            insideCallback.signal()
            releaseCallback.wait()
            callbackReturned.withLock { $0 = true }
        }
        _ = try store.requestProducts(["coins"])
        _ = try store.requestProducts(["pro"])
        await insideCallback.wait()
        store.close()
        // A thread of its own waits for the end, as a game's would, and notes whether the callback in progress had
        // returned when its wait ended: a wait that ended early notes false, whenever the test looks.
        let returnedWhenTheWaitEnded = Locked<Bool?>(nil)
        let waiterDone = AsyncSignal()
        Thread {
            thread.waitUntilEnded()
            returnedWhenTheWaitEnded.withLock { $0 = callbackReturned.withLock { $0 } }
            waiterDone.signal()
        }.start()
        releaseCallback.signal()
        await thread.waitUntilEnded()
        await waiterDone.wait()
        #expect(returnedWhenTheWaitEnded.withLock { $0 } == true)
        // The second products request's answer, queued or not, was never delivered after close.
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func waitingForTheEndFromInsideACallbackReturnsAtOnce() async throws {
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state)
        let returned = Locked(false)
        let holder = Locked<EventDeliveryThread?>(nil)
        let opened = DispatchSemaphore(value: 0)  // waited for on the delivery thread, not on the pool
        let thread = EventDeliveryThread(store: store) { _ in
            opened.wait()
            store.close()
            holder.withLock { $0 }?.waitUntilEnded()
            returned.withLock { $0 = true }
        }
        holder.withLock { $0 = thread }
        opened.signal()
        _ = try store.requestProducts(["coins"])
        try await waitUntil { returned.withLock { $0 } }
        await thread.waitUntilEnded()
    }
}
