import Foundation
import IOSiAPCore
import Testing

/// When the system starts no more threads (the process's or the user's limit), the threads a request starts fail
/// that request, or fall back, rather than stop the game. Each test refuses only threads of its own name.
@Suite struct ThreadStartFailureTests {
    @Test func aRefusedStartIsASystemErrorNamingTheThread() {
        JoinableThread.refusedStarts.withLock { $0["test.refused.start"] = 1 }
        let error = #expect(throws: StoreError.self) { try JoinableThread(trying: "test.refused.start") {} }
        #expect(error?.code == .systemError)
        #expect(error?.message.hasPrefix("cannot start a thread (test.refused.start): ") == true, "\(String(describing: error))")
        // The refusal was used up: the next start of that name runs.
        let ran = Locked(false)
        let thread = try? JoinableThread(trying: "test.refused.start") { ran.withLock { $0 = true } }
        #expect(thread?.join(timeout: .seconds(10)) == true)
        #expect(ran.withLock { $0 })
    }

    @Test func aBlockingWaitRunsOnTheCallersThreadWhenNoThreadStarts() async throws {
        JoinableThread.refusedStarts.withLock { $0["test.refused.wait"] = 1 }
        let value = await onThreadOfItsOwn(name: "test.refused.wait") { 42 }
        #expect(value == 42)
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            JoinableThread.refusedStarts.withLock { $0["test.refused.wait"] = 1 }
            _ = try await onThreadOfItsOwn(name: "test.refused.wait") { () throws(Refused) -> Int in throw Refused() }
        }
    }
}
