import Foundation
import IOSiAPCore

/// A fresh state directory for one test, removed when the value goes away.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The folder.
    public let url: URL

    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("iosiap-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The folder as a `StateDirectory`.
    public var state: StateDirectory {
        get throws { try StateDirectory(url) }
    }
}
