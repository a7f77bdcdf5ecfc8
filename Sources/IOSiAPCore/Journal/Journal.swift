#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The core's durable record of every transaction the game was told about, and which ones it finished: one
/// `JournalRecord` per transaction, whose invariants it keeps.
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
        // 6: one verdict per record (`JournalRecord`): `unverified` goes. A row it kept out stays out (verdict 0); a
        // row that entitled keeps doing so: a 0 beside `unverified = 0` (a later check of some copy failed, or a
        // launch without a verifier cleared `unverified`) cannot say which copy failed, so it becomes NULL (no
        // verifier's verdict stands), which entitles as before and which StoreKit's verifier does not take for a pass.
        // The table is rebuilt without the column rather than altered: `DROP COLUMN` needs SQLite 3.35 (Debian 11
        // and Ubuntu 20.04 ship older). Foreign keys are off, so `grants` still names the rebuilt table.
        """
        UPDATE transactions SET verdict = NULL WHERE unverified = 0 AND verdict = 0;
        UPDATE transactions SET verdict = 0 WHERE unverified = 1;
        CREATE TABLE transactions_version6 (
            id INTEGER PRIMARY KEY,
            product_id TEXT NOT NULL,
            finished INTEGER NOT NULL DEFAULT 0,
            payload BLOB NOT NULL,
            verdict INTEGER,
            revocation_announced INTEGER
        );
        INSERT INTO transactions_version6 (id, product_id, finished, payload, verdict, revocation_announced)
            SELECT id, product_id, finished, payload, verdict, revocation_announced FROM transactions;
        DROP TABLE transactions;
        ALTER TABLE transactions_version6 RENAME TO transactions;
        CREATE INDEX transactions_unfinished ON transactions(finished) WHERE finished = 0;
        """,
        // 7: the record's delivery and refund states (`JournalRecord+Delivery.swift`). `told`: the game was told it
        // as purchased or restored, which `finish` needs; a row recorded before was told unless a verifier failed
        // it or has not passed it. `revocation_announced` becomes `refund` (NULL none, 0 to tell, 1 told); a refund
        // recorded before version 5 left it NULL, and was told then, unless no verifier passed its copy: such a
        // copy records no refund (`recordingRefund`), which would keep a genuine copy of the purchase out.
        // (Written copies omit a nil `revocationDate`.)
        """
        ALTER TABLE transactions ADD COLUMN told INTEGER NOT NULL DEFAULT 0;
        UPDATE transactions SET told = 1 WHERE verdict IS NOT 0;
        ALTER TABLE transactions RENAME COLUMN revocation_announced TO refund;
        UPDATE transactions SET refund = 1
            WHERE refund IS NULL AND verdict IS NOT 0 AND instr(CAST(payload AS TEXT), '"revocationDate":') > 0;
        """,
        // 8: which rows are consumables, which entitle to nothing: the entitlements read only the others, through an
        // index, so that a history of coin purchases costs them nothing. A row that cannot be decoded counts as not
        // consumable (it might entitle).
        """
        ALTER TABLE transactions ADD COLUMN consumable INTEGER NOT NULL DEFAULT 0;
        UPDATE transactions SET consumable = 1
            WHERE CASE WHEN json_valid(CAST(payload AS TEXT)) THEN json_extract(CAST(payload AS TEXT), '$.productType') = 0 END;
        CREATE INDEX transactions_entitling ON transactions(id) WHERE consumable = 0;
        """,
        // 9: the finished rows no verifier has passed, which each launch checks again a bounded number of, through an
        // index, from where the last launch stopped (`launch_recheck`'s one row).
        """
        CREATE INDEX transactions_not_verified ON transactions(id) WHERE finished = 1 AND verdict = 0;
        CREATE TABLE launch_recheck (after INTEGER NOT NULL);
        """,
    ]

    let database: Locked<SQLiteDatabase>
    /// Set, under the database's lock, when the directory is released: from then on nothing writes.
    private let released = Locked(false)
    private let encoder = JSONEncoder()
    private let lock: StateDirectoryLock
    /// The rows that can entitle, as last read, the state of the file they were read at, and which read it was.
    private let entitlementRows = Locked<(version: JournalVersion, generation: Int, rows: RowsWithVerdicts)?>(nil)

    /// What the journal file holds changes with every write: this connection's (SQLite's total changes) or another's
    /// (`PRAGMA data_version`, for a file edited beside the open store).
    private struct JournalVersion: Equatable {
        var ownChanges: Int
        var dataVersion: Int64
    }
    /// Another connection's writes are looked for at most this often by the entitlement reads: `PRAGMA data_version`
    /// costs system calls (about 2 µs), where a read asked every frame must cost less than one. The store's own writes
    /// are seen at once; another connection's (outside the library's contract: the directory lock keeps one store on
    /// a journal) within this interval.
    static let outsideWriteCheckInterval: Duration = .milliseconds(100)
    /// The file's data version as last asked, and when.
    private let outsideWrites = Locked<(dataVersion: Int64, checked: ContinuousClock.Instant)?>(nil)

    package typealias RowsWithVerdicts = (readable: [(transaction: StoreTransaction, verdict: RecordedVerdict)], unreadable: [UnreadableRow])

    /// Opens or creates the journal in `directory`, migrating an older schema forward. Only one journal
    /// may be open on a directory at a time: a second is refused with `stateDirectoryInUse`.
    package init(directory: StateDirectory) throws(StoreError) {
        lock = try StateDirectoryLock(path: directory.file("journal.lock"))
        let database = try SQLiteDatabase(path: directory.file("journal.sqlite"))
        try database.prepareForDurableUse()
        try database.migrate(Self.migrations)
        self.database = Locked(database)
    }

    /// Writes a transaction the store reported, with the verifier's verdict on it (`nil` when nothing
    /// verifies), in one commit, by the record's rules (`JournalRecord`): known transactions keep their finish
    /// mark, their copy is replaced only by one that ranks higher and did not fail, and their verdict is never
    /// weakened. A new transaction is written either way, so that it is delivered again, but one that did not
    /// pass is no entitlement. A transaction first seen through a restore (`finished: true`) is recorded as
    /// finished: restoring charges nothing. `telling`: the caller tells the game the transaction as purchased or
    /// restored if the verdict allows it, which the record notes in the same commit (`finish` needs it). A
    /// refunded copy records the refund (finished, to tell), taking back the grant as `takeBack` says.
    @discardableResult
    package func record(_ transaction: StoreTransaction, finished: Bool = false, verdict: VerificationOutcome? = nil,
                        telling: Bool = false, takeBack: TakeBack = .whenTold) throws(StoreError) -> RecordResult {
        try written(transaction, finished: finished, verdict: verdict, telling: telling, takeBack: takeBack).found
    }

    /// `record`, returning the record it left.
    func written(_ transaction: StoreTransaction, finished: Bool = false, verdict: VerificationOutcome? = nil,
                 telling: Bool = false, takeBack: TakeBack = .whenTold) throws(StoreError) -> Written {
        let payload = try encode(transaction)
        return try write { database throws(StoreError) in
            try database.transaction { () throws(StoreError) in
                try Self.upsert(transaction, payload: payload, finished: finished, verdict: verdict, telling: telling,
                                takeBack: takeBack, in: database)
            }
        }
    }

    /// When a refund the journal records takes back what the grant ledger granted for its purchase.
    package enum TakeBack: Sendable, Equatable {
        /// In the commit that records the refund, its currency deducted or not: the game's refund rule is known.
        case now(deductingCurrency: Bool)
        /// As its `revoked` event is handed out (`takeBackRefund`, from `GrantLedger.apply`), or at the latest in
        /// the commit that notes it told (`acknowledgeRefund`), by the refund rule of that moment: the game has not
        /// started taking events yet, and may still set its rule.
        case whenTold
    }

    /// What a write found, and the record it left.
    struct Written {
        var found: RecordResult
        var record: JournalRecord
        /// Whether the write recorded the transaction's refund (none → to tell): its writer tells it.
        var recordedRefund: Bool
    }

    /// Inserts a transaction's record, or writes a copy of it over the record held, inside the caller's SQLite
    /// transaction: the one write every path takes (`record`, `recordRevocation`, the ledger's `grantAndFinish`).
    /// The record decides what changes (`JournalRecord.writing`), and the row changes only if it is still the one
    /// read (compare-and-set). A refund it records takes back the grant in the same commit if `takeBack` says
    /// `now`.
    static func upsert(_ transaction: StoreTransaction, payload: [UInt8], finished: Bool, verdict: VerificationOutcome? = nil,
                       telling: Bool = false, takeBack: TakeBack = .whenTold,
                       in database: SQLiteDatabase) throws(StoreError) -> Written {
        let id = SQLiteValue.integer(Int64(bitPattern: transaction.id))
        let held = try JournalRecord.read(id, in: database)
        var next = held?.writing(transaction, payload: payload, outcome: verdict)
            ?? JournalRecord(new: transaction, payload: payload, finished: finished, outcome: verdict)
        if telling && next.allowsTelling(after: verdict) { next.told = true }
        let recordedRefund = next.recordsRefund(over: held)
        if let held {
            try next.write(over: held, id: id, in: database)
        } else {
            try next.insert(id: id, productID: transaction.productID, consumable: transaction.productType == .consumable, in: database)
        }
        if recordedRefund, case .now(let deducting) = takeBack {
            try takeBackGrant(of: id, deductingCurrency: deducting, in: database)
        }
        let found: RecordResult = held.map { $0.finished ? .knownFinished : .knownUnfinished } ?? .inserted
        return Written(found: found, record: next, recordedRefund: recordedRefund)
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

    /// Records a refund that passed verification (`verdict`; `nil` when nothing verifies) in one commit: the
    /// refunded copy, finished (nothing is left to grant), its refund to tell (told again at each launch until
    /// `acknowledgeRefund`), and, if `takeBack` says `now`, what the ledger granted for it taken back. Returns
    /// whether this write recorded the refund: `false` when the record held it already (to tell or told), which a
    /// second refunded copy never changes.
    @discardableResult
    package func recordRevocation(_ transaction: StoreTransaction, verdict: VerificationOutcome?,
                                  takeBack: TakeBack = .whenTold) throws(StoreError) -> Bool {
        try written(transaction, finished: true, verdict: verdict, takeBack: takeBack).recordedRefund
    }

    /// Forgets the billing grace period's end the record of `transaction` holds (and the renewal info that signed
    /// it), in one commit: the store said that grace period is over (`StoreUpdate.gracePeriodEnded`; the one write
    /// that lowers the grace period's end of the copy held, `JournalRecord` invariant 3). Returns the copy left when
    /// the end it forgot was after `now` and the record entitled the game to it (a verifier did not fail it or leave
    /// it pending, and the game was told it or finished it): the user loses the entitlement now. Else `nil`. A
    /// refunded record is left as it is.
    package func endGracePeriod(of transaction: StoreTransaction, now: Date) throws(StoreError) -> StoreTransaction? {
        let id = SQLiteValue.integer(Int64(bitPattern: transaction.id))
        return try write { database throws(StoreError) in
            try database.transaction { () throws(StoreError) -> StoreTransaction? in
                guard let held = try JournalRecord.read(id, in: database), var copy = held.copy, !copy.isRevoked,
                      let end = copy.gracePeriodExpirationDate else { return nil }
                copy.gracePeriodExpirationDate = nil
                copy.signedRenewalInfo = nil
                var next = held
                next.copy = copy
                next.payload = try encode(copy)
                try next.write(over: held, id: id, in: database)
                return end > now && JournalRecord.entitles(held.verdict) && (held.told || held.finished) ? copy : nil
            }
        }
    }

    /// Notes that the game's handler of the `revoked` event of transaction `id` returned: its refund is told, and
    /// not told again at launch. In the same commit, what the ledger granted for it is taken back if nothing did
    /// before (`TakeBack.whenTold`), its currency deducted or not by `deductingCurrency`. If it fails, the refund
    /// stays to tell: told again at the next launch.
    package func acknowledgeRefund(_ id: UInt64, deductingCurrency: Bool) throws(StoreError) {
        try refundToTell(id, deductingCurrency: deductingCurrency) { held, key, database throws(StoreError) in
            var told = held
            told.refund = .told
            try told.write(over: held, id: key, in: database)
        }
    }

    /// Takes back what the ledger granted for refund `id` if nothing took it back yet, its currency deducted or not
    /// by `deductingCurrency`: as its `revoked` event is handed out, when the commit that recorded it could not.
    /// Only a refund still to tell; the one noted told later finds it taken back.
    package func takeBackRefund(_ id: UInt64, deductingCurrency: Bool) throws(StoreError) {
        try refundToTell(id, deductingCurrency: deductingCurrency) { _, _, _ throws(StoreError) in }
    }

    /// In one commit: if refund `id` is still to tell, takes back its grant (once: `takeBackGrant` skips a grant
    /// taken back already) and runs `then` on its record.
    private func refundToTell(_ id: UInt64, deductingCurrency: Bool,
                              then: (JournalRecord, SQLiteValue, SQLiteDatabase) throws(StoreError) -> Void) throws(StoreError) {
        try write { database throws(StoreError) in
            try database.transaction { () throws(StoreError) in
                let key = SQLiteValue.integer(Int64(bitPattern: id))
                guard let held = try JournalRecord.read(key, in: database), held.refund == .toTell else { return }
                try Self.takeBackGrant(of: key, deductingCurrency: deductingCurrency, in: database)
                try then(held, key, database)
            }
        }
    }

    /// The recorded refunds not yet told to a handler that returned (the store closed, the process ended or the
    /// handler threw before), oldest id first, and apart from them those that cannot be decoded.
    package func unannouncedRevocations() throws(StoreError) -> JournalRows {
        try transactions(where: "refund = 0")
    }

    /// Where the refund of transaction `id` stands; `notRefunded` when the journal has no record of it.
    func refundState(of id: UInt64) throws(StoreError) -> RefundState {
        try database.withLock { database throws(StoreError) in
            RefundState(column: try database.query("SELECT refund FROM transactions WHERE id = ?", [.integer(Int64(bitPattern: id))])
                .first?.first ?? .null)
        }
    }

    /// Whether the record of transaction `id` holds a refund and a copy that can be read: a refund reported again
    /// has nothing to add to it. (A damaged row's record takes the refunded copy, which rewrites it.)
    func holdsReadableRefund(of id: UInt64) throws(StoreError) -> Bool {
        try database.withLock { database throws(StoreError) in
            guard let record = try JournalRecord.read(.integer(Int64(bitPattern: id)), in: database) else { return false }
            return record.refund != .notRefunded && record.copy != nil
        }
    }

    /// Marks a transaction finished. Returns `false` if it already was (finishing is idempotent).
    /// Throws `unknownTransaction` for an id the journal never recorded, and `notDelivered`, finishing nothing, for
    /// one it never told the game as purchased or restored (`JournalRecord.told`).
    @discardableResult
    package func markFinished(_ id: UInt64) throws(StoreError) -> Bool {
        try write { database throws(StoreError) in
            try database.transaction { () throws(StoreError) in
                let key = SQLiteValue.integer(Int64(bitPattern: id))
                guard let held = try JournalRecord.read(key, in: database) else {
                    throw StoreError(.unknownTransaction, "no transaction with id \(id) was delivered to this app")
                }
                guard let finished = try held.finishing(id) else { return false }
                try finished.write(over: held, id: key, in: database)
                return true
            }
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
        try transactionsWithVerdicts(where: "finished = 0")
    }

    /// How many finished transactions no verifier has passed a launch checks again at most.
    static let launchRecheckLimit = 100

    /// Up to `limit` of the finished transactions no verifier has passed (it failed them, or their check was left to
    /// retry), each with its verdict, for a launch to check again: those after the last one the previous launch took,
    /// then from the oldest id on, read through their index. Where this launch stopped is written in the same
    /// commit, so that every one comes round within a few launches however many there are, and a launch checks at
    /// most `limit`. Rows that cannot be decoded are left out.
    package func finishedTransactionsNotVerified(limit: Int = launchRecheckLimit)
        throws(StoreError) -> [(transaction: StoreTransaction, verdict: RecordedVerdict)] {
        let rows = try write { database throws(StoreError) in
            try database.transaction { () throws(StoreError) -> [[SQLiteValue]] in
                func select(_ bound: String, _ parameters: [SQLiteValue], limit: Int) throws(StoreError) -> [[SQLiteValue]] {
                    try database.query("""
                        SELECT id, product_id, payload, verdict FROM transactions INDEXED BY transactions_not_verified
                        WHERE finished = 1 AND verdict = 0\(bound) ORDER BY id LIMIT ?
                        """, parameters + [.integer(Int64(limit))])
                }
                let after = try database.query("SELECT after FROM launch_recheck").first?[0]
                var rows = try select(after == nil ? "" : " AND id > ?", after.map { [$0] } ?? [], limit: limit)
                if let after, rows.count < limit {
                    rows += try select(" AND id <= ?", [after], limit: limit - rows.count)
                }
                if let last = rows.last?[0] {
                    try database.execute("DELETE FROM launch_recheck")
                    _ = try database.query("INSERT INTO launch_recheck (after) VALUES (?)", [last])
                }
                return rows
            }
        }
        return decodeRows(rows).readable
    }

    /// Every transaction recorded, oldest id first, each with the verdict recorded for it, and apart from them the
    /// rows that cannot be decoded. Throws only when the rows cannot be read at all.
    package func transactionsWithVerdicts() throws(StoreError)
        -> (readable: [(transaction: StoreTransaction, verdict: RecordedVerdict)], unreadable: [UnreadableRow]) {
        try transactionsWithVerdicts(where: "1")
    }

    /// The rows that can entitle (every one but consumables') with their verdicts, and the rows that cannot be
    /// decoded (any of which might entitle). Read again only after the file changed, so that asking every frame
    /// decodes nothing: the cost of a call is then that of the rows it returns, not of the whole history.
    package func entitlingTransactionsWithVerdicts() throws(StoreError) -> RowsWithVerdicts {
        try entitlingRows().rows
    }

    /// `entitlingTransactionsWithVerdicts`, with which read of the file they come from: the same generation, the
    /// same rows (for a view computed from them to be kept).
    package func entitlingRows() throws(StoreError) -> (generation: Int, rows: RowsWithVerdicts) {
        enum Read { case cached(Int, RowsWithVerdicts), fresh(JournalVersion, [[SQLiteValue]]) }
        let read = try database.withLock { database throws(StoreError) -> Read in
            let clock = ContinuousClock.now
            let known = outsideWrites.withLock { $0 }
            let dataVersion: Int64
            if let known, clock - known.checked < Self.outsideWriteCheckInterval {
                dataVersion = known.dataVersion
            } else {
                dataVersion = try database.dataVersion()
                outsideWrites.withLock { $0 = (dataVersion, clock) }
            }
            let version = JournalVersion(ownChanges: database.totalChanges, dataVersion: dataVersion)
            if let cached = entitlementRows.withLock({ $0?.version == version ? $0 : nil }) { return .cached(cached.generation, cached.rows) }
            return .fresh(version, try database.query("""
                SELECT id, product_id, payload, verdict FROM transactions INDEXED BY transactions_entitling WHERE consumable = 0 ORDER BY id
                """))
        }
        switch read {
        case .cached(let generation, let rows):
            return (generation, rows)
        case .fresh(let version, let rows):
            var decoded = decodeRows(rows)
            decoded.readable.removeAll { $0.transaction.productType == .consumable }
            return entitlementRows.withLock { cache in
                let generation = (cache?.generation ?? 0) + 1
                cache = (version, generation, decoded)
                return (generation, decoded)
            }
        }
    }

    private func transactionsWithVerdicts(where condition: String) throws(StoreError)
        -> (readable: [(transaction: StoreTransaction, verdict: RecordedVerdict)], unreadable: [UnreadableRow]) {
        let rows = try database.withLock { database throws(StoreError) in
            try database.query("SELECT id, product_id, payload, verdict FROM transactions WHERE \(condition) ORDER BY id")
        }
        return decodeRows(rows)
    }

    /// Rows of `id, product_id, payload, verdict`, decoded, apart from those that cannot be.
    private func decodeRows(_ rows: [[SQLiteValue]]) -> RowsWithVerdicts {
        var readable: [(transaction: StoreTransaction, verdict: RecordedVerdict)] = []
        var unreadable: [UnreadableRow] = []
        for row in rows {
            do {
                readable.append((try decode(row[2].bytes ?? []), RecordedVerdict(column: row[3])))
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

    /// Whether the transaction is recorded as revoked.
    package func isRecordedRevoked(_ id: UInt64) throws(StoreError) -> Bool {
        try recordedCopy(of: id)?.isRevoked ?? false
    }

    /// The copy of the transaction the journal holds, if it holds one.
    package func recordedCopy(of id: UInt64) throws(StoreError) -> StoreTransaction? {
        let payload = try database.withLock { database throws(StoreError) in
            try database.query("SELECT payload FROM transactions WHERE id = ?", [.integer(Int64(bitPattern: id))]).first?.first?.bytes
        }
        return try payload.map { bytes throws(StoreError) in try decode(bytes) }
    }

    /// Whether the journal holds `transaction` with a verdict that lets it entitle (a verifier passed it, or none
    /// verified it), or, when it does not hold that transaction at all, another transaction of its subscription (the
    /// same original id) so: a purchase it accepted, whose refund takes effect whatever a verifier says. A transaction
    /// held but not accepted (pending, failed) is decided by its own record, never by its chain. The chain is looked
    /// for among the rows that are not consumables, whose payload is valid JSON (a damaged row is skipped, not an
    /// error).
    package func holdsAcceptedRecord(of transaction: StoreTransaction) throws(StoreError) -> Bool {
        let notVerified = RecordedVerdict.notVerified.column
        return try database.withLock { database throws(StoreError) in
            let own = try database.query("SELECT verdict FROM transactions WHERE id = ?", [.integer(Int64(bitPattern: transaction.id))])
            if let row = own.first { return RecordedVerdict(column: row[0]) != .notVerified }
            guard transaction.productType == .autoRenewable else { return false }
            return try !database.query("""
                SELECT 1 FROM transactions INDEXED BY transactions_entitling
                WHERE consumable = 0 AND verdict IS NOT ?
                  AND CASE WHEN json_valid(CAST(payload AS TEXT)) THEN json_extract(CAST(payload AS TEXT), '$.originalID') END = ?
                LIMIT 1
                """, [notVerified, .integer(Int64(bitPattern: transaction.originalID))]).isEmpty
        }
    }

    /// The verdict recorded on this very copy of a transaction (`isSameCopy`): `nil` when the journal holds no
    /// readable row of it, `.notVerified` when the row holds another copy.
    package func recordedVerdict(of copy: StoreTransaction) throws(StoreError) -> RecordedVerdict? {
        let row = try database.withLock { database throws(StoreError) in
            try database.query("SELECT verdict, payload FROM transactions WHERE id = ?", [.integer(Int64(bitPattern: copy.id))]).first
        }
        guard let row, let payload = row[1].bytes, let held = try? decode(payload) else { return nil }
        return held.isSameCopy(as: copy) ? RecordedVerdict(column: row[0]) : .notVerified
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
        let rows = try transactionsWithVerdicts(where: condition)
        return JournalRows(readable: rows.readable.map(\.transaction), unreadable: rows.unreadable)
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
        try JournalRecord.decode(bytes)
    }
}
