#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One transaction's delivery record: its row in the journal, which every path (a payment, launch redelivery, the
/// backend's updates, a restore, the grant ledger, finish) reads and changes only inside one SQLite transaction, as
/// a compare-and-set on the row it read there.
///
/// Its invariants keep the promises of DESIGN.md §1:
/// 1. **Nothing paid is lost.** One record per transaction id, written in one commit before any event of it is
///    queued; it stays unfinished, delivered again at each launch, until the game (or the ledger, in the commit
///    that grants it) finishes it.
/// 2. **Nothing is granted twice.** `finished` never goes back to unfinished, and a grant is written only in the
///    commit that sets it.
/// 3. **The copy is replaced only by one that ranks higher** (`ranks(_:above:)`): a revoked copy is never replaced
///    by an unrevoked one; otherwise the newer signed date wins. A copy no verifier passed yet is replaced by any
///    copy one passed, and records no refund. A late copy (a retried check, launch redelivery's
///    snapshot, the ledger's event) never undoes a recorded refund or expiry. The same signed copy without the
///    grace period's end a passed copy holds (StoreKit's transactions never carry it) leaves that copy: only the
///    store's word that the grace period is over lowers that end (`Journal.endGracePeriod`).
/// 4. **The verdict is never weakened.** A copy a verifier failed, or could not check, never replaces the one held;
///    a failed or pending verdict stays until a verifier passes that copy; a write without a verifier never changes
///    the verdict. The record entitles (`entitles(_:)`) unless its verdict is failed or pending; as the newest of its
///    subscription's chain it decides the subscription even then, from its purchase date on
///    (`Entitlements.current`). A pending check is retried in the launch until a verifier answers, and a finished
///    record no verifier passed is checked again at later launches that have a verifier, a bounded round of them
///    each (`Journal.finishedTransactionsNotVerified`).
/// 5. **Delivery moves forward only: journaled → told → finished.** `told` is set in the commit after which the
///    game is told the transaction as purchased or restored (never for a copy a verifier failed or has not passed),
///    and `finish` is refused (`notDelivered`) for a record never told: an id the game only saw in a
///    `verificationFailed` is not finished unseen. A refunded record is finished. (A write that may tell also marks
///    an already finished record told, telling nothing: a finished record is never told again.)
/// 6. **A refund is told exactly once to a handler that returned.** Its state moves forward only: none → to tell
///    (set by whichever write first holds a refunded copy, in the commit that takes back what the ledger granted
///    for it, or, before the game has set its refund rule, in the commit that notes it told) → told (written only
///    after the game's handler of `revoked` returned). A refund still to tell is told again at each launch; a
///    second refunded copy never makes it "to tell" again. See `JournalRecord+Delivery.swift`.
///
/// Promise 3, every request ends, rests on the record too: a payment whose transaction was charged ends in one
/// terminal event whatever its record holds (purchased once told; failed when refunded or not durable;
/// verificationFailed while no verifier passed it), in `StoreWorker.deliver`.
struct JournalRecord: Sendable, Equatable {
    /// The copy held, or `nil` when its stored payload cannot be decoded (a damaged row: any copy replaces it, except
    /// an unrevoked one while the record holds a refund).
    var copy: StoreTransaction?
    /// The stored bytes of `copy`: what the compare-and-set compares.
    var payload: [UInt8]
    var finished: Bool
    /// The verdict on `copy`.
    var verdict: RecordedVerdict
    /// Whether the game was told the transaction as purchased or restored: what `finish` needs.
    var told: Bool
    /// Where its refund stands.
    var refund: RefundState

    /// Whether a record with `verdict` may entitle the user: unless a verifier failed its copy or has not passed it
    /// yet.
    static func entitles(_ verdict: RecordedVerdict) -> Bool { verdict != .notVerified }

