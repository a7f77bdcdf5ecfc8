/// Where a transaction's refund stands in its record (`JournalRecord.refund`): none → to tell → told, never back.
enum RefundState: Sendable, Equatable {
    /// No refunded copy was recorded.
    case notRefunded
    /// Recorded (the record finished, no longer an entitlement), not yet told to a handler that returned: told
    /// again at each launch.
    case toTell
    /// The game's handler of its `revoked` event returned.
    case told

    /// The journal's `refund` column: NULL none, 0 to tell, 1 told.
    init(column: SQLiteValue) {
        self = switch column.integer {
        case 0: .toTell
        case 1: .told
        default: .notRefunded
        }
    }

    var column: SQLiteValue {
        switch self {
        case .notRefunded: .null
        case .toTell: .integer(0)
        case .told: .integer(1)
        }
    }
}

/// The delivery and refund transitions of the record (invariants 5 and 6): each is written by the caller as a
/// compare-and-set over the record it read, in the SQLite transaction that also does what goes with it (the
/// grant, the take-back).
extension JournalRecord {
    /// The record once it holds a refunded copy: finished (nothing is left to grant; it never comes back as a
    /// purchase) and, unless its refund was recorded before, to tell. Not while a verifier failed the copy or has
    /// not passed it: an unproven refund must not finish what may be a genuine purchase.
    func recordingRefund() -> JournalRecord {
        guard copy?.isRevoked == true, verdict != .notVerified else { return self }
        var next = self
        next.finished = true
        if next.refund == .notRefunded { next.refund = .toTell }
        return next
    }

    /// Whether this write moved the refund from none to "to tell": its writer tells it (and takes back the grant in
    /// the same commit).
    func recordsRefund(over held: JournalRecord?) -> Bool {
        refund == .toTell && (held?.refund ?? .notRefunded) == .notRefunded
    }

    /// Whether a copy just written with the verifier's `outcome` may be told as purchased or restored: the
    /// verifier passed it, or nothing verifies and no verifier failed the record or left it pending; never a
    /// refunded one.
    func allowsTelling(after outcome: VerificationOutcome?) -> Bool {
        guard copy?.isRevoked != true else { return false }
        return switch outcome {
        case .verified: true
        case nil: Self.entitles(verdict)
        case .failed, .retryLater: false
        }
    }

    /// The record once the game finished it; `nil` when it was finished already (finishing is idempotent).
    /// Throws `notDelivered` for a record the game was never told as purchased or restored (transaction `id`).
    func finishing(_ id: UInt64) throws(StoreError) -> JournalRecord? {
        guard !finished else { return nil }
        guard told else {
            throw StoreError(.notDelivered, "transaction \(id) was never delivered to the game as purchased or restored (the id "
                + "of a verificationFailed is not one to finish); it stays unfinished, and is delivered once a verifier passes it")
        }
        var next = self
        next.finished = true
        return next
    }
}
