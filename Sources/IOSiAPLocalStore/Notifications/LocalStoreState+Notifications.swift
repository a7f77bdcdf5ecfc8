#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPVerification

/// The notification tables of the store's database, created on first use (as `LocalCustomerSheets`'s): the outbox
/// (each notification signed once, with its send attempts as Apple's sendAttemptItem JSON and when to try next; a
/// sender leases a row, so two processes never send it together), what the notifications were last worked out
/// from (one row per transaction), the renewal date extensions not yet told, and the notification URL.
extension LocalStoreState {
    private static let createNotificationTables = """
        CREATE TABLE IF NOT EXISTS notifications (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            uuid TEXT NOT NULL UNIQUE,
            type TEXT NOT NULL,
            subtype TEXT,
            transaction_id INTEGER,
            signed_date INTEGER NOT NULL,
            signed_payload TEXT NOT NULL,
            attempts TEXT NOT NULL DEFAULT '[]',
            delivered INTEGER NOT NULL DEFAULT 0,
            next_attempt REAL,
            lease_owner TEXT,
            lease_until REAL
        );
        CREATE INDEX IF NOT EXISTS notifications_due ON notifications(next_attempt) WHERE next_attempt IS NOT NULL;
        CREATE TABLE IF NOT EXISTS notification_seen (
            id INTEGER PRIMARY KEY,
            revoked INTEGER NOT NULL,
            renewal_jws TEXT,
            grace_over INTEGER NOT NULL,
            expiration REAL
        );
        CREATE TABLE IF NOT EXISTS notification_settings (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS notification_changed (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            id INTEGER NOT NULL
        );
        CREATE TRIGGER IF NOT EXISTS notification_log_insert AFTER INSERT ON transactions
        WHEN EXISTS (SELECT 1 FROM notification_settings WHERE key = 'url') BEGIN
            INSERT INTO notification_changed (id) VALUES (NEW.id);
        END;
        DROP TRIGGER IF EXISTS notification_log_update;
        CREATE TRIGGER IF NOT EXISTS notification_log_write AFTER UPDATE ON transactions
        WHEN NEW.revision IS OLD.revision AND EXISTS (SELECT 1 FROM notification_settings WHERE key = 'url') BEGIN
            INSERT INTO notification_changed (id) VALUES (NEW.id);
        END;
        CREATE TRIGGER IF NOT EXISTS notification_log_delete AFTER DELETE ON transactions
        WHEN EXISTS (SELECT 1 FROM notification_settings WHERE key = 'url') BEGIN
            INSERT INTO notification_changed (id) VALUES (OLD.id);
        END;
        CREATE TABLE IF NOT EXISTS notification_extended (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            transaction_id INTEGER NOT NULL
        );
        CREATE TRIGGER IF NOT EXISTS notification_extension_log AFTER INSERT ON renewal_extensions
        WHEN EXISTS (SELECT 1 FROM notification_settings WHERE key = 'url') BEGIN
            INSERT INTO notification_extended (transaction_id) VALUES (NEW.transaction_id);
        END;
        """

    /// Creates the notification tables where they are missing, and the triggers that log which transaction each
    /// write of the history touched while a URL is set (every process's, in the same commit: a look reads what
    /// changed since the last one, not the history); called once per connection, before any use. The update
    /// trigger leaves out the write that only numbers a revision (migration 14's triggers make one after each
    /// write): it would log every write twice. It replaces one that did not, in state directories made before. Each
    /// renewal date extension is logged too (`notification_extended`), in the extension's commit, so that each is
    /// told once however many a look finds. The newest object is looked for: a state directory made before it has
    /// it added.
    func prepareNotificationTables() throws(StoreError) {
        guard try database.query("SELECT 1 FROM sqlite_master WHERE name = 'notification_extension_log'").isEmpty else { return }
        try database.transaction { () throws(StoreError) in try database.execute(Self.createNotificationTables) }
    }

    // MARK: - Settings