    /// Whether `incoming`, a copy of the transaction `held` is a copy of, may replace it: a revoked copy is never
    /// replaced by an unrevoked one; otherwise the newer signed date wins. Copies signed at the same time, or whose
    /// signed date cannot be read (a store that does not sign), rank by arrival: the later replaces the earlier.
    /// Any copy replaces an unreadable one (`nil`).
    static func ranks(_ incoming: StoreTransaction, above held: StoreTransaction?) -> Bool {
        guard let held else { return true }
        if incoming.isRevoked != held.isRevoked { return incoming.isRevoked }
        guard let new = incoming.signedDateFromJWS, let old = held.signedDateFromJWS else { return true }
        return new >= old
    }

    /// Whether `incoming` may replace the copy held: it ranks higher, or the copy held is unreadable (a damaged
    /// row) and `incoming` does not contradict the refund the record holds.
    private func isOutranked(by incoming: StoreTransaction) -> Bool {
        guard copy != nil || refund == .notRefunded else { return incoming.isRevoked }
        return Self.ranks(incoming, above: copy)
    }

    /// Whether writing `incoming` over the copy held would forget the grace period's end the record learnt: the
    /// same signed copy without it (StoreKit's transaction never carries it; the subscription's status gave it, and
    /// the same copy may come again through `Transaction.updates` or a launch's redelivery afterwards).
    private func losesGracePeriod(to incoming: StoreTransaction) -> Bool {
        guard let copy, copy.gracePeriodExpirationDate != nil, incoming.gracePeriodExpirationDate == nil else { return false }
        return copy.isSameCopy(as: incoming)
    }

    /// The record after a write of `incoming` (stored as `payload`) with the verifier's `outcome` (`nil`: nothing
    /// verifies): the one transition every write path goes through. A refunded copy it keeps records the refund.
    func writing(_ incoming: StoreTransaction, payload: [UInt8], outcome: VerificationOutcome?) -> JournalRecord {
        var next = self
        switch outcome {
        case .verified:
            // A copy a verifier passed replaces one none passed, whatever their rank (the unproven copy may be forged),
            // unless the record holds a refund already: no copy undoes a recorded refund.
            guard (verdict == .notVerified && refund == .notRefunded) || isOutranked(by: incoming) else { break }
            // The held copy's grace period's end stays only if a verifier passed it too: a pass of the copy without
            // it says nothing of that end.
            if verdict != .verified || !losesGracePeriod(to: incoming) {
                next.copy = incoming
                next.payload = payload
            }
            next.verdict = .verified
        case nil:
            // Nothing verifies: the copy may move up, but the verdict stays what a verifier last said.
            guard isOutranked(by: incoming), !losesGracePeriod(to: incoming) else { break }
            next.copy = incoming
            next.payload = payload
        case .failed:
            // Kept out; it says something of the copy held only if it is that copy (a certificate revoked since).
            if let copy, copy.isSameCopy(as: incoming) { next.verdict = .notVerified }
        case .retryLater:
            // A check that could not complete says nothing of the copy held.
            break
        }
        return next.recordingRefund()
    }

    // MARK: - SQL

    /// The record of transaction `id`, read inside the caller's SQLite transaction; `nil` if there is none.
    static func read(_ id: SQLiteValue, in database: SQLiteDatabase) throws(StoreError) -> JournalRecord? {
        guard let row = try database.query("SELECT payload, finished, verdict, told, refund FROM transactions WHERE id = ?", [id])
            .first else { return nil }
        let payload = row[0].bytes ?? []
        return JournalRecord(copy: try? decode(payload), payload: payload, finished: row[1].integer == 1,
                             verdict: RecordedVerdict(column: row[2]), told: row[3].integer == 1, refund: RefundState(column: row[4]))
    }

