import Foundation

/// Runs `work` every `interval` on a thread of its own until stopped; `stop` returns once the thread has
/// ended, so that a closed store leaves nothing running and nothing it held alive.
///
/// `@unchecked Sendable`: `stopped` is guarded by `condition`.
final class PeriodicWatcher: @unchecked Sendable {
    private let condition = NSCondition()
    private var stopped = false
    private let finished = DispatchSemaphore(value: 0)

    init(name: String, interval: Duration, work: @escaping @Sendable () -> Void) {
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let thread = Thread { [condition, finished] in
            condition.lock()
            while !self.stopped {
                _ = condition.wait(until: Date().addingTimeInterval(seconds))
                if self.stopped { break }
                condition.unlock()
                work()
                condition.lock()
            }
            condition.unlock()
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Stops the thread and waits until it has ended. Stopping twice does nothing.
    func stop() {
        condition.lock()
        let wasRunning = !stopped
        stopped = true
        condition.signal()
        condition.unlock()
        if wasRunning { finished.wait() }
    }
}
