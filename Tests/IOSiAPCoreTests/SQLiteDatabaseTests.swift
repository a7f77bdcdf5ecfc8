import Foundation
@testable import IOSiAPCore
import IOSiAPTestSupport
import Testing

@Suite struct SQLiteDatabaseTests {
    /// Two processes (here: two connections on two threads) opening a fresh state directory at once: each
    /// migration runs once, and neither open fails.
    @Test func twoConnectionsMigratingAFreshDatabaseAtOnceBothSucceed() async throws {
        let migrations = ["CREATE TABLE a (x INTEGER);", "CREATE TABLE b (y INTEGER);", "ALTER TABLE a ADD COLUMN z INTEGER;"]
        for round in 0..<30 {
            let folder = TemporaryDirectory()
            let path = folder.url.appendingPathComponent("race-\(round).sqlite").path
            let failures = Locked<[String]>([])
            // The two opens race on threads of their own; the test awaits them (never blocking a thread of the
            // concurrency pool, which every other test's tasks need).
            let start = DispatchSemaphore(value: 0)
            let ended = AsyncSignal()
            for _ in 0..<2 {
                Thread {
                    defer { ended.signal() }
                    start.wait()
                    do {
                        let database = try SQLiteDatabase(path: path)
                        try database.migrate(migrations)
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }.start()
            }
            start.signal()
            start.signal()
            await ended.wait()
            await ended.wait()
            #expect(failures.withLock { $0 }.isEmpty, "round \(round): \(failures.withLock { $0 })")
            #expect(try SQLiteDatabase(path: path).userVersion == migrations.count)
        }
    }

    /// The same SQL run many times reuses one prepared statement: each use sees only its own bindings (a
    /// parameter not passed is NULL, not the last use's value), a statement prepared before another
    /// connection changed the schema still runs, and a statement whose step failed midway works at its next
    /// use and holds no lock.
    /// Text is stored and read whole, NUL characters included: two texts differing after a NUL are two keys
    /// (an untrusted id, such as a Server API request identifier, must not match another's).
    @Test func textWithANULCharacterIsKeptWhole() throws {
        let folder = TemporaryDirectory()
        let database = try SQLiteDatabase(path: folder.url.appendingPathComponent("nul.sqlite").path)
        try database.execute("CREATE TABLE t (k TEXT PRIMARY KEY)")
        try database.query("INSERT INTO t (k) VALUES (?)", [.text("a\u{0}b")])
        try database.query("INSERT INTO t (k) VALUES (?)", [.text("a\u{0}c")])
        #expect(try database.query("SELECT k FROM t ORDER BY k") == [[.text("a\u{0}b")], [.text("a\u{0}c")]])
        #expect(try database.query("SELECT count(*) FROM t WHERE k = ?", [.text("a\u{0}c")]) == [[.integer(1)]])
        #expect(try database.query("SELECT ?", [.text("é\u{0}")]) == [[.text("é\u{0}")]])
    }

    @Test func aReusedStatementStartsAfreshAtEveryUse() throws {
        let folder = TemporaryDirectory()
        let path = folder.url.appendingPathComponent("reuse.sqlite").path
        let database = try SQLiteDatabase(path: path)
        try database.execute("CREATE TABLE t (x INTEGER)")
        for value in 1...200 { try database.query("INSERT INTO t (x) VALUES (?)", [.integer(Int64(value))]) }
        for value in 1...200 {
            #expect(try database.query("SELECT x FROM t WHERE x >= ? ORDER BY x LIMIT 1", [.integer(Int64(value))]) == [[.integer(Int64(value))]])
        }
        #expect(try database.query("SELECT ?, ?", [.integer(1), .text("two")]) == [[.integer(1), .text("two")]])
        #expect(try database.query("SELECT ?, ?", [.integer(3)]) == [[.integer(3), .null]])

        try SQLiteDatabase(path: path).execute("ALTER TABLE t ADD COLUMN y INTEGER")
        #expect(try database.query("SELECT x FROM t WHERE x >= ? ORDER BY x LIMIT 1", [.integer(7)]) == [[.integer(7)]])

        // abs() of the smallest integer overflows: the step fails on that row, after others were read.
        let magnitudes = "SELECT abs(x) FROM t ORDER BY x DESC"
        try database.query("INSERT INTO t (x) VALUES (?)", [.integer(Int64.min)])
        #expect(throws: StoreError.self) { try database.query(magnitudes) }
        let other = try SQLiteDatabase(path: path, busyTimeout: .milliseconds(50))
        try other.query("DELETE FROM t WHERE x = ?", [.integer(Int64.min)])  // no read left open by the failure
        #expect(try database.query(magnitudes).count == 200)
    }

    /// What waits for a commit runs after it, in order, and never for writes that were rolled back,
    /// also those of a savepoint rolled back inside a transaction that commits.
    @Test func commitActionsRunOnlyOnceTheirWritesAreCommitted() throws {
        let folder = TemporaryDirectory()
        let database = try SQLiteDatabase(path: folder.url.appendingPathComponent("actions.sqlite").path)
        try database.execute("CREATE TABLE t (x INTEGER)")
        var ran: [String] = []
        database.onCommit { ran.append("outside") }
        #expect(ran == ["outside"])

        try database.transaction { () throws(StoreError) in
            try database.query("INSERT INTO t (x) VALUES (1)")
            database.onCommit { ran.append("outer") }
            try database.transaction { () throws(StoreError) in database.onCommit { ran.append("kept savepoint") } }
            _ = try? database.transaction { () throws(StoreError) in
                database.onCommit { ran.append("rolled back savepoint") }
                throw StoreError(.storageFailure, "test")
            }
            #expect(ran == ["outside"])  // nothing is committed yet
        }
        #expect(ran == ["outside", "outer", "kept savepoint"])

        #expect(throws: StoreError.self) {
            try database.transaction { () throws(StoreError) in
                database.onCommit { ran.append("rolled back") }
                throw StoreError(.storageFailure, "test")
            }
        }
        #expect(ran == ["outside", "outer", "kept savepoint"])
        #expect(try database.query("SELECT count(*) FROM t") == [[.integer(1)]])
    }

    /// Reads in one snapshot see the database as it was when the first ran: another connection's commit
    /// in between shows only afterwards.
    @Test func readsInOneSnapshotSeeNoCommitMadeBetweenThem() throws {
        let folder = TemporaryDirectory()
        let path = folder.url.appendingPathComponent("snapshot.sqlite").path
        let database = try SQLiteDatabase(path: path)
        try database.prepareForDurableUse()
        try database.execute("CREATE TABLE t (x INTEGER); INSERT INTO t (x) VALUES (1);")
        let other = try SQLiteDatabase(path: path)
        let count = "SELECT count(*) FROM t"
        let (before, after) = try database.snapshot { () throws(StoreError) in
            let before = try database.query(count)
            try other.query("INSERT INTO t (x) VALUES (2)")
            return (before, try database.query(count))
        }
        #expect(before == [[.integer(1)]] && after == before)
        #expect(try database.query(count) == [[.integer(2)]])
    }
}
