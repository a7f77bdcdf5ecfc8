import Foundation

/// A task executor with one thread of its own: the store's worker runs there, so that its blocking work
/// (SQLite commits with fsync, a lock another process holds for seconds) never takes a thread from
/// Swift's small shared pool, which the game and its other tasks need.
///
/// `@unchecked Sendable`: the job list is guarded by `condition`; `thread` is set once in `init`.
final class SerialThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false
    private var thread: JoinableThread?

    init(name: String) {
        thread = JoinableThread(name: name) { [self] in run() }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once the jobs already queued have run.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    /// Waits until the thread has ended (after `stop`), at most `timeout`; see `JoinableThread.join`.
    @discardableResult
    func join(timeout: Duration) -> Bool {
        thread?.join(timeout: timeout) ?? true
    }

    /// Lets the thread end on its own.
    func detach() {
        thread?.detach()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
