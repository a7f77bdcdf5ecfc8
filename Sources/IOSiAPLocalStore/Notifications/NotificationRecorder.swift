import Foundation
import IOSiAPCore
import IOSiAPVerification

/// Records in the outbox the notifications the store's changes imply, exactly once whichever process looks
/// (the game, `iosiap-store serve`, both): in one write transaction it reads what the notifications were last
/// worked out from (`notification_seen`), compares the history with it (`StoreChangeDetector`), signs and
/// inserts each notification, and writes what it saw. SQLite's write lock makes two looks one after the other,
/// so the second finds nothing the first recorded; a look that fails records nothing and changes nothing.
/// A change made while no process looks (the CLI, a closed game) is found by the next look from the state.
struct NotificationRecorder {
    let signer: TransactionSigner
    let environment: StoreEnvironment
    /// What this process last saw, good while the table's generation is the one it wrote.
    private var cached: (generation: Int64, detector: StoreChangeDetector)?

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

    /// Records what changed since the last look; how many notifications. Nothing without a notification URL.
    @discardableResult
    mutating func record(in state: LocalStoreState, at now: Date) throws(StoreError) -> Int {
        guard try state.notificationURL() != nil else { return 0 }
        var recorded = 0
        var seenNow: (generation: Int64, detector: StoreChangeDetector)?
        try state.database.transaction { () throws(StoreError) in
            guard try state.notificationURL() != nil else { return }
            let generation = try state.notificationGeneration()
            var detector: StoreChangeDetector
            if let cached, cached.generation == generation {
                detector = cached.detector
            } else {
                detector = StoreChangeDetector(seen: try state.loadSeen())
            }
            let old = detector.seen ?? [:]
            let changes = detector.changes(in: try state.allTransactions(), at: now)
            for change in changes {
                let payload = NotificationPayload(change.type, change.subtype, about: change.transaction, bundleID: signer.bundleID,
                                                  environment: environment, at: now)
                try state.insertNotification(payload, signed: try signer.chain.sign(json: payload), about: change.transaction.id, due: Date())
            }
            let seen = detector.seen ?? [:]
            guard !changes.isEmpty || seen != old else {
                seenNow = (generation, detector)
                return
            }
            try state.saveSeen(seen, replacing: old)
            seenNow = (try state.bumpNotificationGeneration(), detector)
            recorded = changes.count
        }
        cached = seenNow
        return recorded
    }
}
