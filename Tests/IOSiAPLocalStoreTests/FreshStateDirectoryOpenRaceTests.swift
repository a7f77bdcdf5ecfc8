import Foundation
@testable import IOSiAPCore
@testable import IOSiAPLocalStore
import IOSiAPTestSupport
import Testing

/// Two processes (here: two connections on two threads) opening a fresh state directory's database at
/// once, as the journal and the local store open theirs (write-ahead log, then the schema): each open
/// succeeds (the write-ahead log switch waits for the other, up to the busy timeout), and the schema is
/// never left half-migrated. Enough rounds that the old immediate "database is locked" (1–3% of rounds)
/// shows almost surely.
@Suite struct FreshStateDirectoryOpenRaceTests {
    @Test(arguments: [("journal.sqlite", Journal.migrations), ("localstore.sqlite", LocalStoreStateMigrations.all)])
    func twoOpensOfAFreshDatabaseAtOnceNeverHalfMigrateIt(_ file: String, _ migrations: [String]) async throws {
        for round in 0..<250 {
            let folder = TemporaryDirectory()
            let path = folder.url.appendingPathComponent("\(round)-\(file)").path
            let opened = Locked(0)
            let failures = Locked<[StoreError]>([])
            // The two opens race on threads of their own; the test awaits them (never blocking a thread of the
            // concurrency pool, which every other test's tasks need).
            let start = DispatchSemaphore(value: 0)
            let ended = AsyncSignal()
            for _ in 0..<2 {
                Thread {
                    defer { ended.signal() }
                    start.wait()
                    do throws(StoreError) {
                        let database = try SQLiteDatabase(path: path)
                        try database.prepareForDurableUse()
                        try database.migrate(migrations)
                        opened.withLock { $0 += 1 }
                    } catch {
                        failures.withLock { $0.append(error) }
                    }
                }.start()
            }
            start.signal()
            start.signal()
            await ended.wait()
            await ended.wait()
            #expect(failures.withLock { $0 }.isEmpty, "round \(round): \(failures.withLock { $0 })")
            #expect(opened.withLock { $0 } == 2, "round \(round)")
            let database = try SQLiteDatabase(path: path)
            #expect(try database.query("PRAGMA integrity_check") == [[.text("ok")]])
            #expect(try database.userVersion == migrations.count, "round \(round)")
            try database.prepareForDurableUse()
            try database.migrate(migrations)
            #expect(try database.userVersion == migrations.count)
        }
    }
}
