#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// The local store's clock moving in a process that serves its state directory without a game
/// (`iosiap-store serve`): every `interval`, what a running game's store does on its own
/// (`LocalStore.updates()`'s watcher): the subscriptions whose period is over renew at the store's time rate, or
/// end, go into billing retry and out of it, their grace periods end; so the Server API reads them as they are and
/// the notification sender (`startNotificationSender`) tells of them on time. Made by `LocalStore.startClock`;
/// `stop()` stops it and waits for a tick under way; letting it go stops it without waiting.
///
/// Beside a running game on the same state directory, both move the clock: each tick decides inside one SQL
/// transaction, so a renewal is made once, by whichever comes first; what this process changes, the game learns as
/// another process's change (and an end as one it was not told of). It hands out no purchase intent and no App Store
/// message: those wait for the game.
public final class LocalStoreClock: Sendable {
    private let watcher: PeriodicWatcher

    fileprivate init(store: LocalStore, interval: Duration) {
        // The store is held until the clock stops: the clock is what keeps serving it.
        watcher = PeriodicWatcher(name: "iosiap.localstore.clock", interval: interval) {
            try? store.advanceTime()  // a failing look is tried again at the next tick
        }
    }

    /// Stops the clock; returns once a tick under way has ended. Stopping twice does nothing. It blocks the calling
    /// thread: async code awaits `stop() async`.
    @available(*, noasync, message: "waits for a tick under way; await stop() async instead")
    public func stop() {
        watcher.stop()
    }

    /// `stop()` for async code: the wait for a tick under way runs on a thread of its own, never on one of Swift's
    /// concurrency pool.
    public func stop() async {
        await onThreadOfItsOwn(name: "iosiap.localstore.clock-stop") { self.stop() }
    }

    deinit {
        // Without waiting (the last reference may go on any thread, a thread of the pool too): a tick under way
        // ends on its own, and the thread with it.
        watcher.requestStop()
    }
}

extension LocalStore {
    /// Starts moving the store's clock from this process, as a running game's store does, for a process that serves
    /// the state directory without one (`iosiap-store serve`): see `LocalStoreClock`. Keep the clock, and stop it
    /// when done.
    public func startClock(interval: Duration = LocalStore.externalChangeInterval) -> LocalStoreClock {
        LocalStoreClock(store: self, interval: interval)
    }
}
