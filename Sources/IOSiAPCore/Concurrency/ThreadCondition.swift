#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// A mutex with a condition variable (pthread's), for the threads of our own that wait for work: what
/// `NSCondition` offers, without classic Foundation (which would link ICU into libiosiap). Timed waits run on the
/// monotonic clock, so that a change of the wall clock neither cuts them short nor makes them last.
///
/// `@unchecked Sendable`: the pthread objects are made for use from many threads.
package final class ThreadCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition.initialize(to: pthread_cond_t())
        #if canImport(Darwin)
        pthread_cond_init(condition, nil)
        #else
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        #endif
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deinitialize(count: 1)
        mutex.deinitialize(count: 1)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }
    /// Wakes one waiting thread; called with the lock held.
    package func signal() { pthread_cond_signal(condition) }

    /// Unlocks, waits until signalled (or woken spuriously: callers wait in a loop over their predicate), and
    /// locks again. Called with the lock held.
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// The longest single wait: a longer timeout waits this long (callers wait in a loop over their predicate), so
    /// that no deadline overflows.
    package static let longestWait = Duration.seconds(365 * 86_400)

    /// `wait()`, for at most `timeout` (at most `longestWait`; none if negative).
    package func wait(timeout: Duration) {
        let (seconds, attoseconds) = min(max(timeout, .zero), Self.longestWait).components
        let nanoseconds = Int(attoseconds / 1_000_000_000)
        #if canImport(Darwin)
        var relative = timespec(tv_sec: Int(seconds), tv_nsec: nanoseconds)
        pthread_cond_timedwait_relative_np(condition, mutex, &relative)
        #else
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        deadline.tv_sec += Int(seconds)
        deadline.tv_nsec += nanoseconds
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        pthread_cond_timedwait(condition, mutex, &deadline)
        #endif
    }
}
