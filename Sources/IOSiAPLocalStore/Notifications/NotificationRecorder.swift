#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPVerification

/// Records in the outbox the notifications the store's changes imply, exactly once whichever process looks
/// (the game, `iosiap-store serve`, both), without holding up the game: a look reads on a snapshot, without
/// the write lock, and takes it only to write what it found.
///
/// A look first reads the log of the history's writes (triggers log the transaction each write of
/// `transactions` touched, by any process): no entry since the last look's, and no grace period end passed since
/// (time alone ends one), is nothing to notify, found in a few reads. Otherwise it reads the transactions written
/// since (the process keeps the rest, without their signatures), compares the history with what the
/// notifications were last worked out from (`notification_seen`, `StoreChangeDetector`) and signs what changed;
/// then, in one write transaction, it checks that no other look wrote since its snapshot (the table's
/// generation), inserts the notifications and writes what it saw, or looks again. A look that fails records
/// nothing and changes nothing. A change made while no process looks (the CLI, a closed game) is found by the
/// next look from the state.
struct NotificationRecorder {
    let signer: TransactionSigner
    let environment: StoreEnvironment
    /// What this process last saw, good while the table's generation is the one it wrote or read, as of entry
    /// `logged` of the log of the history's writes: a look from there compares only what was written since.
    private var cached: (generation: Int64, logged: Int64, detector: StoreChangeDetector)?
    /// The history as of entry `logged` of the log of its writes, without the signed transactions (read again
    /// for what is notified): a look reads only the transactions written since.
    private var history: (logged: Int64, transactions: [StoreTransaction], index: [UInt64: Int])?
    /// How many entries of that log are kept: a process further behind reads the whole history once.
    private static let logKept: Int64 = 10_000

    /// How many times a look starts again when other looks keep writing between its read and its write.
    private static let attempts = 8

    init(signer: TransactionSigner, environment: StoreEnvironment) {
        self.signer = signer
        self.environment = environment
    }

    /// The baseline a newly set URL starts from: the history as it is, nothing to notify of it.
    static func baseline(of history: [StoreTransaction], at now: Date) -> [UInt64: StoreChangeDetector.Seen] {
        var detector = StoreChangeDetector()
        _ = detector.changes(in: history, at: now)
        return detector.seen ?? [:]
    }

    /// What a look read and worked out on one snapshot.
    private struct Look {
        var generation: Int64
        /// The last entry of the log of the history's writes it read.
        var logged: Int64
        var stamp: LocalStoreState.NotificationLookStamp
        var detector: StoreChangeDetector
        var old: [UInt64: StoreChangeDetector.Seen]
        var notifications: [(payload: NotificationPayload, signed: String, transactionID: UInt64)]
        /// The last entry of the log of renewal date extensions it told (0: none).
        var extensionsThrough: Int64
        /// Nothing to write: no notification, the same seen, the same stamp, no extension told.
        var unchanged: Bool
    }

    /// Records what changed since the last look; how many notifications. Nothing without a notification URL.
    @discardableResult
    mutating func record(in state: LocalStoreState, at now: Date) throws(StoreError) -> Int {
        for _ in 0..<Self.attempts {
            guard let look = try look(in: state, at: now) else { return 0 }
            if let recorded = try write(look, in: state) { return recorded }
        }
        throw StoreError(.storageFailure, "other processes kept recording notifications; try again")
    }

