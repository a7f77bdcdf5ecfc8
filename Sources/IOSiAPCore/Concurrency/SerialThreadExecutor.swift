#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A task executor with one thread of its own: the store's worker runs there, so that its blocking work
/// (SQLite commits with fsync, a lock another process holds for seconds) never takes a thread from
/// Swift's small shared pool, which the game and its other tasks need.
///
/// `@unchecked Sendable`: the job list and the idle state are guarded by `condition`; `thread` is set once in `init`.
package final class SerialThreadExecutor: TaskExecutor, @unchecked Sendable {
    /// One thread for the library's own tasks outside any store's worker: StoreKit's listeners, the App Store's
    /// sheets, the timers of verification retries, the work behind the C ABI's blocking calls. They never wait for
    /// a thread of Swift's concurrency pool, which the game's own tasks may keep busy (or block): a busy pool delays
    /// no update, sheet or retry of the store. Most of them wait suspended, leaving the thread free meanwhile; the
    /// store's queries (`PurchaseStore`'s storefront, status, history) also run here, and one waiting on another
    /// process's lock of the local store's database holds the others up until it ends. It lives as long as the
    /// process.
    package static let libraryTasks = SerialThreadExecutor(name: "iosiap.tasks")

    private let condition = ThreadCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false
    /// Whether a job is running now, and whether the thread has ended: with `jobs`, whether it is idle.
    private var running = false
    private var ended = false
    /// The tasks waiting in `waitUntilIdle`.
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    private var thread: JoinableThread?

    package init(name: String) {
        thread = JoinableThread(name: name) { [self] in run() }
    }

    package func enqueue(_ job: consuming ExecutorJob) {
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

    /// Waits until the thread has ended (after `stop`), at most `timeout`; see `JoinableThread.join`. It blocks
    /// the calling thread: async code awaits `join(timeout:) async`.
    @available(*, noasync, message: "blocks a thread of the concurrency pool; await join(timeout:) async instead")
    @discardableResult
    func join(timeout: Duration) -> Bool {
        thread?.join(timeout: timeout) ?? true
    }

    /// `join(timeout:)`, waited for on a thread of its own.
    @discardableResult
    func join(timeout: Duration) async -> Bool {
        guard let thread else { return true }
        return await thread.join(timeout: timeout)
    }

    /// Waits until no job runs or waits here: everything enqueued before the call, and what it enqueued in turn,
    /// has run (or the thread has ended). A task suspended on something outside (a timer, a continuation another
    /// thread resumes) is not waited for. The sign, for tests, that the worker has done all it was given.
    package func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            condition.lock()
            let idle = ended || (jobs.isEmpty && !running)
            if !idle { idleWaiters.append(continuation) }
            condition.unlock()
            if idle { continuation.resume() }
        }
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
                ended = true
                let waiters = idleWaiters
                idleWaiters = []
                condition.unlock()
                waiters.forEach { $0.resume() }
                return
            }
            let job = jobs.removeFirst()
            running = true
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
            condition.lock()
            running = false
            let waiters = jobs.isEmpty ? idleWaiters : []
            if jobs.isEmpty { idleWaiters = [] }
            condition.unlock()
            waiters.forEach { $0.resume() }
        }
    }
}
