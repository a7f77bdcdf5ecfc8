#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// Runs `work` every `interval` on a thread of its own until stopped; `stop` returns once the thread has
/// ended, so that a closed store leaves nothing running and nothing it held alive. `requestStop` only asks
/// (for a caller that must not wait: one on Swift's concurrency pool), and `join` waits afterwards; a thread
/// never joined is let go once it has ended.
///
/// `@unchecked Sendable`: `stopped` and the runs' bookkeeping are guarded by `condition`; `thread` is set once
/// in `init`.
final class PeriodicWatcher: @unchecked Sendable {
    private let condition = ThreadCondition()
    private var stopped = false
    /// Whether `runNow` asked for a run before the interval is over.
    private var runRequested = false
    /// How many runs of `work` have started, and the callers of `runNow` waiting for the end of run number `after`.
    private var runsStarted = 0
    private var runWaiters: [(after: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var thread: JoinableThread?

    init(name: String, interval: Duration, work: @escaping @Sendable () -> Void) {
        thread = JoinableThread(name: name) { [condition] in
            condition.lock()
            while !self.stopped {
                if !self.runRequested {
                    condition.wait(timeout: interval)
                }
                if self.stopped { break }
                self.runRequested = false
                self.runsStarted += 1
                let run = self.runsStarted
                condition.unlock()
                work()
                condition.lock()
                let done = self.runWaiters.filter { $0.after <= run }
                self.runWaiters.removeAll { $0.after <= run }
                condition.unlock()
                done.forEach { $0.continuation.resume() }
                condition.lock()
            }
            let left = self.runWaiters
            self.runWaiters = []
            condition.unlock()
            left.forEach { $0.continuation.resume() }
        }
    }

    /// Runs `work` now rather than at the end of the interval, and returns once a run that started after the call
    /// has ended (or the watcher has stopped): the sign, for tests, that what was there to see has been seen.
    func runNow() async {
        await waitForRuns(1, now: true)
    }

    /// Returns once `count` runs that started after the call have ended, at the watcher's own pace (or once it has
    /// stopped): for tests of what the watcher sees by itself.
    func waitForRuns(_ count: Int) async {
        await waitForRuns(count, now: false)
    }

    private func waitForRuns(_ count: Int, now: Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            let isStopped = stopped
            if !isStopped {
                runWaiters.append((runsStarted + count, continuation))
                if now {
                    runRequested = true
                    condition.signal()
                }
            }
            condition.unlock()
            if isStopped { continuation.resume() }
        }
    }

    /// Stops the thread and waits until it has ended (the work in progress, if any, finishes first).
    /// Stopping twice does nothing. It blocks the calling thread: async code calls `requestStop()`.
    @available(*, noasync, message: "waits for the work in progress; call requestStop() instead")
    func stop() {
        requestStop()
        join(timeout: .seconds(60))
    }

    /// Stops the thread without waiting: the work in progress, if any, finishes on its own, and nothing runs
    /// after it.
    func requestStop() {
        condition.lock()
        stopped = true
        condition.signal()
        condition.unlock()
    }

    /// Waits until the thread has ended after `requestStop`, at most `timeout`; says whether it has.
    @available(*, noasync, message: "blocks a thread of the concurrency pool")
    @discardableResult
    func join(timeout: Duration) -> Bool {
        thread?.join(timeout: timeout) ?? true
    }
}
