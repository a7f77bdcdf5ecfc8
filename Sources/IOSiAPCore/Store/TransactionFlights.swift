#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What this launch is doing, or has done, with each transaction, keyed by its id: the one in-memory map that every
/// path meeting on a transaction consults (a payment, launch redelivery, the store's updates, a restore, the grant
/// ledger as events are handed out), so that each step happens once per launch. What must outlive the launch is the
/// journal record's (`JournalRecord`); this holds only what is in flight, and is lost, harmlessly, with the process.
struct TransactionFlights {
    /// One step done, or being done, with a transaction in this launch.
    struct Mark: OptionSet {
        let rawValue: UInt16

        /// Queued as `purchased`.
        static let delivered = Mark(rawValue: 1 << 0)
        /// Being verified and delivered by its payment, which tells it: a delivery of the same charge from
        /// elsewhere (launch redelivery finding it unfinished in the store) stays quiet.
        static let deliveredByPayment = Mark(rawValue: 1 << 1)
        /// A refund being verified: the same refund reported twice (at launch, by the store's updates and its
        /// unfinished list) is checked and told once.
        static let revocationInFlight = Mark(rawValue: 1 << 2)
        /// Queued as `revoked`: the launch's re-telling of refunds still to tell and the store's report of a
        /// new one can meet.
        static let revocationTold = Mark(rawValue: 1 << 3)
        /// A refund whose handler returned, not yet noted told in the journal.
        static let revocationToNote = Mark(rawValue: 1 << 4)
        /// Its journal row was told as `journalRowUnreadable`.
        static let unreadableRowReported = Mark(rawValue: 1 << 5)
        /// Finished by the game: a request-less `purchased` of it queued before the finish is not handed out.
        static let finished = Mark(rawValue: 1 << 6)
        /// A retry of its unfinished check is scheduled: one chain of retries per transaction, however many paths
        /// (a delivery, an update, a restore, launch redelivery) found its check unfinished.
        static let checkScheduled = Mark(rawValue: 1 << 7)
        /// Its `revoked` event was handed to the game: a purchase of it queued before is not handed out after it.
        static let revocationHandedOut = Mark(rawValue: 1 << 8)
        /// Held while a purchase of its product runs, it ends a deferral the game was told of: on release it is
        /// told again unless that purchase's answer told it.
        static let endsDeferral = Mark(rawValue: 1 << 9)
        /// Queued as `expired`: a transaction ends once, however many reports of its end pass in this launch.
        static let expiryTold = Mark(rawValue: 1 << 10)
        /// Queued as `verificationFailed` outside a request, for a failed verdict, or for a check that could not
        /// complete (`retryableFailureTold`): StoreKit hands an unfinished transaction over twice at launch (its
        /// updates and its unfinished list), and the game hears each once per launch, or again after a check of
        /// it passed.
        static let failureTold = Mark(rawValue: 1 << 11)
        static let retryableFailureTold = Mark(rawValue: 1 << 12)
    }

    /// One transaction's flight: a few bytes, since a launch keeps one for each purchase it delivered (a copy held
    /// for a payment is kept apart, in `heldForPayment`, only while that payment is in progress).
    private struct Flight {
        /// Its `purchased` events queued before the game's first poll with no grant registered then: the ledger
        /// grants each as it is handed out. (32 bits: with the two fields after it, a flight takes 8 bytes.)
        var purchasesToGrant: Int32 = 0
        var marks: Mark = []
        /// Its refund's take-back, left for when its `revoked` is handed out.
        var takeBackAtHandOut = false

        var isEmpty: Bool { marks.isEmpty && purchasesToGrant == 0 && !takeBackAtHandOut }
    }

    private var flights: [UInt64: Flight] = [:]
    /// Purchases in progress in the store now, counted per product (their transaction ids are not known yet).
    private var purchasesInProgress: [String: Int] = [:]
    /// Request-less deliveries held while a purchase of their product is in progress: each may be that purchase's
    /// own charge, listed unfinished (and found by launch redelivery) before `purchase` returns it.
    private var heldForPayment: [UInt64: StoreTransaction] = [:]
    /// Copies the store reported as owned whose check could not complete, the newest report of each transaction:
    /// its one chain of retries checks the copy reported last.
    private var entitlementsToCheck: [UInt64: StoreTransaction] = [:]
    /// The transactions whose billing grace period the store said is over in this launch, with when the renewal
    /// info that said so was signed (the latest such report): a report of a grace period signed before it (a retry
    /// of an older report, a status read earlier) must not bring that end back.
    private var graceEnded: [UInt64: Date] = [:]
    /// Refunds and expiries whose check could not complete, the one that says most of each transaction: its one
    /// chain of retries checks that one.
    private var statusChangesToCheck: [UInt64: (update: StoreUpdate, transaction: StoreTransaction)] = [:]

    private mutating func update<Result>(_ id: UInt64, _ change: (inout Flight) -> Result) -> Result {
        var flight = flights[id] ?? Flight()
        let result = change(&flight)
        flights[id] = flight.isEmpty ? nil : flight
        return result
    }

    // MARK: - Marks

    /// Marks `id`; says whether it was not marked so before.
    mutating func insert(_ mark: Mark, _ id: UInt64) -> Bool {
        update(id) { flight in
            defer { flight.marks.formUnion(mark) }
            return !flight.marks.contains(mark)
        }
    }

    mutating func remove(_ mark: Mark, _ id: UInt64) {
        update(id) { _ = $0.marks.remove(mark) }
    }

    func contains(_ mark: Mark, _ id: UInt64) -> Bool {
        flights[id]?.marks.contains(mark) ?? false
    }

