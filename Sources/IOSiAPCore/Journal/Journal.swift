import Foundation

/// The core's durable record of every transaction the game was told about, and which ones it finished.
///
/// It lives in `journal.sqlite` in the state directory. A transaction is written here before its event is
/// queued, and stays unfinished, to be delivered again at the next launch, until the game finishes it.
package final class Journal: Sendable {
    /// What `record` found.
    package enum RecordResult: Equatable, Sendable {
        /// The transaction was new.
        case inserted
        /// It was known and is still unfinished.
        case knownUnfinished
        /// It was known and already finished: it must not be granted again.
        case knownFinished
    }

    /// Schema migrations, one per version; never edit a released entry, append a new one.
    static let migrations = [
        // 1: transactions and their finish marks.
        """
        CREATE TABLE transactions (
            id INTEGER PRIMARY KEY,
            product_id TEXT NOT NULL,
            finished INTEGER NOT NULL DEFAULT 0,
            payload BLOB NOT NULL
        );
        CREATE INDEX transactions_unfinished ON transactions(finished) WHERE finished = 0;
        """,
        // 2: the grant ledger: one row per granted transaction, and the currency balances.
        """
        CREATE TABLE grants (
            transaction_id INTEGER PRIMARY KEY REFERENCES transactions(id),
            product_id TEXT NOT NULL,
            currency TEXT,
            amount INTEGER NOT NULL DEFAULT 0,
            entitlement TEXT,
            revoked INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE balances (
            currency TEXT PRIMARY KEY,
            amount INTEGER NOT NULL CHECK (amount >= 0)
        );
        """,
        // 3: transactions that failed verification, or wait for it: recorded, but not entitlements.
        """
        ALTER TABLE transactions ADD COLUMN unverified INTEGER NOT NULL DEFAULT 0;
        """,
        // 4: the verifier's verdict, kept for the next launch: 1 verified, 0 not, NULL none (no verifier).
        """
        ALTER TABLE transactions ADD COLUMN verdict INTEGER;
        """,
        // 5: for a recorded revocation, whether the game was told it: 0 not yet (told again at launch), 1 told;
        // NULL for other rows (and revocations recorded before this version, which were told then).
        """
        ALTER TABLE transactions ADD COLUMN revocation_announced INTEGER;
        """,
    ]

    let database: Locked<SQLiteDatabase>
    /// Set, under the database's lock, when the directory is released: from then on nothing writes.
    private let released = Locked(false)
    private let encoder = JSONEncoder()
    private let lock: StateDirectoryLock

    /// Opens or creates the journal in `directory`, migrating an older schema forward. Only one journal
    /// may be open on a directory at a time: a second is refused with `stateDirectoryInUse`.
    package init(directory: StateDirectory) throws(StoreError) {
        lock = try StateDirectoryLock(path: directory.file("journal.lock"))
        let database = try SQLiteDatabase(path: directory.file("journal.sqlite"))
        try database.prepareForDurableUse()
        try database.migrate(Self.migrations)
        self.database = Locked(database)
    }

    /// Writes a transaction the store reported, with the verifier's verdict (`.none` when nothing
    /// verifies), in one commit. Known transactions keep their finish mark; a copy that passed replaces
    /// theirs, so that a revocation or a new signature is kept, and one that did not pass changes nothing
    /// but the recorded verdict (what entitles stays as it was). A
    /// new transaction is written either way, so that it is delivered again, but one that did not pass is
    /// no entitlement. A transaction first seen through a restore (`finished: true`) is recorded as
    /// finished: restoring charges nothing.
    @discardableResult
    package func record(_ transaction: StoreTransaction, finished: Bool = false,
                        verdict: RecordedVerdict = .none) throws(StoreError) -> RecordResult {
        let payload = try encode(transaction)
        return try write { database throws(StoreError) in
            try database.transaction { () throws(StoreError) in
                try Self.upsert(transaction, payload: payload, finished: finished, verdict: verdict, in: database)
            }
        }
    }

    /// Inserts or updates a transaction inside the caller's SQLite transaction.
    static func upsert(_ transaction: StoreTransaction, payload: [UInt8], finished: Bool, verdict: RecordedVerdict = .none,
                       in database: SQLiteDatabase) throws(StoreError) -> RecordResult {
        let id = SQLiteValue.integer(Int64(bitPattern: transaction.id))
        if let row = try database.query("SELECT finished FROM transactions WHERE id = ?", [id]).first {
            switch verdict {
            case .verified:
                try database.query("UPDATE transactions SET payload = ?, unverified = 0, verdict = 1 WHERE id = ?", [.blob(payload), id])
            case .none:
                try database.query("UPDATE transactions SET payload = ?, unverified = 0 WHERE id = ?", [.blob(payload), id])
            case .notVerified:
                // The copy is not kept, but the verdict is: a later launch without a verdict of its own
                // must not take an earlier "verified" for this one.
                try database.query("UPDATE transactions SET verdict = 0 WHERE id = ?", [id])
            }
            return row[0].integer == 1 ? .knownFinished : .knownUnfinished
        }
        let verdictValue: SQLiteValue = switch verdict {
        case .none: .null
        case .verified: .integer(1)
        case .notVerified: .integer(0)
        }
        try database.query("INSERT INTO transactions (id, product_id, finished, payload, unverified, verdict) VALUES (?, ?, ?, ?, ?, ?)",
                           [id, .text(transaction.productID), .integer(finished ? 1 : 0), .blob(payload),
                            .integer(verdict == .notVerified ? 1 : 0), verdictValue])
        return .inserted
    }

    /// Runs a write under the database's lock, unless the directory was released: then `storeNotOpen`, and
    /// nothing changes (work that outlived close, e.g. a verification, writes nothing after another store
    /// may own the directory; what it would have written is done again at the next launch).
    func write<T>(_ body: (SQLiteDatabase) throws(StoreError) -> T) throws(StoreError) -> T {
        try database.withLock { database throws(StoreError) in
            guard !released.withLock({ $0 }) else {
                throw StoreError(.storeNotOpen, "the store was closed; the journal's directory is released")
            }
            return try body(database)
        }
    }

    /// Lets another journal open the directory; this one writes nothing afterwards.
    package func releaseDirectory() {
        database.withLock { _ in released.withLock { $0 = true } }
        lock.release()
    }

    /// Records a revocation that passed verification (`verdict`) in one commit: the refunded copy, finished
    /// (nothing is left to grant), and not yet announced to the game, so that it is told again at each
    /// launch until `markRevocationAnnounced`.
    package func recordRevocation(_ transaction: StoreTransaction, verdict: RecordedVerdict) throws(StoreError) {
        let payload = try encode(transaction)
        try write { database throws(StoreError) in
            try database.transaction { () throws(StoreError) in
                _ = try Self.upsert(transaction, payload: payload, finished: true, verdict: verdict, in: database)
                try database.query("UPDATE transactions SET finished = 1, revocation_announced = 0 WHERE id = ?",
                                   [.integer(Int64(bitPattern: transaction.id))])
            }
        }
    }

    /// Notes that the game was told of the revocation of transaction `id`: it is not told again at launch.
    package func markRevocationAnnounced(_ id: UInt64) throws(StoreError) {
        try write { database throws(StoreError) in
            _ = try database.query("UPDATE transactions SET revocation_announced = 1 WHERE id = ? AND revocation_announced = 0",
                               [.integer(Int64(bitPattern: id))])
        }
    }

    /// The recorded revocations the game was not told of yet (the store closed or the process ended before
    /// the game had the event), oldest id first, and apart from them those that cannot be decoded.
    package func unannouncedRevocations() throws(StoreError) -> JournalRows {
        try transactions(where: "revocation_announced = 0")
    }

    /// Marks a transaction finished. Returns `false` if it already was (finishing is idempotent).
    /// Throws `unknownTransaction` for an id the journal never recorded.
    @discardableResult
    package func markFinished(_ id: UInt64) throws(StoreError) -> Bool {
        try write { database throws(StoreError) in
            let rows = try database.query("SELECT finished FROM transactions WHERE id = ?", [.integer(Int64(bitPattern: id))])
            guard let row = rows.first else {
                throw StoreError(.unknownTransaction, "no transaction with id \(id) was delivered to this app")
            }
            if row[0].integer == 1 { return false }
            try database.query("UPDATE transactions SET finished = 1 WHERE id = ?", [.integer(Int64(bitPattern: id))])
            return true
        }
    }

    /// The transactions not finished yet, oldest id first; a row that cannot be decoded is left out (see
    /// `unfinishedTransactionsReadingPastDamage`).
    package func unfinishedTransactions() throws(StoreError) -> [StoreTransaction] {
        try unfinishedTransactionsReadingPastDamage().readable
    }

    /// The transactions not finished yet, oldest id first, and apart from them the rows that cannot be
    /// decoded: one damaged row hides no other. Throws only when the rows cannot be read at all.
    package func unfinishedTransactionsReadingPastDamage() throws(StoreError) -> JournalRows {
        try transactions(where: "finished = 0")
    }

    /// A journal row whose transaction cannot be decoded (a damaged payload): the columns stored beside it
    /// still say which transaction it is.
    package struct UnreadableRow: Sendable, Equatable {
        package let transactionID: UInt64
        package let productID: String
        package let error: StoreError
    }

    /// Decoded journal rows, oldest id first, and apart from them the rows that cannot be decoded.
    package struct JournalRows: Sendable {
        package var readable: [StoreTransaction] = []
        package var unreadable: [UnreadableRow] = []
    }

    /// The transactions not finished yet, oldest id first, each with the verdict recorded for it, and apart
    /// from them the unfinished rows that cannot be decoded: one damaged row hides no other. Throws only
    /// when the rows cannot be read at all.
    package func unfinishedTransactionsWithVerdicts() throws(StoreError)
        -> (readable: [(transaction: StoreTransaction, verdict: RecordedVerdict)], unreadable: [UnreadableRow]) {
        let rows = try database.withLock { database throws(StoreError) in
            try database.query("SELECT id, product_id, payload, verdict FROM transactions WHERE finished = 0 ORDER BY id")
        }
        var readable: [(transaction: StoreTransaction, verdict: RecordedVerdict)] = []
        var unreadable: [UnreadableRow] = []
        for row in rows {
            let verdict: RecordedVerdict = switch row[3].integer {
            case 1: .verified
            case 0: .notVerified
            default: .none
            }
            do {
                readable.append((try decode(row[2].bytes ?? []), verdict))
            } catch {
                unreadable.append(unreadableRow(id: row[0], productID: row[1], error))
            }
        }
        return (readable, unreadable)
    }

    /// Every recorded transaction that can be decoded, oldest id first.
    package func allTransactions() throws(StoreError) -> [StoreTransaction] {
        try transactions(where: "1").readable
    }

    /// The recorded transactions that may entitle the user: all but those that failed verification or wait
    /// for it, and those that cannot be decoded (left out: see `verifiedTransactionsReadingPastDamage`).
    package func verifiedTransactions() throws(StoreError) -> [StoreTransaction] {
        try verifiedTransactionsReadingPastDamage().readable
    }

    /// The recorded transactions that may entitle the user, and apart from them the rows that cannot be
    /// decoded. A damaged row cannot be verified, so it entitles to nothing (it fails closed) until the store
    /// hands over its transaction again (a purchase redelivered, a restore), which rewrites it. Throws only
    /// when the rows cannot be read at all.
    package func verifiedTransactionsReadingPastDamage() throws(StoreError) -> JournalRows {
        try transactions(where: "unverified = 0")
    }

    /// Whether the transaction is recorded as revoked.
    package func isRecordedRevoked(_ id: UInt64) throws(StoreError) -> Bool {
        let payload = try database.withLock { database throws(StoreError) in
            try database.query("SELECT payload FROM transactions WHERE id = ?", [.integer(Int64(bitPattern: id))]).first?.first?.bytes
        }
        guard let payload else { return false }
        return try decode(payload).isRevoked
    }

    /// Whether the journal holds a row for the transaction, finished or not.
    package func isRecorded(_ id: UInt64) throws(StoreError) -> Bool {
        try database.withLock { database throws(StoreError) in
            try !database.query("SELECT 1 FROM transactions WHERE id = ?", [.integer(Int64(bitPattern: id))]).isEmpty
        }
    }

    /// Whether the transaction is recorded and finished.
    package func isFinished(_ id: UInt64) throws(StoreError) -> Bool {
        try database.withLock { database throws(StoreError) in
            try database.query("SELECT finished FROM transactions WHERE id = ?", [.integer(Int64(bitPattern: id))])
                .first?.first?.integer == 1
        }
    }

    /// The rows meeting `condition`, oldest id first: those decoded, and apart from them those that cannot be.
    private func transactions(where condition: String) throws(StoreError) -> JournalRows {
        let rows = try database.withLock { database throws(StoreError) in
            try database.query("SELECT id, product_id, payload FROM transactions WHERE \(condition) ORDER BY id")
        }
        var result = JournalRows()
        for row in rows {
            do {
                result.readable.append(try decode(row[2].bytes ?? []))
            } catch {
                result.unreadable.append(unreadableRow(id: row[0], productID: row[1], error))
            }
        }
        return result
    }

    private func unreadableRow(id: SQLiteValue, productID: SQLiteValue, _ error: StoreError) -> UnreadableRow {
        let id = UInt64(bitPattern: id.integer ?? 0)
        return UnreadableRow(transactionID: id, productID: productID.text ?? "",
                             error: StoreError(.storageFailure, "journal row of transaction \(id): \(error.message)"))
    }

    func encode(_ transaction: StoreTransaction) throws(StoreError) -> [UInt8] {
        do { return Array(try encoder.encode(transaction)) } catch {
            throw StoreError(.storageFailure, "cannot encode transaction \(transaction.id): \(error)")
        }
    }

    private func decode(_ bytes: [UInt8]) throws(StoreError) -> StoreTransaction {
        do { return try JSONDecoder().decode(StoreTransaction.self, from: Data(bytes)) } catch {
            throw StoreError(.storageFailure, "journal holds an unreadable transaction: \(error)")
        }
    }
}
