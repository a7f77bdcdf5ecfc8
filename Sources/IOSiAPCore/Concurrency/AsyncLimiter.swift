/// Lets at most a fixed number of async operations run at once; the others wait, first come first served.
///
/// The store's worker runs its verifications through one limiter, so that a slow verification server
/// ties up a bounded number of checks and the rest wait their turn instead of piling onto the server.
final class AsyncLimiter: Sendable {
    private struct State {
        var available: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Locked<State>

    /// A limiter that lets `limit` (at least 1) operations run at once.
    init(limit: Int) {
        state = Locked(State(available: max(limit, 1)))
    }

    /// Waits for a turn, runs `operation`, then hands the turn to the operation waiting longest.
    func run<T: Sendable>(_ operation: () async -> T) async -> T {
        await acquire()
        defer { release() }
        return await operation()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let mayRun = state.withLock { state in
                guard state.available > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.available -= 1
                return true
            }
            if mayRun { continuation.resume() }
        }
    }

    private func release() {
        // The turn passes straight to the next waiter, so that no newcomer overtakes it.
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.available += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
