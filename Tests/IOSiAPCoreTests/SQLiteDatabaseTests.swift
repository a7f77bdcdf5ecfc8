import Foundation
@testable import IOSiAPCore
import IOSiAPTestSupport
import Testing

@Suite struct SQLiteDatabaseTests {
    /// Two processes (here: two connections on two threads) opening a fresh state directory at once: each
    /// migration runs once, and neither open fails.
    @Test func twoConnectionsMigratingAFreshDatabaseAtOnceBothSucceed() throws {
        let migrations = ["CREATE TABLE a (x INTEGER);", "CREATE TABLE b (y INTEGER);", "ALTER TABLE a ADD COLUMN z INTEGER;"]
        for round in 0..<30 {
            let folder = TemporaryDirectory()
            let path = folder.url.appendingPathComponent("race-\(round).sqlite").path
            let failures = Locked<[String]>([])
            let start = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            for _ in 0..<2 {
                group.enter()
                Thread {
                    defer { group.leave() }
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
            group.wait()
            #expect(failures.withLock { $0 }.isEmpty, "round \(round): \(failures.withLock { $0 })")
            #expect(try SQLiteDatabase(path: path).userVersion == migrations.count)
        }
    }
}
