import Dispatch
import Synchronization

/// The queue between the store's worker and the game: the worker pushes, the game drains.
///
/// `drain` is the mechanism behind the C ABI's `poll`: two atomic loads when nothing is queued, so a game
/// can call it every frame. `next()` serves the Swift `AsyncSequence`. Each event reaches one consumer.
/// It only queues: what an event makes durable (the grant ledger's grants) is written before it is pushed.
package final class EventQueue: Sendable {
    private struct State {
        var events: [StoreEvent] = []
        var head = 0
        var waiters: [(id: Int, continuation: CheckedContinuation<StoreEvent?, Never>)] = []
        var closed = false
    }

    private let state = Locked(State())
    /// Mirrors `events.count - head` so that an empty poll takes no lock.
    private let pending = Atomic<Int>(0)
    /// Threads blocked in `waitForEvents`, and what wakes them; pushes signal only when someone sleeps.
    private let sleepers = Atomic<Int>(0)
    private let wakeup = DispatchSemaphore(value: 0)
    private let nextWaiterID = Atomic<Int>(0)
    /// Set by the first `drain` or `next`: from then on the consumer has started.
    private let drained = Atomic<Bool>(false)
    package init() {}

    /// Queues an event, or hands it straight to a waiting async consumer. After close nothing is queued.
    package func push(_ event: StoreEvent) {
        let waiter: CheckedContinuation<StoreEvent?, Never>? = state.withLock { state in
            if state.closed { return nil }
            if !state.waiters.isEmpty { return state.waiters.removeFirst().continuation }
            state.events.append(event)
            pending.add(1, ordering: .sequentiallyConsistent)
            return nil
        }
        waiter?.resume(returning: event)
        wakeSleepers()
    }

    /// Whether anything is queued. Lock-free.
    package var isEmpty: Bool { pending.load(ordering: .acquiring) == 0 }

    /// Whether `close` was called.
    package var isClosed: Bool { state.withLock { $0.closed } }

    /// Whether the consumer has started (a first `drain` or `next`): the game has set up what it reads events with
    /// (the ledger's grants and refund rule).
    package var hasStartedDraining: Bool { drained.load(ordering: .acquiring) }

    /// Blocks the calling thread until an event is queued or the queue is closed: for a delivery thread.
    package func waitForEvents() {
        sleepers.add(1, ordering: .sequentiallyConsistent)
        // Checked after announcing the sleeper, so a push in between either is seen here or signals.
        if pending.load(ordering: .sequentiallyConsistent) == 0 && !isClosed {
            wakeup.wait()
        }
        sleepers.subtract(1, ordering: .sequentiallyConsistent)
    }

    private func wakeSleepers() {
        let count = sleepers.load(ordering: .sequentiallyConsistent)
        for _ in 0..<count { wakeup.signal() }
    }

    /// Removes and returns up to `limit` queued events, oldest first.
    package func drain(limit: Int = .max) -> [StoreEvent] {
        markDrained()
        guard !isEmpty, limit > 0 else { return [] }
        return state.withLock { state in
            let end = state.head + min(state.events.count - state.head, limit)
            let batch = Array(state.events[state.head..<end])
            state.head = end
            if state.head == state.events.count {
                state.events.removeAll(keepingCapacity: true)
                state.head = 0
            }
            pending.subtract(batch.count, ordering: .sequentiallyConsistent)
            return batch
        }
    }

    /// Returns the next event, waiting for one; `nil` once the queue is closed and empty, or when the
    /// waiting task is cancelled.
    package func next() async -> StoreEvent? {
        markDrained()
        if let event = drain(limit: 1).first { return event }
        let waiterID = nextWaiterID.wrappingAdd(1, ordering: .relaxed).oldValue
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate: StoreEvent?? = state.withLock { state in
                    if state.head < state.events.count {
                        let event = state.events[state.head]
                        state.head += 1
                        pending.subtract(1, ordering: .sequentiallyConsistent)
                        return .some(event)
                    }
                    if state.closed || Task.isCancelled { return .some(nil) }
                    state.waiters.append((waiterID, continuation))
                    return .none
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let cancelled = state.withLock { state in
                state.waiters.firstIndex { $0.id == waiterID }.map { state.waiters.remove(at: $0).continuation }
            }
            cancelled?.resume(returning: nil)
        }
    }

    /// Records that the consumer has started; a load, and a store only the first time.
    private func markDrained() {
        if !drained.load(ordering: .relaxed) { drained.store(true, ordering: .releasing) }
    }

    /// Ends the queue: waiting consumers get `nil`, later pushes are dropped.
    package func close() {
        let waiters = state.withLock { state in
            state.closed = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: nil) }
        wakeSleepers()
    }
}
