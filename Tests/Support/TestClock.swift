import Foundation
import IOSiAPCore

/// A clock a test moves by hand.
public final class TestClock: Sendable {
    private let current = Locked(Date(timeIntervalSince1970: 1_767_225_600))  // 2026-01-01T00:00:00Z
    public init() {}
    public var now: Date { current.withLock { $0 } }
    public func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
