import IOSiAPCore

/// The events being handed to the game's callback, each with whether the game called `iosiap_event_not_handled`
/// for it. Several are in it at once when two threads poll, or a callback polls again; each is found by its
/// event's address, which no other event has while its callback runs, never by its place in the list.
final class EventsInCallback: Sendable {
    private let entries = Locked<[(event: UnsafeRawPointer, handled: Bool)]>([])

    /// `event`'s callback starts: handled unless marked.
    func enter(_ event: UnsafeRawPointer) {
        entries.withLock { $0.append((event, true)) }
    }

    /// Marks `event` not handled; false if no callback is handling it.
    func markNotHandled(_ event: UnsafeRawPointer) -> Bool {
        entries.withLock { entries in
            guard let index = entries.lastIndex(where: { $0.event == event }) else { return false }
            entries[index].handled = false
            return true
        }
    }

    /// `event`'s callback returned; says whether it handled the event.
    func leave(_ event: UnsafeRawPointer) -> Bool {
        entries.withLock { entries in
            guard let index = entries.lastIndex(where: { $0.event == event }) else { return true }
            return entries.remove(at: index).handled
        }
    }
}
