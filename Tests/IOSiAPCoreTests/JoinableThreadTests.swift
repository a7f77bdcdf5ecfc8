import Foundation
@testable import IOSiAPCore
import Testing

/// The thread the store's worker and watcher run on: joining waits for its end, up to a limit.
@Suite struct JoinableThreadTests {
    @Test func joiningWaitsUntilTheBodyHasReturned() {
        let finished = Locked(false)
        let thread = JoinableThread(name: "test.join") {
            usleep(50_000)
            finished.withLock { $0 = true }
        }
        #expect(thread.join(timeout: .seconds(10)))
        #expect(finished.withLock { $0 })
        #expect(thread.join(timeout: .milliseconds(1)))  // joined already: it has ended
    }

    @Test func pastTheTimeoutTheThreadIsLeftToEndOnItsOwn() {
        let release = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        let thread = JoinableThread(name: "test.timeout") {
            release.wait()
            ended.signal()
        }
        #expect(!thread.join(timeout: .milliseconds(50)))
        release.signal()
        #expect(ended.wait(timeout: .now() + 10) == .success)  // it still ran to its end
        #expect(!thread.join(timeout: .seconds(1)))  // detached: nothing to wait for any more
    }

    @Test func aDetachedThreadRunsToItsEnd() {
        let ended = DispatchSemaphore(value: 0)
        let thread = JoinableThread(name: "test.detach") { ended.signal() }
        thread.detach()
        thread.detach()  // once is enough; twice does nothing
        #expect(ended.wait(timeout: .now() + 10) == .success)
    }
}
