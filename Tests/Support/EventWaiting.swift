import Foundation
import IOSiAPCore

/// The test could not see the event it waited for.
public struct EventTimeout: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

/// Waits, without polling any store, until `condition` holds; throws after 10 s.
public func waitUntil(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() {
        guard ContinuousClock.now < deadline else { throw EventTimeout(description: "condition not met within 10 s") }
        try await Task.sleep(for: .milliseconds(2))
    }
}

extension PurchaseStore {
    /// Polls like a game loop until `isLast` accepts an event, and returns every event polled up to it.
    /// Throws after `timeout` with the events seen so far.
    public func pollUntil(timeout: Duration = .seconds(10),
                          _ isLast: (StoreEvent) -> Bool) async throws -> [StoreEvent] {
        var seen: [StoreEvent] = []
        let deadline = ContinuousClock.now + timeout
        while true {
            // One event at a time, so that nothing after the awaited event is taken from the queue.
            var event: StoreEvent?
            while poll(limit: 1, { event = $0 }) == 1, let polled = event {
                seen.append(polled)
                if isLast(polled) { return seen }
            }
            // Polled once more after the deadline: a test task the busy machine resumed late still sees what came.
            guard ContinuousClock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(2))
        }
        throw EventTimeout(description: "no matching event within \(timeout); saw \(seen)")
    }

    /// Polls until the terminal event of `requestID`, and returns all events polled up to it.
    public func pollUntilTerminal(of requestID: RequestID) async throws -> [StoreEvent] {
        try await pollUntil { $0.requestID == requestID && $0.isTerminal }
    }

    /// Polls for a while and returns whatever arrived: for checking that nothing more comes.
    public func pollFor(_ duration: Duration) async throws -> [StoreEvent] {
        var seen: [StoreEvent] = []
        let deadline = ContinuousClock.now + duration
        while ContinuousClock.now < deadline {
            poll { seen.append($0) }
            try await Task.sleep(for: .milliseconds(5))
        }
        poll { seen.append($0) }
        return seen
    }
}
