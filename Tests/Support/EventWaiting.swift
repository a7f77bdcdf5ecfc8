import Foundation
import IOSiAPCore

// How tests wait. Every wait here suspends its task (`Task.sleep`, a continuation) and never blocks a thread:
// Swift Testing runs the tests in parallel on Swift's concurrency pool, which has as many threads as the machine
// has cores, and a test that blocks one (a semaphore, a join, a sleep, a blocking call) holds up every other
// test's tasks, and the library's own, until it returns. A blocking call a test must make runs on a thread of its
// own (`onThreadOfItsOwn`). A deadline is checked once more after it passes: on a busy machine a task may resume
// long after it asked to, and what it waited for may have come meanwhile.

/// The test could not see the event it waited for.
public struct EventTimeout: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

/// Waits, without polling any store, until `condition` holds; throws after 10 s.
public func waitUntil(_ condition: () throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while try !condition() {
        // Checked once more after the deadline: a task the busy machine resumed late still sees what came.
        guard ContinuousClock.now < deadline else {
            if try condition() { return }
            throw EventTimeout(description: "condition not met within 10 s")
        }
        try await Task.sleep(for: .milliseconds(2))
    }
}

/// A signal one thread gives and a task awaits, counted: `wait()` returns once `signal()` was called as many times as
/// it was waited for. The async stand-in for `DispatchSemaphore` where a test waits for another thread (a callback).
public final class AsyncSignal: Sendable {
    private struct State {
        var signals = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    public init() {}

    /// Lets the task waiting longest go on, or the next one to wait; callable from any thread.
    public func signal() {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            if state.waiters.isEmpty {
                state.signals += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.resume()
    }

    /// Waits, suspended, for a signal.
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let signalled = state.withLock { state in
                if state.signals > 0 {
                    state.signals -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if signalled { continuation.resume() }
        }
    }
}

extension PurchaseStore {
    /// Polls like a game loop until `isLast` accepts an event, and returns every event polled up to it.
    /// Throws after `timeout` with the events seen so far.
    public func pollUntil(timeout: Duration = .seconds(10),
                          _ isLast: (StoreEvent) -> Bool) async throws -> [StoreEvent] {
        var seen: [StoreEvent] = []
        let deadline = ContinuousClock.now + timeout
        while true {
            // One event at a time, so that nothing after the awaited event is taken from the queue.
            var event: StoreEvent?
            while poll(limit: 1, { event = $0 }) == 1, let polled = event {
                seen.append(polled)
                if isLast(polled) { return seen }
            }
            // Polled once more after the deadline: a test task the busy machine resumed late still sees what came.
            guard ContinuousClock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(2))
        }
        throw EventTimeout(description: "no matching event within \(timeout); saw \(seen)")
    }

    /// Polls until the terminal event of `requestID`, and returns all events polled up to it.
    public func pollUntilTerminal(of requestID: RequestID) async throws -> [StoreEvent] {
        try await pollUntil { $0.requestID == requestID && $0.isTerminal }
    }

    /// Waits until the store's worker has done everything it was given so far (the requests, the backend's updates,
    /// the work beside them, up to where it waits on something outside: a verifier, a sheet, a timer), then polls
    /// what is queued: for checking that nothing (more) comes of what happened before the call. The worker having
    /// nothing left to do is the positive sign: no time is waited in the hope that it is long enough.
    public func pollSettled() async -> [StoreEvent] {
        await waitUntilWorkerIdle()
        var seen: [StoreEvent] = []
        poll { seen.append($0) }
        return seen
    }
}