    /// The transactions marked `mark`.
    func ids(_ mark: Mark) -> [UInt64] {
        flights.compactMap { $0.value.marks.contains(mark) ? $0.key : nil }
    }

    // MARK: - Payments in progress

    /// A purchase of `productID` starts in the store.
    mutating func startPurchase(of productID: String) {
        purchasesInProgress[productID, default: 0] += 1
    }

    /// Holds a request-less delivery of `transaction` if a purchase of its product is in progress; says whether it did.
    mutating func holdIfPurchaseInProgress(_ transaction: StoreTransaction) -> Bool {
        guard purchasesInProgress[transaction.productID] != nil else { return false }
        heldForPayment[transaction.id] = transaction
        return true
    }

    /// A purchase of `productID` returned; once none is in progress, the deliveries held for it, to queue now.
    mutating func endPurchase(of productID: String) -> [StoreTransaction] {
        let remaining = (purchasesInProgress[productID] ?? 1) - 1
        purchasesInProgress[productID] = remaining > 0 ? remaining : nil
        guard remaining <= 0 else { return [] }
        let held = heldForPayment.values.filter { $0.productID == productID }.sorted { $0.id < $1.id }
        for transaction in held { heldForPayment[transaction.id] = nil }
        return held
    }

    // MARK: - Entitlements the store reported, checked again

    /// Keeps `transaction` to check again unless the copy kept says more (it ranks higher in the journal's order, or
    /// states a later grace period's end): a retry of an older report that meets a newer one never replaces it.
    /// Says whether no retry of it was waiting (the caller schedules one).
    mutating func keepEntitlementToCheck(_ transaction: StoreTransaction) -> Bool {
        guard let kept = entitlementsToCheck[transaction.id] else {
            entitlementsToCheck[transaction.id] = transaction
            return true
        }
        let grace = transaction.gracePeriodExpirationDate ?? .distantPast, keptGrace = kept.gracePeriodExpirationDate ?? .distantPast
        if JournalRecord.ranks(transaction, above: kept) && grace >= keptGrace { entitlementsToCheck[transaction.id] = transaction }
        return false
    }

    /// The store said the grace period of `id` is over, in renewal info signed at `signedAt` (or, without one, as
    /// of then): the copy kept to check again no longer states its end, and no report of a grace end signed no later
    /// counts in this launch (`isStaleGracePeriod`).
    mutating func noteGracePeriodEnded(_ id: UInt64, signedAt: Date) {
        graceEnded[id] = max(graceEnded[id] ?? signedAt, signedAt)
        entitlementsToCheck[id]?.gracePeriodExpirationDate = nil
        entitlementsToCheck[id]?.signedRenewalInfo = nil
    }

    /// Whether `transaction` states a grace period's end that the store said is over since: its renewal info was
    /// signed no later than the report of the end, or cannot say when.
    func isStaleGracePeriod(_ transaction: StoreTransaction) -> Bool {
        guard transaction.gracePeriodExpirationDate != nil, let endedAt = graceEnded[transaction.id] else { return false }
        guard let signed = transaction.renewalInfoSignedDate else { return true }
        return signed <= endedAt
    }

    /// Takes the copy of `id` kept to check again.
    mutating func takeEntitlementToCheck(_ id: UInt64) -> StoreTransaction? {
        entitlementsToCheck.removeValue(forKey: id)
    }

    // MARK: - Refunds and expiries, checked again

    /// Keeps `update` (a refund or an expiry of `transaction`) to check again unless the one kept says more (its copy
    /// ranks higher in the journal's order: a refund above an expiry, then the newer signature). Says whether no
    /// retry of that transaction's status was waiting (the caller schedules one, and tells the game once).
    mutating func keepStatusChangeToCheck(_ update: StoreUpdate, of transaction: StoreTransaction) -> Bool {
        guard let kept = statusChangesToCheck[transaction.id] else {
            statusChangesToCheck[transaction.id] = (update, transaction)
            return true
        }
        if JournalRecord.ranks(transaction, above: kept.transaction) { statusChangesToCheck[transaction.id] = (update, transaction) }
        return false
    }

    /// The refund or expiry of `id` its chain of retries checks next; kept until one of its reports is judged.
    func statusChangeToCheck(_ id: UInt64) -> StoreUpdate? {
        statusChangesToCheck[id]?.update
    }

    /// A refund or expiry of `id` was judged (passed or failed): its chain ends; returns what it kept to check.
    mutating func takeStatusChangeToCheck(_ id: UInt64) -> StoreUpdate? {
        statusChangesToCheck.removeValue(forKey: id)?.update
    }

    // MARK: - The grant ledger, as events are handed out

    /// A `purchased` of `id` is queued for the ledger to grant as it is handed out.
    mutating func addPurchaseToGrant(_ id: UInt64) {
        update(id) { $0.purchasesToGrant += 1 }
    }

    /// Takes one purchase of `id` left to grant; says whether there was one.
    mutating func takePurchaseToGrant(_ id: UInt64) -> Bool {
        update(id) { flight in
            guard flight.purchasesToGrant > 0 else { return false }
            flight.purchasesToGrant -= 1
            return true
        }
    }

    /// The refund of `id` is to be taken back as its `revoked` is handed out; says whether it was not already.
    mutating func addTakeBackAtHandOut(_ id: UInt64) -> Bool {
        update(id) { flight in
            defer { flight.takeBackAtHandOut = true }
            return !flight.takeBackAtHandOut
        }
    }

    /// Takes the take-back left for `id`'s hand-out; says whether there was one.
    mutating func takeTakeBackAtHandOut(_ id: UInt64) -> Bool {
        update(id) { flight in
            defer { flight.takeBackAtHandOut = false }
            return flight.takeBackAtHandOut
        }
    }
}
