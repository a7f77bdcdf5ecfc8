import Foundation
import IOSiAPCore

/// Runs `work` every `interval` on a thread of its own until stopped; `stop` returns once the thread has
/// ended, so that a closed store leaves nothing running and nothing it held alive.
///
/// `@unchecked Sendable`: `stopped` is guarded by `condition`; `thread` is set once in `init`.
final class PeriodicWatcher: @unchecked Sendable {
    private let condition = NSCondition()
    private var stopped = false
    private var thread: JoinableThread?

    init(name: String, interval: Duration, work: @escaping @Sendable () -> Void) {
        thread = JoinableThread(name: name) { [condition] in
            condition.lock()
            while !self.stopped {
                _ = condition.wait(until: Date().addingTimeInterval(interval.timeInterval))
                if self.stopped { break }
                condition.unlock()
                work()
                condition.lock()
            }
            condition.unlock()
        }
    }

    /// Stops the thread and waits until it has ended (the work in progress, if any, finishes first).
    /// Stopping twice does nothing.
    func stop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
        thread?.join(timeout: .seconds(60))
    }
}