    private func notificationSetting(_ key: String) throws(StoreError) -> String? {
        try database.query("SELECT value FROM notification_settings WHERE key = ?", [.text(key)]).first?.first?.text
    }

    private func setNotificationSetting(_ key: String, _ value: String?) throws(StoreError) {
        if let value {
            try database.query("INSERT INTO notification_settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                               [.text(key), .text(value)])
        } else {
            try database.query("DELETE FROM notification_settings WHERE key = ?", [.text(key)])
        }
    }

    /// Where notifications go, if anywhere.
    func notificationURL() throws(StoreError) -> URL? {
        try notificationSetting("url").flatMap(URL.init(string:))
    }

    /// Sets or clears the URL. Setting it where none was makes the current history the baseline (what happened
    /// before is not notified); clearing it forgets the baseline, as nothing is recorded without a URL. Changing or
    /// clearing it gives up the notifications still pending.
    func setNotificationURL(_ url: URL?, baseline: [UInt64: StoreChangeDetector.Seen]) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            let previous = try notificationURL()
            let wasSet = previous != nil
            try setNotificationSetting("url", url?.absoluteString)
            // A notification belongs to the endpoint it was recorded for: when that goes, what is pending is given
            // up (not delivered, no longer pending), not sent to the next URL.
            if previous != url {
                try database.execute("UPDATE notifications SET next_attempt = NULL WHERE next_attempt IS NOT NULL")
            }
            if url == nil {
                try database.execute("DELETE FROM notification_seen; DELETE FROM notification_extended")
                try bumpNotificationGeneration()
            } else if !wasSet {
                try saveSeen(baseline, replacing: [:])
                try bumpNotificationGeneration()
            }
            // Nothing was logged while no URL was set: the log starts again past an entry no process read, so
            // that every process's copy of the history is read again whole (notificationChanges).
            if url == nil || !wasSet {
                try database.execute("INSERT INTO notification_changed (id) VALUES (0); DELETE FROM notification_changed")
            }
        }
    }

    /// Changes with each write of `notification_seen`: a process whose copy has another generation reads it again.
    func notificationGeneration() throws(StoreError) -> Int64 {
        Int64(try notificationSetting("generation") ?? "0") ?? 0
    }

    @discardableResult
    func bumpNotificationGeneration() throws(StoreError) -> Int64 {
        let next = try notificationGeneration() &+ 1
        try setNotificationSetting("generation", String(next))
        return next
    }

    /// The last entry of the log of the history's writes (0 before the first), and the transactions written after
    /// entry `after`, or nil when the log no longer holds them all (pruned: the whole history must be read).
    func notificationChanges(after: Int64) throws(StoreError) -> (last: Int64, ids: Set<UInt64>?) {
        let last = try database.query("SELECT seq FROM sqlite_sequence WHERE name = 'notification_changed'").first?.first?.integer ?? 0
        guard last != after else { return (last, []) }
        let first = try database.query("SELECT min(seq) FROM notification_changed").first?.first?.integer
        guard after >= 0, let first, first <= after + 1 else { return (last, nil) }
        let ids = try database.query("SELECT DISTINCT id FROM notification_changed WHERE seq > ?", [.integer(after)])
        return (last, Set(ids.map { UInt64(bitPattern: $0[0].integer ?? 0) }))
    }

    /// Forgets the log's entries but the last `keeping`: a look further behind reads the whole history.
    func pruneNotificationChanges(keeping: Int64) throws(StoreError) {
        try database.query("DELETE FROM notification_changed WHERE seq <= (SELECT max(seq) FROM notification_changed) - ?",
                           [.integer(keeping)])
    }

    /// What the last look worked from: the generation of `notification_seen` it left, the last entry of the log
    /// of the history's writes it read, and the first grace period end it saw ahead (milliseconds), after which
    /// time alone is a change.
    struct NotificationLookStamp: Equatable {
        var generation: Int64
        var changes: Int64
        var nextGraceEnd: Double?
    }

    func notificationLookStamp() throws(StoreError) -> NotificationLookStamp? {
        let parts = try notificationSetting("looked")?.split(separator: " ") ?? []
        guard parts.count == 3, let generation = Int64(parts[0]), let changes = Int64(parts[1]) else { return nil }
        return NotificationLookStamp(generation: generation, changes: changes, nextGraceEnd: Double(parts[2]))
    }

    func setNotificationLookStamp(_ stamp: NotificationLookStamp) throws(StoreError) {
        try setNotificationSetting("looked", "\(stamp.generation) \(stamp.changes) \(stamp.nextGraceEnd.map { String($0) } ?? "-")")
    }

    /// The renewal date extensions not told yet, oldest first: the last entry of their log (0 when none) and the
    /// transaction each moved the end of.
    func untoldExtensions() throws(StoreError) -> (through: Int64, transactionIDs: [UInt64]) {
        let rows = try database.query("SELECT seq, transaction_id FROM notification_extended ORDER BY seq")
        return (rows.last?[0].integer ?? 0, rows.map { UInt64(bitPattern: $0[1].integer ?? 0) })
    }

    /// Forgets the extensions told: those up to entry `through` of their log.
    func forgetExtensions(through: Int64) throws(StoreError) {
        try database.query("DELETE FROM notification_extended WHERE seq <= ?", [.integer(through)])
    }

    // MARK: - What was seen

    func loadSeen() throws(StoreError) -> [UInt64: StoreChangeDetector.Seen] {
        var seen: [UInt64: StoreChangeDetector.Seen] = [:]
        for row in try database.query("SELECT id, revoked, renewal_jws, grace_over, expiration FROM notification_seen") {
            let jws = row[2].text
            seen[UInt64(bitPattern: row[0].integer ?? 0)] = StoreChangeDetector.Seen(
                revoked: row[1].integer == 1, renewalJWS: jws,
                renewal: jws.flatMap { try? CompactJWS.decodeUnverified($0, as: RenewalInfoPayload.self) },
                graceOver: row[3].integer == 1, expiration: Self.date(row[4]))
        }
        return seen
    }

    /// Writes what differs between `seen` and `old` (the table's content).
    func saveSeen(_ seen: [UInt64: StoreChangeDetector.Seen], replacing old: [UInt64: StoreChangeDetector.Seen]) throws(StoreError) {
        for id in old.keys where seen[id] == nil {
            try database.query("DELETE FROM notification_seen WHERE id = ?", [.integer(Int64(bitPattern: id))])
        }
        for (id, value) in seen where old[id] != value {
            try database.query("""
                INSERT INTO notification_seen (id, revoked, renewal_jws, grace_over, expiration) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET revoked = excluded.revoked, renewal_jws = excluded.renewal_jws,
                    grace_over = excluded.grace_over, expiration = excluded.expiration
                """, [.integer(Int64(bitPattern: id)), .integer(value.revoked ? 1 : 0), value.renewalJWS.map { .text($0) } ?? .null,
                      .integer(value.graceOver ? 1 : 0), value.expiration.map { .real($0.timeIntervalSince1970) } ?? .null])
        }
    }

    // MARK: - The outbox

    /// Records a signed notification, due at once.
    func insertNotification(_ payload: NotificationPayload, signed: String, about transactionID: UInt64?, due: Date) throws(StoreError) {
        try database.query("""
            INSERT INTO notifications (uuid, type, subtype, transaction_id, signed_date, signed_payload, next_attempt)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, [.text(payload.recordedUUID), .text(payload.notificationType ?? ""), payload.subtype.map { .text($0) } ?? .null,
                  transactionID.map { .integer(Int64(bitPattern: $0)) } ?? .null, .integer(payload.recordedSignedDate), .text(signed),
                  .real(due.timeIntervalSince1970)])
    }

    /// Every notification recorded, oldest first.
    func notificationRecords() throws(StoreError) -> [ServerNotificationRecord] {
        try database.query("""
            SELECT id, uuid, type, subtype, transaction_id, signed_date, signed_payload, attempts, delivered, next_attempt
            FROM notifications ORDER BY id
            """).map { row in
            ServerNotificationRecord(
                id: row[0].integer ?? 0, notificationUUID: row[1].text ?? "", notificationType: row[2].text ?? "", subtype: row[3].text,
                transactionID: row[4].integer.map { UInt64(bitPattern: $0) }, signedDate: row[5].integer ?? 0,
                signedPayload: row[6].text ?? "",
                sendAttempts: (try? JSONDecoder().decode([NotificationSendAttempt].self, from: Data((row[7].text ?? "[]").utf8))) ?? [],
                isDelivered: row[8].integer == 1, isPending: Self.date(row[9]) != nil)
        }
    }

    /// Leases up to `limit` notifications due at `now` to `owner` until `now + lease`, leaving out `excluding`
    /// (what the sender still has in flight: its lease is not over before its POST is, but a clock step could
    /// make it so): no other sender takes them meanwhile. Their ids and signed payloads.
    func claimNotifications(owner: String, limit: Int, now: Date, lease: TimeInterval,
                            excluding: Set<Int64> = []) throws(StoreError) -> [(id: Int64, signedPayload: String)] {
        let skip = excluding.isEmpty ? "" : " AND id NOT IN (\(excluding.sorted().map(String.init).joined(separator: ",")))"
        let due = "next_attempt IS NOT NULL AND next_attempt <= ? AND (lease_until IS NULL OR lease_until <= ?)" + skip
        let time = SQLiteValue.real(now.timeIntervalSince1970)
        // Read first: most ticks find nothing due, and a write lock each time would be wasted.
        guard limit > 0, try !database.query("SELECT 1 FROM notifications WHERE \(due) LIMIT 1", [time, time]).isEmpty else { return [] }
        return try database.transaction { () throws(StoreError) in
            let rows = try database.query("SELECT id, signed_payload FROM notifications WHERE \(due) ORDER BY id LIMIT ?",
                                          [time, time, .integer(Int64(limit))])
            for row in rows {
                try database.query("UPDATE notifications SET lease_owner = ?, lease_until = ? WHERE id = ?",
                                   [.text(owner), .real(now.timeIntervalSince1970 + lease), row[0]])
            }
            return rows.map { ($0[0].integer ?? 0, $0[1].text ?? "") }
        }
    }

    /// Records an attempt of a notification `owner` leased, and ends the lease: delivered, due again after
    /// `retryDelays[n - 1]` from this n-th attempt, or given up after the last delay (or already, when the URL
    /// changed while it was sent). Nothing if the lease was lost.
    func completeNotification(_ id: Int64, owner: String, attempt: NotificationSendAttempt, at now: Date,
                              retryDelays: [TimeInterval]) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            guard let row = try database.query("SELECT attempts, next_attempt FROM notifications WHERE id = ? AND lease_owner = ?",
                                               [.integer(id), .text(owner)]).first, let text = row[0].text else { return }
            var attempts = (try? JSONDecoder().decode([NotificationSendAttempt].self, from: Data(text.utf8))) ?? []
            attempts.append(attempt)
            let delivered = attempt.sendAttemptResult == "SUCCESS"
            let givenUp = row[1] == .null || attempts.count > retryDelays.count
            let next: Date? = delivered || givenUp ? nil : now.addingTimeInterval(retryDelays[attempts.count - 1])
            let json = String(decoding: (try? JSONEncoder().encode(attempts)) ?? Data("[]".utf8), as: UTF8.self)
            try database.query("""
                UPDATE notifications SET attempts = ?, delivered = ?, next_attempt = ?, lease_owner = NULL, lease_until = NULL
                WHERE id = ?
                """, [.text(json), .integer(delivered ? 1 : 0), next.map { .real($0.timeIntervalSince1970) } ?? .null, .integer(id)])
        }
    }
}
