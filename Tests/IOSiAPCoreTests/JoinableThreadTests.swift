import Foundation
@testable import IOSiAPCore
import IOSiAPTestSupport
import Testing

/// The thread the store's worker and watcher run on: joining waits for its end, up to a limit. The tests await the
/// joins (`join(timeout:) async`): a join blocks its caller, and a test must not block a thread of the concurrency
/// pool.
@Suite struct JoinableThreadTests {
    @Test func joiningWaitsUntilTheBodyHasReturned() async {
        let finished = Locked(false)
        let thread = JoinableThread(name: "test.join") {
            usleep(50_000)
            finished.withLock { $0 = true }
        }
        #expect(await thread.join(timeout: .seconds(10)))
        #expect(finished.withLock { $0 })
        #expect(await thread.join(timeout: .milliseconds(1)))  // joined already: it has ended
    }

    #if os(Linux)
    /// A debugger or a crash report shows the thread's name, cut to the 15 bytes Linux keeps.
    @Test func theThreadCarriesItsName() async throws {
        let seen = Locked("")
        let thread = JoinableThread(name: "iosiap.a-long-thread-name") {
            let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            seen.withLock { $0 = comm.trimmingCharacters(in: .newlines) }
        }
        #expect(await thread.join(timeout: .seconds(10)))
        #expect(seen.withLock { $0 } == "iosiap.a-long-t")
    }
    #endif

    @Test func pastTheTimeoutTheThreadIsLeftToEndOnItsOwn() async throws {
        let release = DispatchSemaphore(value: 0)  // waited for on the joinable thread, not on the pool
        let ended = Locked(false)
        let thread = JoinableThread(name: "test.timeout") {
            release.wait()
            ended.withLock { $0 = true }
        }
        #expect(await !thread.join(timeout: .milliseconds(50)))
        release.signal()
        try await waitUntil { ended.withLock { $0 } }  // it still ran to its end
        #expect(await !thread.join(timeout: .seconds(1)))  // detached: nothing to wait for any more
    }

    @Test func aDetachedThreadRunsToItsEnd() async throws {
        let ended = Locked(false)
        let thread = JoinableThread(name: "test.detach") { ended.withLock { $0 = true } }
        thread.detach()
        thread.detach()  // once is enough; twice does nothing
        try await waitUntil { ended.withLock { $0 } }
    }
}
