#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// A purchase waiting for a parent's approval (Ask to Buy), or for the user to resolve an interruption.
public struct PendingPurchase: Sendable, Equatable {
    /// Why it waits.
    public enum Kind: String, Sendable {
        /// Ask to Buy: a parent approves or declines.
        case askToBuy
        /// An interrupted purchase (terms to accept, a payment method to fix): the user resolves it.
        case interrupted
    }

    /// The id to approve, decline or resolve it with.
    public let id: Int64
    /// Why it waits.
    public let kind: Kind
    /// The product asked for.
    public let productID: String
    /// The quantity asked for.
    public let quantity: Int
    /// The app account token of the payment.
    public let appAccountToken: UUID?
    /// The promotional offer the payment redeems (its signature was checked when it was asked for).
    public let offerID: String?
    /// When the child asked.
    public let requestDate: Date
    /// The decision of the introductory offer eligibility JWS the payment carried (checked when it was asked
    /// for), or `nil`: the App Store's rule decides when it is charged.
    public let introductoryOfferAllowed: Bool?
}

/// What the simulated App Store remembers about its user, in `localstore.sqlite` in the state directory:
/// the transactions it charged (and whether the app finished them), the purchases waiting for approval,
/// and the controls' setting overrides. Not thread-safe by itself; `LocalStore` keeps it behind a lock.
final class LocalStoreState {
    /// What this connection last saw, to turn another process's writes into updates.
    private var known = KnownState()

    struct KnownState {
        /// The highest transaction id looked at; newer ones are new, unless this connection wrote them.
        var lastID: Int64 = 0
        var ownNew = Set<UInt64>()
        var revoked = Set<UInt64>()
        var announcedExpiries = Set<UInt64>()
        /// The ends marked untold that this connection handed to its game already: handed once per launch, and
        /// again at the next launch until the game's journal has recorded them (`endRecorded`).
        var handedEnds = Set<UInt64>()
        var pendingProducts: [Int64: String] = [:]
        /// The ends of the subscriptions active at the last look, by transaction id: another process may move
        /// them later (a renewal date extension by `iosiap-store serve`).
        var activeEnds: [UInt64: Double] = [:]
        var dataVersion: Int64 = -1
    }

    static let transactionColumns = """
        id, original_id, product_id, product_type, quantity, purchase_date, original_purchase_date,
        expiration_date, revocation_date, revocation_reason, app_account_token, storefront, reason,
        subscription_group_id, signed_jws, signed_renewal_info, grace_expires, offer_type, offer_id, ownership_type
        """
    private static let transactionColumnCount = transactionColumns.split(separator: ",").count

    let database: SQLiteDatabase
    let environment: StoreEnvironment

    init(directory: StateDirectory, environment: StoreEnvironment) throws(StoreError) {
        database = try SQLiteDatabase(path: directory.file("localstore.sqlite"))
        try database.prepareForDurableUse()
        try database.migrate(LocalStoreStateMigrations.all)
        self.environment = environment
        _ = try changesByOtherConnections(at: .distantPast)
    }

    // MARK: - Changes made by other processes

    /// The updates another process's writes (the transaction manager, a test) imply since the last call:
    /// new transactions (approvals, purchases started outside the game), refunds, declined Ask to Buy
    /// requests, the later end of an active subscription (a renewal date extension). Cheap when nothing
    /// changed: one `PRAGMA data_version`. `now` is the store's clock: subscriptions that end after it are active.
    func changesByOtherConnections(at now: Date = Date()) throws(StoreError) -> [StoreUpdate] {
        guard try dataVersion() != known.dataVersion else { return [] }
        // Every read on one snapshot: a commit landing between two of them (an approval, which removes the
        // waiting purchase and adds its transaction) would be half seen, e.g. as a decline.
        return try database.snapshot { () throws(StoreError) in try changes(at: try dataVersion(), now: now) }
    }

    private func dataVersion() throws(StoreError) -> Int64 { try database.dataVersion() }

