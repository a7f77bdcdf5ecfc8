#if canImport(FoundationEssentials)
import FoundationEssentials
import Dispatch
import Glibc
#else
import Foundation
#endif

/// A thread that can be waited for until it has fully ended, its thread-local destructors included
/// (`pthread_join`): OpenSSL frees a thread's random generator there, and a program that exits right after
/// closing the store must not find it still running. A thread nobody waits for is detached, so it never
/// lingers after its end.
///
/// `@unchecked Sendable`: `handle` is written once, before the thread is shared; `state` is locked.
package final class JoinableThread: @unchecked Sendable {
    private enum State { case running, joined, detached }

    private let handle: pthread_t
    private let ended = DispatchSemaphore(value: 0)
    /// A thread is joined or detached once, and only one of them.
    private let state = Locked(State.running)

    /// Starts `body` on a new thread named `name`, or throws `systemError` when the system starts no more threads
    /// (the process's or the user's limit): for the threads a request starts (a verification's POST, a blocking
    /// wait), whose caller can fail that request and go on.
    package init(trying name: String, _ body: @escaping @Sendable () -> Void) throws(StoreError) {
        let ended = self.ended
        let start = Unmanaged.passRetained(StartBox {
            nameCurrentThread(name)
            body()
            ended.signal()
        })
        var status: Int32 = 0
        guard let handle = Self.spawn(start, named: name, status: &status) else {
            start.release()
            throw StoreError(.systemError, "cannot start a thread (\(name)): \(String(cString: strerror(status)))")
        }
        self.handle = handle
    }

    /// Starts `body` on a new thread named `name`; stops the process when the system starts no more threads. For
    /// the threads a store starts when it opens, once per store.
    package convenience init(name: String, _ body: @escaping @Sendable () -> Void) {
        do {
            try self.init(trying: name, body)
        } catch {
            preconditionFailure(error.message)
        }
    }

    /// How many of the next starts of a thread of each name fail as if the system had no thread left (EAGAIN): the
    /// tests' way to reach that failure, which a process started as root cannot reach through its limits. By name,
    /// so that a test refuses only its own threads, never those of the tests running beside it.
    package static let refusedStarts = Locked([String: Int]())

    deinit {
        // Neither joined nor detached (its owner only asked it to stop): let go, so that it never lingers once ended.
        state.withLock { state in
            if state == .running { pthread_detach(handle) }
        }
    }

    /// Waits until the thread has ended, at most `timeout`, and says whether it has. Past the timeout it
    /// is detached and ends on its own. A thread joined before answers `true` at once, one detached `false`.
    /// It blocks the calling thread: async code awaits `join(timeout:) async`.
    @available(*, noasync, message: "blocks a thread of the concurrency pool; await join(timeout:) async instead")
    @discardableResult
    package func join(timeout: Duration) -> Bool {
        // Under the lock, so that a concurrent join or detach waits for the outcome.
        state.withLock { state in
            guard state == .running else { return state == .joined }
            guard ended.wait(timeout: .now() + timeout.timeInterval) == .success else {
                pthread_detach(handle)
                state = .detached
                return false
            }
            pthread_join(handle, nil)  // only its thread-local destructors are left to run
            state = .joined
            return true
        }
    }

    /// `join(timeout:)`, waited for on a thread of its own: for async code, which must not block a thread of
    /// Swift's concurrency pool.
    @discardableResult
    package func join(timeout: Duration) async -> Bool {
        await onThreadOfItsOwn(name: "iosiap.join") { self.join(timeout: timeout) }
    }

    /// Lets the thread end on its own, nobody waiting for it.
    package func detach() {
        state.withLock { state in
            guard state == .running else { return }
            pthread_detach(handle)
            state = .detached
        }
    }

    private final class StartBox {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// The new thread's handle, or nil when none could be started (`status`: pthread_create's error).
    private static func spawn(_ start: Unmanaged<StartBox>, named name: String, status: inout Int32) -> pthread_t? {
        if refusedStarts.withLock({ refused in
            guard let count = refused[name], count > 0 else { return false }
            refused[name] = count > 1 ? count - 1 : nil
            return true
        }) {
            status = EAGAIN
            return nil
        }
        #if canImport(Darwin)
        var thread: pthread_t?
        status = pthread_create(&thread, nil, { argument in
            Unmanaged<StartBox>.fromOpaque(argument).takeRetainedValue().body()
            return nil
        }, start.toOpaque())
        #else
        var thread = pthread_t()
        status = pthread_create(&thread, nil, { argument in
            Unmanaged<StartBox>.fromOpaque(argument!).takeRetainedValue().body()
            return nil
        }, start.toOpaque())
        #endif
        return status == 0 ? thread : nil
    }
}

/// Names the calling thread for debuggers and crash reports (cut to the 15 bytes Linux keeps). On Linux through
/// /proc, as prctl(PR_SET_NAME) does: glibc declares pthread_setname_np only under _GNU_SOURCE, out of Swift's reach.
package func nameCurrentThread(_ name: String) {
    #if canImport(Darwin)
    pthread_setname_np(name)
    #else
    let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    let cut = Array(name.utf8.prefix(15))
    _ = cut.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    #endif
}
