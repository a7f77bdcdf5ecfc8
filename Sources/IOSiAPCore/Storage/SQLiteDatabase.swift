import CSQLite
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// A value bound to, or read from, an SQL statement.
package enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// One connection to an SQLite database file: the small part of SQLite's C API that the journal and the
/// local store's state need, with every failure turned into a `StoreError` that names the file.
///
/// Statements are prepared once per SQL text and reused, as the same few queries run again and again.
///
/// Not thread-safe by itself: each owner keeps its connection behind a lock.
package final class SQLiteDatabase {
    private var handle: OpaquePointer?
    /// Prepared statements by SQL text, each reset and unbound between uses; finalized when the connection
    /// closes.
    private var statements: [String: OpaquePointer] = [:]
    /// How many statements are kept: far more than the journal and the local store use, so that only SQL
    /// built with values inside (which a caller should not write) is prepared anew at each use.
    private static let statementLimit = 100
    /// What to do once the outermost transaction commits (`onCommit`): one list per open transaction or
    /// savepoint, the innermost last.
    private var commitActions: [[() -> Void]] = []
    /// The database file, for error messages.
    package let path: String
    /// How long a statement waits for a lock another connection holds.
    private let busyTimeout: Duration
    /// What the commit hook counts for, while the benchmarks count commits (`SQLiteCommitCounter`).
    private var countedFile: SQLiteCommitCounter.CountedFile?

    /// Opens (and, with `create`, creates) the database at `path`, waiting up to `busyTimeout` for a lock
    /// another connection holds.
    package init(path: String, create: Bool = true, busyTimeout: Duration = .seconds(5)) throws(StoreError) {
        self.path = path
        self.busyTimeout = busyTimeout
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        if create { flags |= SQLITE_OPEN_CREATE }
        var connection: OpaquePointer?
        let status = sqlite3_open_v2(path, &connection, flags, nil)
        guard status == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close(connection)
            throw StoreError(.storageFailure, "cannot open database \(path): \(message)")
        }
        handle = connection
        let milliseconds = busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(connection, Int32(clamping: milliseconds))
        countedFile = SQLiteCommitCounter.install(on: connection, path: path)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that take no parameters and return no rows.
    package func execute(_ sql: String) throws(StoreError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if status != SQLITE_OK {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_free(errorMessage)
            throw StoreError(.storageFailure, "database \(path): \(message)")
        }
    }

    /// Runs one statement with parameters and returns its rows.
    @discardableResult
    package func query(_ sql: String, _ parameters: [SQLiteValue] = []) throws(StoreError) -> [[SQLiteValue]] {
        let (statement, isKept) = try prepared(sql)
        defer {
            // Ready for the next use, also after a step failed midway: a statement takes new values only
            // once reset, and keeps the last use's until they are cleared.
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            if !isKept { sqlite3_finalize(statement) }
        }
        for (offset, value) in parameters.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32 = switch value {
            case .null: sqlite3_bind_null(statement, index)
            case .integer(let number): sqlite3_bind_int64(statement, index, number)
            case .real(let number): sqlite3_bind_double(statement, index, number)
            // By its byte count, not up to a NUL: text holding one is stored whole.
            case .text(let text):
                text.utf8CString.withUnsafeBufferPointer {
                    sqlite3_bind_text(statement, index, $0.baseAddress, Int32($0.count - 1), iosiap_sqlite_transient())
                }
            case .blob(let bytes): sqlite3_bind_blob(statement, index, bytes, Int32(bytes.count), iosiap_sqlite_transient())
            }
            guard status == SQLITE_OK else { throw failure("cannot bind parameter \(index)") }
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw failure("cannot run \(sql)") }
            rows.append((0..<sqlite3_column_count(statement)).map { column(statement, $0) })
        }
    }

    /// The statement prepared for `sql`, from the kept ones or prepared now (and kept, up to
    /// `statementLimit`).
    private func prepared(_ sql: String) throws(StoreError) -> (statement: OpaquePointer, isKept: Bool) {
        if let statement = statements[sql] { return (statement, true) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
              let statement else {
            throw failure("cannot prepare \(sql)")
        }
        guard statements.count < Self.statementLimit else { return (statement, false) }
        statements[sql] = statement
        return (statement, true)
    }

    /// How many rows the last INSERT, UPDATE or DELETE changed.
    package var changes: Int { Int(sqlite3_changes(handle)) }
    /// Rows this connection has inserted, updated or deleted since it opened (never decreases).
    package var totalChanges: Int { Int(sqlite3_total_changes(handle)) }
    /// Changes with every commit another connection makes to the file (SQLite's `PRAGMA data_version`).
    /// Asked on every entitlement check (every frame, perhaps): stepped on its kept statement, building no rows.
    package func dataVersion() throws(StoreError) -> Int64 {
        let (statement, isKept) = try prepared("PRAGMA data_version")
        defer {
            sqlite3_reset(statement)
            if !isKept { sqlite3_finalize(statement) }
        }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw failure("cannot run PRAGMA data_version") }
        return sqlite3_column_int64(statement, 0)
    }

    /// Runs `body` inside one SQLite transaction: all of its writes land, or none do. Nested calls
    /// become savepoints of the enclosing transaction.
    package func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        let isNested = sqlite3_get_autocommit(handle) == 0
        try execute(isNested ? "SAVEPOINT nested" : "BEGIN IMMEDIATE")
        commitActions.append([])
        let result: T
        do {
            result = try body()
            try execute(isNested ? "RELEASE nested" : "COMMIT")
        } catch {
            commitActions.removeLast()  // what the writes would have made true did not happen
            try? execute(isNested ? "ROLLBACK TO nested; RELEASE nested" : "ROLLBACK")
            throw error
        }
        let actions = commitActions.removeLast()
        if let enclosing = commitActions.indices.last {
            commitActions[enclosing] += actions  // a savepoint's writes are not durable until the outer commit
        } else {
            actions.forEach { $0() }
        }
        return result
    }

    /// Runs `body`'s reads on one snapshot of the database, so that another connection's commit never shows
    /// halfway through them. For reads only; inside a transaction, that transaction is the snapshot already.
    package func snapshot<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        guard sqlite3_get_autocommit(handle) != 0 else { return try body() }
        try execute("BEGIN DEFERRED")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `action` once the writes made so far are committed: after the outermost `transaction` in progress
    /// commits, or now outside one. Dropped if that transaction (or the savepoint it was asked in) rolls
    /// back. For what must follow a write and only a durable one: an announcement, a cached copy. (Only
    /// transactions opened with `transaction` are known here.)
    package func onCommit(_ action: @escaping () -> Void) {
        if let innermost = commitActions.indices.last {
            commitActions[innermost].append(action)
        } else {
            action()
        }
    }

    /// Readies a database that must survive crashes and power cuts: write-ahead log, every commit synced,
    /// and an integrity check first, so that a damaged file is a clear error at open and is left as it is
    /// rather than written over.
    package func prepareForDurableUse() throws(StoreError) {
        // Switching a fresh file to the write-ahead log while another connection opens it too can fail at
        // once with "database is locked" (SQLite does not call the busy handler there): tried again briefly,
        // up to the busy timeout, like any other lock wait.
        let deadline = ContinuousClock.now.advanced(by: busyTimeout)
        while true {
            do throws(StoreError) {
                let check = try query("PRAGMA quick_check").first?.first?.text ?? "no answer"
                guard check == "ok" else {
                    throw StoreError(.storageFailure, "database \(path) is damaged (\(check)); it was left untouched for recovery")
                }
                try execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;")
                return
            } catch {
                guard error.message.contains("locked"), ContinuousClock.now < deadline else { throw error }
                usleep(2000)
            }
        }
    }

    /// The schema version kept in SQLite's `user_version`.
    package var userVersion: Int {
        get throws(StoreError) {
            guard case .integer(let version) = try query("PRAGMA user_version").first?.first else { return 0 }
            return Int(version)
        }
    }

    /// Brings the schema up to date: runs `migrations[i]` for every version `i` the file has not reached,
    /// each in its own transaction together with the version bump, reading the version under the write
    /// lock, so that two processes opening a fresh folder at once run each migration once. A file from a
    /// newer release is refused.
    package func migrate(_ migrations: [String]) throws(StoreError) {
        func checked(_ version: Int) throws(StoreError) -> Int {
            guard version >= 0 else {
                throw StoreError(.storageFailure, "database \(path) has schema version \(version), which no release writes; it was left untouched")
            }
            guard version <= migrations.count else {
                throw StoreError(.storageFailure,
                                 "database \(path) has schema version \(version), newer than this library's \(migrations.count)")
            }
            return version
        }
        guard try checked(try userVersion) < migrations.count else { return }  // the usual case: no write lock
        var migrated = false
        while !migrated {
            migrated = try transaction { () throws(StoreError) -> Bool in
                // Read again under the write lock: another process opening the same folder may have migrated.
                let version = try checked(try userVersion)
                guard version < migrations.count else { return true }
                try execute(migrations[version])
                try execute("PRAGMA user_version = \(version + 1)")
                return false
            }
        }
    }

    private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            // Read by its byte count, NULs included, as it was bound.
            let bytes = UnsafeBufferPointer(start: sqlite3_column_text(statement, index), count: Int(sqlite3_column_bytes(statement, index)))
            return .text(String(decoding: bytes, as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    private func failure(_ what: String) -> StoreError {
        StoreError(.storageFailure, "database \(path): \(what): \(String(cString: sqlite3_errmsg(handle)))")
    }
}

extension SQLiteValue {
    /// The integer, or `nil` for anything else.
    package var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    /// The text, or `nil` for anything else.
    package var text: String? { if case .text(let value) = self { value } else { nil } }
    /// The bytes of a blob or text, or `nil` for anything else.
    package var bytes: [UInt8]? {
        switch self {
        case .blob(let value): value
        case .text(let value): Array(value.utf8)
        default: nil
        }
    }
}