    /// Reads and compares on a snapshot, without the write lock; nil when there is nothing to write.
    private mutating func look(in state: LocalStoreState, at now: Date) throws(StoreError) -> Look? {
        let cached = self.cached
        let signer = self.signer
        let environment = self.environment
        let look = try state.database.snapshot { () throws(StoreError) -> Look? in
            guard try state.notificationURL() != nil else { return nil }
            let generation = try state.notificationGeneration()
            let written = try state.notificationChanges(after: history?.logged ?? -1)
            let last = try state.notificationLookStamp()
            if let last, last.generation == generation, last.changes == written.last,
               last.nextGraceEnd.map({ Milliseconds(now).value < $0 }) ?? true {
                return nil
            }
            let from = history?.logged
            let touched = try updateHistory(written, in: state)
            var detector: StoreChangeDetector
            var compared: Set<UInt64>?
            if let cached, cached.generation == generation {
                detector = cached.detector
                // What this process saw last is as of the history before this update: only what it read is new.
                compared = cached.logged == from ? touched : nil
            } else {
                detector = StoreChangeDetector(seen: try state.loadSeen())
            }
            let old = detector.seen ?? [:]
            let extensions = try state.untoldExtensions()
            var notifications: [(payload: NotificationPayload, signed: String, transactionID: UInt64)] = []
            for change in detector.changes(in: history?.transactions ?? [], touched: compared, extended: extensions.transactionIDs,
                                           at: now) {
                let transaction = try state.transaction(id: change.transaction.id) ?? change.transaction
                let payload = NotificationPayload(change.type, change.subtype, about: transaction, bundleID: signer.bundleID,
                                                  environment: environment, at: now)
                notifications.append((payload, try signer.chain.sign(json: payload), change.transaction.id))
            }
            let stamp = LocalStoreState.NotificationLookStamp(generation: generation, changes: written.last,
                                                                nextGraceEnd: Self.nextGraceEnd(detector.seen ?? [:], after: now))
            if notifications.isEmpty, detector.seen == old, stamp == last, extensions.through == 0 {
                return Look(generation: generation, logged: written.last, stamp: stamp, detector: detector, old: old, notifications: [],
                            extensionsThrough: 0, unchanged: true)
            }
            return Look(generation: generation, logged: written.last, stamp: stamp, detector: detector, old: old,
                        notifications: notifications, extensionsThrough: extensions.through, unchanged: false)
        }
        if let look, look.notifications.isEmpty, look.detector.seen == look.old {
            // Nothing new: what was seen stays good for the next look, whatever the stamp's write below does.
            self.cached = (look.generation, look.logged, look.detector)
        }
        return look?.unchanged == true ? nil : look
    }

    /// Writes what `look` found, unless another look wrote since its snapshot (nil: look again); how many.
    private mutating func write(_ look: Look, in state: LocalStoreState) throws(StoreError) -> Int? {
        let written = try state.database.transaction { () throws(StoreError) -> Int64? in
            // Another look (this process's or another's) wrote since the snapshot, or the URL changed.
            guard try state.notificationGeneration() == look.generation else { return nil }
            var stamp = look.stamp
            let seen = look.detector.seen ?? [:]
            if !look.notifications.isEmpty || seen != look.old {
                for notification in look.notifications {
                    try state.insertNotification(notification.payload, signed: notification.signed, about: notification.transactionID,
                                                 due: Date())
                }
                try state.saveSeen(seen, replacing: look.old)
                stamp.generation = try state.bumpNotificationGeneration()
            }
            if look.extensionsThrough > 0 { try state.forgetExtensions(through: look.extensionsThrough) }
            try state.pruneNotificationChanges(keeping: Self.logKept)
            try state.setNotificationLookStamp(stamp)
            return stamp.generation
        }
        guard let written else {
            cached = nil
            return nil
        }
        cached = (written, look.logged, look.detector)
        return look.notifications.count
    }

    /// Brings the history up to the log's last entry: the transactions written since, or all when this process
    /// has none or the log no longer reaches back to it. Ordered by id, as the detector reads it. The ids of the
    /// transactions written since; nil when all were read.
    private mutating func updateHistory(_ written: (last: Int64, ids: Set<UInt64>?),
                                        in state: LocalStoreState) throws(StoreError) -> Set<UInt64>? {
        guard var current = history, let ids = written.ids else {
            let all = try state.allTransactions().map(Self.withoutSignature)
            history = (written.last, all, Dictionary(uniqueKeysWithValues: all.enumerated().map { ($1.id, $0) }))
            return nil
        }
        var removed = false
        for id in ids.sorted() {
            let transaction = try state.transaction(id: id).map(Self.withoutSignature)
            switch (transaction, current.index[id]) {
            case (let transaction?, let position?): current.transactions[position] = transaction
            case (let transaction?, nil) where id > (current.transactions.last?.id ?? 0):
                current.index[id] = current.transactions.count
                current.transactions.append(transaction)
            case (nil, nil): break
            default: removed = true  // a transaction deleted, or one inserted out of order: all read again below
            }
        }
        current.logged = written.last
        history = current
        guard removed else { return ids }
        history = nil
        return try updateHistory((written.last, nil), in: state)
    }

    /// What the detector reads of a transaction: all but its signature, which only a notification carries.
    private static func withoutSignature(_ transaction: StoreTransaction) -> StoreTransaction {
        var transaction = transaction
        transaction.signedJWS = nil
        return transaction
    }

    /// The first end of a grace period after `now` among the subscriptions in billing retry (milliseconds).
    private static func nextGraceEnd(_ seen: [UInt64: StoreChangeDetector.Seen], after now: Date) -> Double? {
        let now = Milliseconds(now).value
        return seen.values.compactMap { seen -> Double? in
            guard seen.renewal?.isInBillingRetryPeriod == true, let end = seen.renewal?.gracePeriodExpiresDate?.value, end > now else { return nil }
            return end
        }.min()
    }
}
