import Synchronization

/// The optional built-in grant ledger: for products the game registered, a purchased transaction is
/// granted and finished in one journal transaction, and the game is told `granted` instead of `purchased`.
/// Redelivery of a finished transaction grants nothing.
///
/// The ledger settles purchases as the worker queues them (`settle`, called by the worker before it pushes): the grant's
/// commit, with its disk sync, runs on the worker's thread and `granted` is queued only once it is durable,
/// so `poll` never waits for the disk but at launch. A crash between the commit and the game's poll loses the
/// event, not the grant. The launch window is the exception: grants are registered right after opening, and a
/// transaction redelivered at launch may be queued before its product's grant is. So a purchase queued before
/// the game's first poll of a product with no grant registered then is granted by `apply` as it leaves the
/// queue, on the game's thread, with the grants of that moment; if the store closes meanwhile it is withheld,
/// never handed out plain. Refunds are not the ledger's to settle: the journal takes back what it granted in
/// the commit that records the refund, or (before the game's first poll, while its refund rule may still
/// change, and for a refund told again at launch) as its event is handed out (`apply`), by
/// `deductsRefundedConsumables` then (`Journal.TakeBack`).
package final class GrantLedger: Sendable {
    private let journal: Journal
    private let rules = Locked<[String: Grant]>([:])
    /// Lets `settle` skip the lock while nothing is registered.
    private let hasRules = Atomic<Bool>(false)
    private let deductsRefunds = Atomic<Bool>(false)
    /// Tells the backend about a transaction the ledger finished.
    private let finished: @Sendable (UInt64) -> Void
    /// The launch's flights (`TransactionFlights`, shared with the worker): what `apply` does as a transaction's
    /// event is handed out, the purchases `settle` left to grant and the refunds' take-backs left for then.
    private let flights: Locked<TransactionFlights>
    /// Mirrors how much of that work is left, so that `apply` takes no lock on the poll path when there is none.
    private let deferredCount = Atomic<Int>(0)

    init(journal: Journal, flights: Locked<TransactionFlights>, finished: @escaping @Sendable (UInt64) -> Void) {
        self.journal = journal
        self.flights = flights
        self.finished = finished
    }

    func register(_ grant: Grant, for productID: String) throws(StoreError) {
        try RequestValidation.validateProductID(productID)
        switch grant {
        case .currency(let name, let perUnit):
            try Self.validateName(name, "currency")
            guard (1...Grant.maximumAmountPerUnit).contains(perUnit) else {
                throw StoreError(.invalidArgument, "amount per unit \(perUnit) is outside 1...\(Grant.maximumAmountPerUnit)")
            }
        case .entitlement(let name):
            try Self.validateName(name, "entitlement")
        }
        rules.withLock { $0[productID] = grant }
        hasRules.store(true, ordering: .releasing)
    }

    func setDeductsRefundedConsumables(_ deducts: Bool) {
        deductsRefunds.store(deducts, ordering: .relaxed)
    }

    /// Whether a refund takes back the currency its purchase granted: the rule the journal's take-back follows.
    var deductsRefundedConsumables: Bool { deductsRefunds.load(ordering: .relaxed) }

    /// The products registered with an entitlement grant named `name`.
    func products(grantingEntitlement name: String) -> Set<String> {
        rules.withLock { rules in Set(rules.filter { $0.value == .entitlement(name) }.keys) }
    }

    /// The event to queue for `event`, or `nil` when the game has nothing to hear: called on the thread that
    /// queues it (the worker's), before it is queued. A purchase of a registered product is granted and
    /// finished here. `beforeFirstPoll`: the game has not polled yet, so a purchase that cannot be granted with
    /// the grants registered now is left to `apply`.
    func settle(_ event: StoreEvent, beforeFirstPoll: Bool) -> StoreEvent? {
        guard case .purchased(let requestID, let transaction) = event else { return event }
        if let grant = rule(for: transaction.productID) {
            return self.grant(transaction, grant, requestID: requestID, event: event)
        }
        if beforeFirstPoll { deferToApply(transaction.id) }
        return event
    }

    /// The event the game sees for `event` as it leaves the queue, or `nil` when it has nothing left to tell.
    /// Only purchases `settle` deferred (queued before the first poll) change here; the rest pass through
    /// after one atomic load. Once the store is closed the ledger writes nothing (the journal's directory may
    /// belong to another store): a purchase it was left to grant is withheld then, not handed out plain (the
    /// game would grant it itself, and the ledger again at the next launch, where it is still unfinished), also
    /// when the store closes on another thread while it is granted.
    func apply(_ event: StoreEvent) -> StoreEvent? {
        guard deferredCount.load(ordering: .acquiring) > 0 else { return event }
        switch event {
        case .purchased(let requestID, let transaction):
            guard taken(flights.withLock { $0.takePurchaseToGrant(transaction.id) }),
                  let grant = rule(for: transaction.productID) else { return event }
            return self.grant(transaction, grant, requestID: requestID, event: event)
        case .revoked(let transaction):
            if taken(flights.withLock { $0.takeTakeBackAtHandOut(transaction.id) }) {
                // Failing (or closed), it is taken back when the refund is noted told, or at the next launch.
                try? journal.takeBackRefund(transaction.id, deductingCurrency: deductsRefundedConsumables)
            }
            return event
        default:
            return event
        }
    }

    /// `event` will not be handed out (`StoreWorker.handOut` dropped it): the purchase left to grant as it was
    /// handed out goes with it, so that later hand-outs take no lock again.
    func drop(_ event: StoreEvent) {
        guard deferredCount.load(ordering: .acquiring) > 0, case .purchased(_, let transaction) = event else { return }
        _ = taken(flights.withLock { $0.takePurchaseToGrant(transaction.id) })
    }

    /// Whether any hand-out still has work here (then each takes the flights' lock).
    var hasHandOutWork: Bool { deferredCount.load(ordering: .acquiring) > 0 }

    /// Takes back the grant of refund `id` as its `revoked` event is handed out (`apply`), by the refund rule
    /// then: the commit that recorded it left the take-back for later (before the game's first poll).
    func takeBackAtHandOut(_ id: UInt64) {
        if flights.withLock({ $0.addTakeBackAtHandOut(id) }) { deferredCount.add(1, ordering: .releasing) }
    }

    private func rule(for productID: String) -> Grant? {
        guard hasRules.load(ordering: .acquiring) else { return nil }
        return rules.withLock { $0[productID] }
    }

    private func deferToApply(_ key: UInt64) {
        flights.withLock { $0.addPurchaseToGrant(key) }
        deferredCount.add(1, ordering: .releasing)
    }

    /// Counts one piece of hand-out work done if `wasTaken`; returns it.
    private func taken(_ wasTaken: Bool) -> Bool {
        if wasTaken { deferredCount.subtract(1, ordering: .releasing) }
        return wasTaken
    }

    /// Grants and finishes `transaction` in one journal transaction, and returns what the game hears of it.
    private func grant(_ transaction: StoreTransaction, _ grant: Grant, requestID: RequestID?, event: StoreEvent) -> StoreEvent? {
        do {
            // Idempotent per transaction id: a transaction finished before grants nothing and returns false.
            if try journal.grantAndFinish(transaction, grant) {
                finished(transaction.id)
                return .granted(requestID: requestID, transaction: transaction, grant: grant)
            }
            // A transaction finished earlier that comes back on its own is dropped; a request always ends.
            guard let requestID else { return nil }
            switch grant {
            case .entitlement:
                // A store answers a purchase of something already owned with the transaction that granted it.
                return .granted(requestID: requestID, transaction: transaction, grant: grant)
            case .currency:
                // A consumable's payment is a new transaction, unless the store's ids restarted (the local
                // store's database removed, the journal kept): the journal cannot tell it from the one it
                // granted, and grants nothing, which the request must not claim.
                return .failed(requestID: requestID, productID: transaction.productID, error: StoreError(
                    .wrongState, "purchase of '\(transaction.productID)' completed as transaction \(transaction.id), which the "
                        + "journal holds as granted already, so nothing was granted (did the store's transaction ids restart?)"))
            }
        } catch {
            switch error.code {
            case .storeNotOpen:
                // Closed: the journal's directory may belong to another store, and a request in progress gets no
                // further event. Withheld, not handed out plain (the game would grant it, and the ledger again):
                // unfinished, it is granted at the next launch.
                return nil
            case .storageFailure:
                guard let requestID else { return nil }  // still unfinished: it comes back at the next launch
                return .failed(requestID: requestID, productID: transaction.productID, error: StoreError(
                    .storageFailure, "purchase of '\(transaction.productID)' completed but could not be granted "
                        + "(\(error.message)); it will be granted at the next launch"))
            default:
                // Refused, not failed to write: it stays unfinished. Without a request the game receives it as
                // a plain purchase, to grant itself; a request ends with the reason.
                guard let requestID else { return event }
                return .failed(requestID: requestID, productID: transaction.productID, error: StoreError(
                    error.code, "purchase of '\(transaction.productID)' (transaction \(transaction.id)) completed but the "
                        + "ledger refused to grant it: \(error.message)"))
            }
        }
    }


    private static func validateName(_ name: String, _ what: String) throws(StoreError) {
        guard !name.isEmpty, name.utf8.count <= RequestValidation.maximumIdentifierLength else {
            throw StoreError(.invalidArgument, "\(what) name must be 1 to \(RequestValidation.maximumIdentifierLength) bytes long")
        }
    }
}