    /// Writes this record over `held`, the one read in the same SQLite transaction, as a compare-and-set: the row
    /// changes only if it still is `held`. Writes nothing when nothing changed.
    func write(over held: JournalRecord, id: SQLiteValue, in database: SQLiteDatabase) throws(StoreError) {
        guard self != held else { return }
        // The copy written decides whether the row is a consumable's (the entitlements read only the others): an
        // unreadable copy counts as possibly entitling.
        try database.query("""
            UPDATE transactions SET payload = ?, verdict = ?, finished = ?, told = ?, refund = ?, consumable = ?
            WHERE id = ? AND payload = ? AND verdict IS ? AND finished = ? AND told = ? AND refund IS ?
            """, [.blob(payload), verdict.column, .integer(finished ? 1 : 0), .integer(told ? 1 : 0), refund.column,
                  .integer(copy?.productType == .consumable ? 1 : 0),
                  id, .blob(held.payload), held.verdict.column, .integer(held.finished ? 1 : 0), .integer(held.told ? 1 : 0),
                  held.refund.column])
        guard database.changes == 1 else {
            throw StoreError(.storageFailure, "the journal's record of transaction \(id.integer ?? 0) changed while it was written")
        }
    }

    /// Inserts this record as transaction `id`'s, inside the caller's SQLite transaction.
    func insert(id: SQLiteValue, productID: String, consumable: Bool, in database: SQLiteDatabase) throws(StoreError) {
        try database.query("""
            INSERT INTO transactions (id, product_id, finished, payload, verdict, told, refund, consumable) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [id, .text(productID), .integer(finished ? 1 : 0), .blob(payload), verdict.column, .integer(told ? 1 : 0),
                  refund.column, .integer(consumable ? 1 : 0)])
    }

    static func decode(_ bytes: [UInt8]) throws(StoreError) -> StoreTransaction {
        do { return try JSONDecoder().decode(StoreTransaction.self, from: Data(bytes)) } catch {
            throw StoreError(.storageFailure, "journal holds an unreadable transaction: \(error)")
        }
    }
}

extension JournalRecord {
    /// The record of a transaction the journal did not hold, written with the verifier's `outcome` (`nil`: none).
    init(new transaction: StoreTransaction, payload: [UInt8], finished: Bool, outcome: VerificationOutcome?) {
        self.init(copy: transaction, payload: payload, finished: finished, verdict: outcome.recorded, told: false, refund: .notRefunded)
        self = recordingRefund()
    }
}

extension RecordedVerdict {
    /// The journal's `verdict` column: 1 verified, 0 failed or pending, NULL none (nothing verified it).
    init(column: SQLiteValue) {
        self = switch column.integer {
        case 1: .verified
        case 0: .notVerified
        default: .none
        }
    }

    var column: SQLiteValue {
        switch self {
        case .none: .null
        case .verified: .integer(1)
        case .notVerified: .integer(0)
        }
    }
}

extension StoreTransaction {
    /// When the store signed this copy: the `signedDate` of its JWS payload (read, not verified: it only orders
    /// copies of one transaction, and a copy that did not pass a verifier never replaces another); `nil` when it
    /// has no JWS or the payload has no readable date.
    package var signedDateFromJWS: Date? { signedJWS.flatMap(Self.signedDate(of:)) }

    /// When the store signed its renewal info (`signedRenewalInfo`'s `signedDate`, read, not verified): it orders
    /// reports of the transaction's grace period; `nil` without one.
    var renewalInfoSignedDate: Date? { signedRenewalInfo.flatMap(Self.signedDate(of:)) }

    /// The `signedDate` of a compact JWS's payload, read, not verified; `nil` when it has none.
    static func signedDate(of jws: String) -> Date? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        struct Payload: Decodable { var signedDate: Double? }
        guard let data = Base64URL.decode(parts[1]).map({ Data($0) }),
              let milliseconds = (try? JSONDecoder().decode(Payload.self, from: data))?.signedDate else { return nil }
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }

    /// Whether `other` is this very copy: the same signature, or for a store that does not sign, the same fields.
    package func isSameCopy(as other: StoreTransaction) -> Bool {
        if let jws = signedJWS, let otherJWS = other.signedJWS { return jws == otherJWS }
        return self == other
    }
}