    /// The updates the state at data version `version` implies against `known`, which it then becomes.
    private func changes(at version: Int64, now: Date) throws(StoreError) -> [StoreUpdate] {
        let firstScan = known.dataVersion == -1
        // Worked out on a copy, kept only once every read succeeded: a read that fails is done again whole
        // at the next call, rather than leaving changes half seen and never reported.
        var known = self.known
        known.dataVersion = version
        var updates: [StoreUpdate] = []
        var approvedPending = Set<Int64>()
        // Only what is new, the (few) refunds and the announced ends are read, not the whole history.
        for row in try database.query("SELECT id, pending_id FROM transactions WHERE id > ? ORDER BY id", [.integer(known.lastID)]) {
            let id = row[0].integer ?? 0
            known.lastID = max(known.lastID, id)
            if let pending = row[1].integer { approvedPending.insert(pending) }
            let transactionID = UInt64(bitPattern: id)
            guard !firstScan, known.ownNew.remove(transactionID) == nil, let transaction = try transaction(id: transactionID) else { continue }
            updates.append(transaction.isRevoked ? .revoked(transaction) : .purchased(transaction))
            if transaction.isRevoked { known.revoked.insert(transactionID) }
        }
        let revoked = Set(try database.query("SELECT id FROM transactions INDEXED BY transactions_revoked WHERE revocation_date IS NOT NULL")
            .map { UInt64(bitPattern: $0[0].integer ?? 0) })
        let announced = Set(try database.query("SELECT id FROM transactions INDEXED BY transactions_expiry_announced WHERE expiry_announced = 1")
            .map { UInt64(bitPattern: $0[0].integer ?? 0) })
        if !firstScan {
            for id in revoked.subtracting(known.revoked).sorted() {
                if let transaction = try transaction(id: id) { updates.append(.revoked(transaction)) }
            }
            for id in announced.subtracting(known.announcedExpiries).sorted() {
                if let transaction = try transaction(id: id) { updates.append(.expired(transaction)) }
            }
        }
        known.revoked = revoked
        known.announcedExpiries = announced
        // An end another process moved: the game's record of the transaction learns it (a finished one makes no
        // event), so that it neither loses the entitlement nor hears `expired` at the old end. Only active
        // subscriptions' ends are read, through the index on ends.
        var ends: [UInt64: Double] = [:]
        for row in try database.query("SELECT id, expiration_date FROM transactions WHERE expiration_date > ? AND revocation_date IS NULL",
                                      [.real(now.timeIntervalSince1970)]) {
            guard let end = Self.date(row[1])?.timeIntervalSince1970 else { continue }
            ends[UInt64(bitPattern: row[0].integer ?? 0)] = end
        }
        if !firstScan {
            for (id, end) in ends.sorted(by: { $0.key < $1.key }) where known.activeEnds[id].map({ $0 != end }) == true {
                if let transaction = try transaction(id: id) { updates.append(.purchased(transaction)) }
            }
            // An end moved into the past (a forced renewal that failed to charge ends the period now, in billing
            // retry): the query above no longer lists it. Refunds and announced ends are told above; an end that
            // simply passed is unchanged.
            for (id, end) in known.activeEnds.sorted(by: { $0.key < $1.key })
            where ends[id] == nil && !revoked.contains(id) && !announced.contains(id) {
                if let transaction = try transaction(id: id), let moved = transaction.expirationDate?.timeIntervalSince1970,
                   moved != end {
                    updates.append(.purchased(transaction))
                }
            }
        }
        known.activeEnds = ends
        let pending = Dictionary(uniqueKeysWithValues: try pendingPurchases().map { ($0.id, $0.productID) })
        if !firstScan {
            // A waiting purchase gone without a transaction of its own was declined, unless it was completed by
            // the transaction that already granted the product: then the game hears of that transaction.
            for (id, productID) in known.pendingProducts.sorted(by: { $0.key < $1.key })
            where pending[id] == nil && !approvedPending.contains(id) {
                if let completed = try pendingOutcome(id), let transaction = try transaction(id: completed) {
                    updates.append(.deferredPurchaseCompleted(transaction))
                } else {
                    updates.append(.declined(productID: productID))
                }
            }
        }
        known.pendingProducts = pending
        self.known = known
        return updates
    }

