@testable import IOSiAPExports
import Testing

/// `iosiap_event_not_handled` marks the event its caller is handling, and that callback's return reads its own
/// mark, also when another thread's callback, or a nested one, is running meanwhile.
@Suite struct EventsInCallbackTests {
    let first = UnsafeRawPointer(bitPattern: 0x1000)!
    let second = UnsafeRawPointer(bitPattern: 0x2000)!

    /// Two threads poll: the first one's callback says it could not handle its refund, the second one's callback
    /// starts, and the first returns before it. The refund stays not handled (told again at the next launch);
    /// before, the first return took the second callback's entry and noted the refund told.
    @Test func aCallbackOnAnotherThreadThatReturnsLaterKeepsItsOwnMark() {
        let events = EventsInCallback()
        events.enter(first)
        #expect(events.markNotHandled(first))
        events.enter(second)
        #expect(events.leave(first) == false)
        #expect(events.leave(second) == true)
        #expect(!events.markNotHandled(first), "no callback handles it any more")
    }

    /// A callback that polls again: the inner event's mark is its own, the outer one stays handled.
    @Test func aNestedCallbacksMarkIsItsOwn() {
        let events = EventsInCallback()
        events.enter(first)
        events.enter(second)
        #expect(events.markNotHandled(second))
        #expect(events.leave(second) == false)
        #expect(events.leave(first) == true)
    }
}
