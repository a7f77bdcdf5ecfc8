#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// Runs `body` on a new thread named `name` and waits for it without holding a thread of Swift's concurrency pool:
/// the async form of a call that blocks its caller (a join, a semaphore, a lock another process holds).
///
/// The pool has as many threads as the machine has cores, and a task that blocks one holds up every other task
/// until it returns: on two cores, two such waits stop all of them. So async code never makes a blocking call
/// itself; it hands it to a thread of its own, as this does. When the system starts no more threads, `body` runs
/// on the calling thread instead: slower for the pool's other tasks, but nothing is lost or stopped.
package func onThreadOfItsOwn<Value: Sendable, Failure: Error>(
    name: String = "iosiap.blocking", _ body: @escaping @Sendable () throws(Failure) -> Value
) async throws(Failure) -> Value {
    let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
        let run: @Sendable () -> Void = {
            do throws(Failure) {
                continuation.resume(returning: .success(try body()))
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        do {
            try JoinableThread(trying: name) {
                #if os(Linux)
                // Signals for the process (a child's SIGCHLD) go to other threads, as they do past the pool's
                // (libdispatch blocks them on its threads): a blocking call here is not cut short by EINTR, which
                // some callers (Foundation's FileHandle on Linux) treat as fatal.
                var all = sigset_t()
                sigfillset(&all)
                pthread_sigmask(SIG_BLOCK, &all, nil)
                #endif
                run()
            }.detach()
        } catch {
            // The system starts no more threads: the wait holds this thread of the pool instead, which slows the
            // other tasks until it returns but loses and stops nothing.
            run()
        }
    }
    return try result.get()
}