    /// Changes the snapshot once the write in progress has committed (at once outside a transaction): a
    /// write rolled back leaves it as it was, so that the snapshot never holds what the file does not.
    private func noteCommitted(_ change: @escaping (inout KnownState) -> Void) {
        database.onCommit { [unowned self] in change(&known) }
    }

    /// Records this connection's own write in the snapshot, so it is not mistaken for another process's.
    private func noteOwn(transaction id: UInt64, revoked: Bool) {
        noteCommitted { known in
            if revoked {
                known.revoked.insert(id)
            } else if Int64(bitPattern: id) > known.lastID {
                known.ownNew.insert(id)
            }
        }
    }

    // MARK: - Transactions

    /// A new transaction as the store charges it; the id is assigned on insert.
    struct NewTransaction {
        var originalID: UInt64?
        var productID: String
        var productType: ProductType
        var quantity: Int
        var purchaseDate: Date
        var originalPurchaseDate: Date?
        var expirationDate: Date?
        var appAccountToken: UUID?
        var storefront: String
        var reason: TransactionReason
        var subscriptionGroupID: String?
        var offer: TransactionOffer?
        var pendingID: Int64?
        var ownershipType: OwnershipType = .purchased
    }

    func insert(_ new: NewTransaction) throws(StoreError) -> StoreTransaction {
        try database.transaction { () throws(StoreError) in
            try database.query("""
                INSERT INTO transactions (original_id, product_id, product_type, quantity, purchase_date,
                    original_purchase_date, expiration_date, app_account_token, storefront, reason,
                    subscription_group_id, offer_type, offer_id, pending_id, ownership_type)
                VALUES (0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(new.productID), .integer(Int64(new.productType.rawValue)), .integer(Int64(new.quantity)),
                      .real(new.purchaseDate.timeIntervalSince1970),
                      .real((new.originalPurchaseDate ?? new.purchaseDate).timeIntervalSince1970),
                      new.expirationDate.map { .real($0.timeIntervalSince1970) } ?? .null,
                      new.appAccountToken.map { .text($0.uuidString) } ?? .null,
                      .text(new.storefront), .text(new.reason.rawValue),
                      new.subscriptionGroupID.map { .text($0) } ?? .null,
                      new.offer.map { .integer(Int64($0.type.rawValue)) } ?? .null,
                      new.offer?.id.map { .text($0) } ?? .null,
                      new.pendingID.map { .integer($0) } ?? .null, .text(new.ownershipType.rawValue)])
            let id = try database.query("SELECT last_insert_rowid()")[0][0].integer ?? 0
            try database.query("UPDATE transactions SET original_id = ? WHERE id = ?",
                               [.integer(new.originalID.map { Int64(bitPattern: $0) } ?? id), .integer(id)])
            guard let stored = try transaction(id: UInt64(id)) else {
                throw StoreError(.storageFailure, "transaction \(id) vanished right after it was written")
            }
            noteOwn(transaction: stored.id, revoked: false)
            // This connection's own end, so that another process's extension of it is seen as a change.
            if let end = stored.expirationDate?.timeIntervalSince1970 { noteCommitted { $0.activeEnds[stored.id] = end } }
            return stored
        }
    }

    func transaction(id: UInt64) throws(StoreError) -> StoreTransaction? {
        try transactions(where: "id = ?", [.integer(Int64(bitPattern: id))]).first
    }

    /// What the user owns at `now` (as `Entitlements.current` computes it), found by SQLite so that only
    /// the owning transactions are read, however long the history; only what they hold as `ownership` (bought,
    /// or shared by a family member) when given.
    func ownedTransactions(at now: Date, ownership: OwnershipType? = nil) throws(StoreError) -> [StoreTransaction] {
        let owned = try transactions(where: """
            id IN (SELECT max(id) FROM transactions
                   WHERE revocation_date IS NULL AND upgraded = 0 AND ownership_type = coalesce(?1, ownership_type)
                     AND (product_type IN (\(ProductType.nonConsumable.rawValue), \(ProductType.nonRenewing.rawValue))
                          OR (product_type = \(ProductType.autoRenewable.rawValue)
                              AND (expiration_date > ?2 OR grace_expires > ?2)))
                   GROUP BY product_id)
            """, [ownership.map { .text($0.rawValue) } ?? .null, .real(now.timeIntervalSince1970)])
        return Entitlements.current(from: owned, at: now)
    }

    func allTransactions() throws(StoreError) -> [StoreTransaction] {
        try transactions(where: "1")
    }

    func unfinishedTransactions() throws(StoreError) -> [StoreTransaction] {
        try transactions(where: "finished = 0")
    }

    /// Every refunded transaction, oldest id first.
    func revokedTransactions() throws(StoreError) -> [StoreTransaction] {
        try transactions(where: "revocation_date IS NOT NULL")
    }

    /// Whether the user ever had a subscription in `groupID` (introductory offers are once per group).
    func hasSubscribed(inGroup groupID: String) throws(StoreError) -> Bool {
        try !database.query("SELECT 1 FROM transactions WHERE subscription_group_id = ? LIMIT 1", [.text(groupID)]).isEmpty
    }

    /// How many transactions in a row, up to and including `latest`, its subscription was charged with
    /// `latest`'s offer: the periods of a pay-as-you-go offer used so far.
    func offerPeriodsCharged(endingAt latest: StoreTransaction) throws(StoreError) -> Int {
        guard let offer = latest.offer else { return 0 }
        var count = 0
        for row in try database.query("SELECT offer_type, offer_id FROM transactions WHERE original_id = ? AND id <= ? ORDER BY id DESC",
                                      [.integer(Int64(bitPattern: latest.originalID)), .integer(Int64(bitPattern: latest.id))]) {
            guard row[0].integer == Int64(offer.type.rawValue), row[1].text == offer.id else { break }
            count += 1
        }
        return count
    }

    /// Stores the signatures of a transaction just charged.
    func setSignatures(_ id: UInt64, transaction: String, renewalInfo: String?) throws(StoreError) {
        try database.query("UPDATE transactions SET signed_jws = ?, signed_renewal_info = ? WHERE id = ?",
                           [.text(transaction), renewalInfo.map { .text($0) } ?? .null, .integer(Int64(bitPattern: id))])
    }

    // MARK: - Subscriptions over time

    /// How a subscription goes on: the columns of its newest transaction that change over its life, read and
    /// written as one value, in one statement.
    struct ChainState: Equatable {
        /// When the current period ends (the transaction's expiration date).
        var expiration: Date?
        var autoRenew = true
        /// The product the next renewal switches to (a downgrade), if not the current one.
        var renewProductID: String?
        /// The promotional offer redeemed for the next renewal.
        var renewOfferID: String?
        /// Whether the game was told the subscription ended.
        var expiryAnnounced = false
        /// Replaced by an upgrade.
        var upgraded = false
        var billingRetry = false
        var graceExpires: Date?
        /// Why it ended (the renewal info's `expirationIntent`).
        var expirationIntent: Int32?

        /// The columns, in the order of `values` and of `init(_:at:)`.
        static let columns = """
            expiration_date, auto_renew, renew_product_id, renew_offer_id, expiry_announced, upgraded, billing_retry,
            grace_expires, expiration_intent
            """
        static let update = "UPDATE transactions SET "
            + columns.split(separator: ",").map { "\($0.trimmingWhitespace) = ?" }.joined(separator: ", ")
            + " WHERE id = ?"

        var values: [SQLiteValue] {
            [expiration.map { .real($0.timeIntervalSince1970) } ?? .null, .integer(autoRenew ? 1 : 0),
             renewProductID.map { .text($0) } ?? .null, renewOfferID.map { .text($0) } ?? .null,
             .integer(expiryAnnounced ? 1 : 0), .integer(upgraded ? 1 : 0), .integer(billingRetry ? 1 : 0),
             graceExpires.map { .real($0.timeIntervalSince1970) } ?? .null,
             expirationIntent.map { .integer(Int64($0)) } ?? .null]
        }

        /// Reads the columns from `row`, starting at `first`.
        init(_ row: [SQLiteValue], at first: Int) {
            expiration = LocalStoreState.date(row[first])
            autoRenew = row[first + 1].integer != 0
            renewProductID = row[first + 2].text
            renewOfferID = row[first + 3].text
            expiryAnnounced = row[first + 4].integer == 1
            upgraded = row[first + 5].integer == 1
            billingRetry = row[first + 6].integer == 1
            graceExpires = LocalStoreState.date(row[first + 7])
            expirationIntent = row[first + 8].integer.map { Int32(truncatingIfNeeded: $0) }
        }

        /// What its signed renewal info reports.
        var renewal: RenewalState {
            RenewalState(autoRenew: autoRenew, renewProductID: renewProductID, upgraded: upgraded, inBillingRetry: billingRetry,
                         expirationIntent: expirationIntent, renewOfferID: renewOfferID)
        }
    }

    /// The newest transaction of one auto-renewable subscription (one original transaction id) and how it
    /// goes on.
    struct SubscriptionChain {
        var latest: StoreTransaction
        var state: ChainState
    }

    /// Every subscription that is neither refunded nor replaced by an upgrade, by its newest transaction.
    func subscriptionChains() throws(StoreError) -> [SubscriptionChain] {
        // One query, the transaction's columns and then the chain's: the clock reads this every tick.
        let rows = try database.query("""
            SELECT \(Self.transactionColumns), \(ChainState.columns) FROM transactions t
            WHERE t.product_type = \(ProductType.autoRenewable.rawValue) AND t.revocation_date IS NULL AND t.upgraded = 0
              AND t.id = (SELECT max(id) FROM transactions WHERE original_id = t.original_id)
            ORDER BY t.id
            """)
        return rows.map { row in
            SubscriptionChain(latest: decodeTransaction(row), state: ChainState(row, at: Self.transactionColumnCount))
        }
    }

    /// How the subscription whose newest transaction is `id` goes on; `nil` for an id the store never charged.
    func chainState(of id: UInt64) throws(StoreError) -> ChainState? {
        try database.query("SELECT \(ChainState.columns) FROM transactions WHERE id = ?", [.integer(Int64(bitPattern: id))])
            .first.map { ChainState($0, at: 0) }
    }

    /// Changes how the subscription whose newest transaction is `id` goes on: reads its state, lets `change`
    /// edit it, and writes it back whole, in one statement inside one transaction (a savepoint of the caller's).
    func updateChain(_ id: UInt64, _ change: (inout ChainState) -> Void) throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            guard var chain = try chainState(of: id) else {
                throw StoreError(.unknownTransaction, "the local store has no transaction \(id)")
            }
            change(&chain)
            try database.query(ChainState.update, chain.values + [.integer(Int64(bitPattern: id))])
            // This connection's own new end, not another process's extension (once it is on disk).
            let end = chain.expiration?.timeIntervalSince1970
            noteCommitted { $0.activeEnds[id] = end }
            // This connection's own announcement, not another process's (once it is on disk).
            if chain.expiryAnnounced { noteCommitted { $0.announcedExpiries.insert(id) } }
        }
    }

    /// Marks the end of the subscription whose newest transaction is `id` (announced, or made by an upgrade) as
    /// not yet recorded by the game: whoever made it, and whether a game listens or not, the end stays marked
    /// until the game's journal has recorded it (`endRecorded`), so that a game that closes or dies first hears
    /// of it at its next launch. One this connection announces to its own game counts as handed to it. Inside the
    /// caller's SQL transaction.
    func markEndUntold(_ id: UInt64, handedHere: Bool) throws(StoreError) {
        try database.query("UPDATE transactions SET end_untold = 1 WHERE id = ?", [.integer(Int64(bitPattern: id))])
        if handedHere { noteCommitted { $0.handedEnds.insert(id) } }
    }

    /// The ends marked untold that this connection has not handed to its game yet, oldest id first: each is
    /// handed once per launch, and counts as an announcement this connection has seen, so that the next look for
    /// other processes' changes does not report it again. Those in `told` (reported by that look already) count as
    /// handed, and are not returned.
    func untoldEnds(excluding told: Set<UInt64>) throws(StoreError) -> [StoreTransaction] {
        let ended = try transactions(where: "id IN (SELECT id FROM transactions INDEXED BY transactions_end_untold WHERE end_untold = 1)")
            .filter { !known.handedEnds.contains($0.id) }
        let ids = Set(ended.map(\.id))
        known.handedEnds.formUnion(ids.union(told))
        known.announcedExpiries.formUnion(ids)
        return ended.filter { !told.contains($0.id) }
    }

    /// The game's journal recorded the end of transaction `id`: it is no longer handed to a game.
    func endRecorded(_ id: UInt64) throws(StoreError) {
        try database.query("UPDATE transactions SET end_untold = 0 WHERE id = ? AND end_untold = 1", [.integer(Int64(bitPattern: id))])
    }

    /// Records a purchase started in the App Store, with the offer it redeems, for the game to hear of.
    func addPurchaseIntent(_ productID: String, offer: TransactionOffer?, at date: Date) throws(StoreError) {
        try database.query("INSERT INTO purchase_intents (product_id, created, offer_type, offer_id) VALUES (?, ?, ?, ?)",
                           [.text(productID), .real(date.timeIntervalSince1970),
                            offer.map { .integer(Int64($0.type.rawValue)) } ?? .null, offer?.id.map { .text($0) } ?? .null])
    }

    /// Takes the purchase intents waiting, oldest first: each is handed to one game, once. An offer type this
    /// version does not know (written by a newer one) leaves the intent without its offer.
    func takePurchaseIntents() throws(StoreError) -> [(productID: String, offer: TransactionOffer?)] {
        // Read first: most of the time there is none, and a write lock every tick would be wasted.
        guard try !database.query("SELECT 1 FROM purchase_intents LIMIT 1").isEmpty else { return [] }
        return try database.transaction { () throws(StoreError) in
            let rows = try database.query("SELECT product_id, offer_type, offer_id FROM purchase_intents ORDER BY id")
            try database.execute("DELETE FROM purchase_intents")
            return rows.compactMap { row in
                guard let productID = row[0].text else { return nil }
                let type = row[1].integer.flatMap { Int32(exactly: $0) }.flatMap(OfferType.init(rawValue:))
                return (productID, type.map { TransactionOffer(type: $0, id: row[2].text) })
            }
        }
    }

    /// The newest transaction of a subscription group the user holds as `ownership`, refunded or not.
    func latestSubscription(inGroup groupID: String, ownership: OwnershipType) throws(StoreError) -> StoreTransaction? {
        guard let id = try database.query("SELECT max(id) FROM transactions WHERE subscription_group_id = ? AND upgraded = 0 AND ownership_type = ?",
                                          [.text(groupID), .text(ownership.rawValue)]).first?.first?.integer else { return nil }
        return try transaction(id: UInt64(bitPattern: id))
    }

    /// Removes one transaction from the history (SKTestSession `deleteTransaction`).
    func delete(_ id: UInt64) throws(StoreError) {
        try database.query("DELETE FROM transactions WHERE id = ?", [.integer(Int64(bitPattern: id))])
        guard database.changes == 1 else { throw StoreError(.unknownTransaction, "the local store has no transaction \(id)") }
        noteCommitted { known in
            known.revoked.remove(id)
            known.ownNew.remove(id)
        }
    }

    /// Removes every transaction and waiting purchase (SKTestSession `clearTransactions`).
    func clear() throws(StoreError) {
        try database.transaction { () throws(StoreError) in
            try database.execute("""
                DELETE FROM transactions; DELETE FROM pending_purchases; DELETE FROM pending_outcomes; DELETE FROM redeemed_offer_nonces;
                DELETE FROM renewal_extensions; DELETE FROM mass_renewal_extensions;
                """)
            noteCommitted { known in
                known.activeEnds = [:]
                known.revoked = []
                known.ownNew = []
                known.announcedExpiries = []
                known.pendingProducts = [:]
            }
        }
    }

    /// Refunds a transaction: it stays in the history, revoked at `date`.
    func revoke(_ id: UInt64, reason: RevocationReason, at date: Date) throws(StoreError) -> StoreTransaction {
        try database.query("UPDATE transactions SET revocation_date = ?, revocation_reason = ? WHERE id = ? AND revocation_date IS NULL",
                           [.real(date.timeIntervalSince1970), .integer(Int64(reason.rawValue)), .integer(Int64(bitPattern: id))])
        let refunded = database.changes == 1
        guard let transaction = try transaction(id: id) else {
            throw StoreError(.unknownTransaction, "the local store never charged transaction \(id)")
        }
        guard refunded else {
            throw StoreError(.wrongState, "transaction \(id) was already refunded")
        }
        noteOwn(transaction: id, revoked: true)
        return transaction
    }

    func markFinished(_ id: UInt64) throws(StoreError) {
        let known = try !database.query("SELECT 1 FROM transactions WHERE id = ?", [.integer(Int64(bitPattern: id))]).isEmpty
        guard known else { throw StoreError(.unknownTransaction, "the local store never charged transaction \(id)") }
        try database.query("UPDATE transactions SET finished = 1 WHERE id = ?", [.integer(Int64(bitPattern: id))])
    }

    func transactions(where condition: String, _ parameters: [SQLiteValue] = []) throws(StoreError) -> [StoreTransaction] {
        try database.query("SELECT \(Self.transactionColumns) FROM transactions WHERE \(condition) ORDER BY id", parameters)
            .map { row in decodeTransaction(row) }
    }

    /// A date stored as seconds since 1970 (real, or integer when written by hand), or `nil`.
    static func date(_ value: SQLiteValue) -> Date? {
        switch value {
        case .real(let seconds): Date(timeIntervalSince1970: seconds)
        case .integer(let seconds): Date(timeIntervalSince1970: TimeInterval(seconds))
        default: nil
        }
    }

    /// A transaction as stored. A value no release writes (a file edited by hand) reads as the default it stands
    /// for, never as a trap: an enumeration's number outside its range is unknown.
    func decodeTransaction(_ row: [SQLiteValue]) -> StoreTransaction {
        let date = Self.date
        let number = { (value: SQLiteValue) in value.integer.flatMap { Int32(exactly: $0) } }
        let purchaseDate = date(row[5]) ?? Date(timeIntervalSince1970: 0)
        return StoreTransaction(
            id: UInt64(bitPattern: row[0].integer ?? 0),
            originalID: UInt64(bitPattern: row[1].integer ?? 0),
            productID: row[2].text ?? "",
            productType: number(row[3]).flatMap(ProductType.init(rawValue:)) ?? .consumable,
            quantity: Int(row[4].integer ?? 1),
            purchaseDate: purchaseDate,
            originalPurchaseDate: date(row[6]) ?? purchaseDate,
            expirationDate: date(row[7]),
            revocationDate: date(row[8]),
            revocationReason: number(row[9]).flatMap(RevocationReason.init(rawValue:)),
            appAccountToken: row[10].text.flatMap(UUID.init(uuidString:)),
            environment: environment,
            storefront: row[11].text ?? "USA",
            ownershipType: row[19].text.flatMap(OwnershipType.init(rawValue:)) ?? .purchased,
            reason: row[12].text.flatMap(TransactionReason.init(rawValue:)) ?? .purchase,
            subscriptionGroupID: row[13].text,
            signedJWS: row[14].text,
            signedRenewalInfo: row[15].text,
            gracePeriodExpirationDate: date(row[16]),
            offer: number(row[17]).flatMap(OfferType.init(rawValue:)).map { TransactionOffer(type: $0, id: row[18].text) })
    }

    // MARK: - Ask to Buy

    func addPendingPurchase(_ request: PaymentRequest, introductoryOfferAllowed: Bool?, kind: PendingPurchase.Kind,
                            at date: Date) throws(StoreError) {
        let offerID = request.promotionalOffer?.offerID ?? request.promotionalOfferJWS?.offerID ?? request.winBackOfferID
        try database.query("""
            INSERT INTO pending_purchases (product_id, quantity, app_account_token, request_date, kind, offer_id, intro_offer_allowed)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, [.text(request.productID), .integer(Int64(request.quantity)),
                  request.appAccountToken.map { .text($0.uuidString) } ?? .null,
                  .real(date.timeIntervalSince1970), .text(kind.rawValue),
                  offerID.map { .text($0) } ?? .null, introductoryOfferAllowed.map { .integer($0 ? 1 : 0) } ?? .null])
        if let id = try database.query("SELECT last_insert_rowid()").first?.first?.integer {
            let productID = request.productID
            noteCommitted { $0.pendingProducts[id] = productID }
        }
    }

    func pendingPurchases() throws(StoreError) -> [PendingPurchase] {
        try database.query("""
            SELECT id, product_id, quantity, app_account_token, request_date, kind, offer_id, intro_offer_allowed
            FROM pending_purchases ORDER BY id
            """)
            .map { row in
                PendingPurchase(id: row[0].integer ?? 0, kind: row[5].text.flatMap(PendingPurchase.Kind.init(rawValue:)) ?? .askToBuy,
                                productID: row[1].text ?? "", quantity: Int(row[2].integer ?? 1),
                                appAccountToken: row[3].text.flatMap(UUID.init(uuidString:)), offerID: row[6].text,
                                requestDate: Self.date(row[4]) ?? Date(), introductoryOfferAllowed: row[7].integer.map { $0 != 0 })
            }
    }

    /// Notes that waiting purchase `pendingID` was completed by transaction `transactionID` if that transaction is
    /// not one it inserted (the product was owned already); in the caller's SQL transaction. Says whether it did.
    func notePendingOutcomeIfOwned(_ pendingID: Int64, transactionID: UInt64) throws(StoreError) -> Bool {
        try database.query("""
            INSERT OR REPLACE INTO pending_outcomes (pending_id, transaction_id)
            SELECT ?1, ?2 WHERE NOT EXISTS (SELECT 1 FROM transactions WHERE id = ?2 AND pending_id IS ?1)
            """, [.integer(pendingID), .integer(Int64(bitPattern: transactionID))])
        return database.changes == 1
    }

    /// The transaction that completed waiting purchase `pendingID` without inserting one, if any.
    private func pendingOutcome(_ pendingID: Int64) throws(StoreError) -> UInt64? {
        try database.query("SELECT transaction_id FROM pending_outcomes WHERE pending_id = ?", [.integer(pendingID)])
            .first?.first?.integer.map { UInt64(bitPattern: $0) }
    }

    func removePendingPurchase(_ id: Int64, kind: PendingPurchase.Kind) throws(StoreError) -> PendingPurchase {
        guard let pending = try pendingPurchases().first(where: { $0.id == id && $0.kind == kind }) else {
            throw StoreError(.unknownTransaction, kind == .askToBuy ? "no purchase \(id) is waiting for approval"
                                                                 : "no interrupted purchase \(id) is waiting")
        }
        try database.query("DELETE FROM pending_purchases WHERE id = ?", [.integer(id)])
        noteCommitted { $0.pendingProducts[id] = nil }
        return pending
    }

    // MARK: - Promotional offers

    /// Records a promotional offer's nonce as redeemed; `false` when it already was (a replayed signature).
    func redeemOfferNonce(_ nonce: UUID, at date: Date) throws(StoreError) -> Bool {
        try database.query("INSERT INTO redeemed_offer_nonces (nonce, redeemed) VALUES (?, ?) ON CONFLICT(nonce) DO NOTHING",
                           [.text(nonce.uuidString.lowercased()), .real(date.timeIntervalSince1970)])
        return database.changes == 1
    }

    // MARK: - Setting overrides

    func overrides() throws(StoreError) -> [String: String] {
        var result: [String: String] = [:]
        for row in try database.query("SELECT key, value FROM settings") {
            if let key = row[0].text, let value = row[1].text { result[key] = value }
        }
        return result
    }

    func setOverride(_ key: String, _ value: String?) throws(StoreError) {
        if let value {
            try database.query("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                               [.text(key), .text(value)])
        } else {
            try database.query("DELETE FROM settings WHERE key = ?", [.text(key)])
        }
    }
}
