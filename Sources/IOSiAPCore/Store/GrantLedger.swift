import Synchronization

/// The optional built-in grant ledger: for products the game registered, a purchased transaction is
/// granted and finished in one journal transaction as its event is delivered, and the game is told
/// `granted` instead of `purchased`. Redelivery of a finished transaction grants nothing.
///
/// It works on events as they leave the queue (in `poll` or the async sequence), so grants registered
/// right after opening also apply to the transactions redelivered at launch.
package final class GrantLedger: Sendable {
    private let journal: Journal
    private let rules = Locked<[String: Grant]>([:])
    /// Lets `apply` skip the lock while nothing is registered: the common case on the poll path.
    private let hasRules = Atomic<Bool>(false)
    private let deductsRefunds = Atomic<Bool>(false)
    /// Tells the backend about a transaction the ledger finished.
    private let finished: @Sendable (UInt64) -> Void

    init(journal: Journal, finished: @escaping @Sendable (UInt64) -> Void) {
        self.journal = journal
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

    /// The products registered with an entitlement grant named `name`.
    func products(grantingEntitlement name: String) -> Set<String> {
        rules.withLock { rules in Set(rules.filter { $0.value == .entitlement(name) }.keys) }
    }

    /// The event the game sees for `event`, or `nil` when it has nothing left to tell.
    func apply(_ event: StoreEvent) -> StoreEvent? {
        guard hasRules.load(ordering: .acquiring) else { return event }
        switch event {
        case .purchased(let requestID, let transaction):
            guard let grant = rules.withLock({ $0[transaction.productID] }) else { return event }
            do {
                let granted = try journal.grantAndFinish(transaction, grant)
                if granted { finished(transaction.id) }
                // A request always ends; a transaction finished earlier that comes back on its own is dropped.
                return granted || requestID != nil ? .granted(requestID: requestID, transaction: transaction, grant: grant) : nil
            } catch {
                if error.code != .storageFailure {
                    // Refused, not failed to write: it stays unfinished. Without a request the game receives it as
                    // a plain purchase, to grant itself; a request ends with the reason.
                    guard let requestID else { return event }
                    return .failed(requestID: requestID, productID: transaction.productID, error: StoreError(
                        error.code, "purchase of '\(transaction.productID)' (transaction \(transaction.id)) completed but the "
                            + "ledger refused to grant it: \(error.message)"))
                }
                guard let requestID else { return nil }  // still unfinished: it comes back at the next launch
                return .failed(requestID: requestID, productID: transaction.productID, error: StoreError(
                    .storageFailure, "purchase of '\(transaction.productID)' completed but could not be granted "
                        + "(\(error.message)); it will be granted at the next launch"))
            }
        case .revoked(let transaction):
            _ = try? journal.revokeGrant(of: transaction.id, deduct: deductsRefunds.load(ordering: .relaxed))
            return event
        default:
            return event
        }
    }

    private static func validateName(_ name: String, _ what: String) throws(StoreError) {
        guard !name.isEmpty, name.utf8.count <= RequestValidation.maximumIdentifierLength else {
            throw StoreError(.invalidArgument, "\(what) name must be 1 to \(RequestValidation.maximumIdentifierLength) bytes long")
        }
    }
}
