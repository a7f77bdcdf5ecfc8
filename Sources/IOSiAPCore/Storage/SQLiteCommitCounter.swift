import CSQLite
import Synchronization

/// Counts the write transactions this process commits to each database file (by file name), for the benchmarks'
/// commits-per-purchase figure: with WAL and `synchronous = FULL`, each is one sync of the disk. Off until `start`;
/// then the connections opened afterwards count theirs (SQLite's commit hook), at the cost of one lock per commit.
package enum SQLiteCommitCounter {
    private static let isCounting = Atomic<Bool>(false)
    private static let counts = Locked<[String: Int]>([:])

    /// Counts from now on, from zero, on the connections opened from now on.
    package static func start() {
        counts.withLock { $0 = [:] }
        isCounting.store(true, ordering: .releasing)
    }

    /// The commits counted so far, by database file name.
    package static var commits: [String: Int] { counts.withLock { $0 } }

    /// The file a connection counts its commits for; kept alive by the connection, which passes it to SQLite's hook.
    final class CountedFile {
        let name: String
        init(name: String) { self.name = name }
    }

    /// Installs the commit hook on `connection` if counting is on; the caller keeps the returned file while the
    /// connection lives.
    static func install(on connection: OpaquePointer, path: String) -> CountedFile? {
        guard isCounting.load(ordering: .acquiring) else { return nil }
        let file = CountedFile(name: String(path.split(separator: "/").last ?? Substring(path)))
        sqlite3_commit_hook(connection, { context in
            guard let context else { return 0 }
            let name = Unmanaged<CountedFile>.fromOpaque(context).takeUnretainedValue().name
            SQLiteCommitCounter.counts.withLock { $0[name, default: 0] += 1 }
            return 0  // let the commit go on
        }, Unmanaged.passUnretained(file).toOpaque())
        return file
    }
}
