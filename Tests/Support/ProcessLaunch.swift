import Foundation

/// Starts the tests' child processes one at a time: Foundation's `Process.run` on Linux crashed once (a bad
/// memory copy inside it) while tests running in parallel started processes at the same moment.
public enum ProcessLaunch {
    private static let lock = NSLock()

    public static func run(_ process: Process) throws {
        lock.lock()
        defer { lock.unlock() }
        try process.run()
    }
}
