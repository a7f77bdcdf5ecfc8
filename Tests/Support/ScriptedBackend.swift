import Foundation
import IOSiAPCore

/// A store backend whose answers a test scripts: the test double behind `StoreBackend`.
public final class ScriptedBackend: StoreBackend {
    struct Script {
        var products: [StoreProduct]
        var productsError: StoreError?
        var purchaseOutcomes: [Result<PurchaseOutcome, StoreError>] = []
        var restoreResult: Result<[StoreTransaction], StoreError>?
        var unfinished: [StoreTransaction] = []
        var finishedIDs: [UInt64] = []
        var charged: [StoreTransaction] = []
        var nextTransactionID: UInt64 = 1000
        /// How many of the next `unfinishedTransactions` calls fail (a store that cannot list them).
        var unfinishedListFailures = 0
    }

    private let script: Locked<Script>
    /// While not nil, `unfinishedTransactions` calls wait here (a store slow to list them).
    private let unfinishedListGate = Locked<[CheckedContinuation<Void, Never>]?>(nil)
    /// While not nil, `purchase` charges and then waits here before it returns (a store slow to answer).
    private let purchaseReturnGate = Locked<[CheckedContinuation<Void, Never>]?>(nil)
    /// While not nil, the refund request and manage subscriptions sheets stay open here (a user reading them).
    let sheetGate = Locked<[CheckedContinuation<Void, Never>]?>(nil)
    /// How many sheets have closed and returned to the store.
    let sheetsReturned = Locked(0)
    private let stream: AsyncStream<StoreUpdate>
    private let sink: AsyncStream<StoreUpdate>.Continuation

    public init(products: [StoreProduct] = ScriptedBackend.sampleProducts, firstTransactionID: UInt64 = 1000) {
        var script = Script(products: products)
        script.nextTransactionID = firstTransactionID
        self.script = Locked(script)
        (stream, sink) = AsyncStream<StoreUpdate>.makeStream()
    }

    /// A consumable, a non-consumable and a monthly subscription.
    public static let sampleProducts = [
        StoreProduct(id: "coins", type: .consumable, displayName: "Coins", description: "100 coins", price: 0.99,
                     currencyCode: "USD", displayPrice: "$0.99"),
        StoreProduct(id: "pro", type: .nonConsumable, displayName: "Pro", description: "Pro upgrade", price: 2.99,
                     currencyCode: "USD", displayPrice: "$2.99"),
        StoreProduct(id: "monthly", type: .autoRenewable, displayName: "Monthly", description: "Club", price: 4.99,
                     currencyCode: "USD", displayPrice: "$4.99",
                     subscription: StoreSubscriptionInfo(groupID: "G1", groupName: "Club", level: 1,
                                                    period: StoreSubscriptionPeriod(value: 1, unit: .month),
                                                    introductoryOffer: nil, promotionalOffers: [])),
    ]

    // MARK: Scripting

    /// The next purchases end with these outcomes, in order; after them, purchases succeed.
    public func scriptPurchases(_ outcomes: Result<PurchaseOutcome, StoreError>...) {
        script.withLock { $0.purchaseOutcomes.append(contentsOf: outcomes) }
    }

    /// Products requests fail with `error` (or succeed again with `nil`).
    public func failProducts(with error: StoreError?) { script.withLock { $0.productsError = error } }

    /// Restores answer with `result`; by default they return the non-consumables charged.
    public func scriptRestore(_ result: Result<[StoreTransaction], StoreError>) { script.withLock { $0.restoreResult = result } }

    /// The store holds these unfinished transactions the core never saw.
    public func holdUnfinished(_ transactions: [StoreTransaction]) { script.withLock { $0.unfinished = transactions } }

    /// Makes `unfinishedTransactions` wait until `openUnfinishedList`: a store slow to list them at launch.
    public func holdUnfinishedList() { unfinishedListGate.withLock { $0 = $0 ?? [] } }

    /// Lets the waiting and later `unfinishedTransactions` calls answer.
    public func openUnfinishedList() {
        let waiting = unfinishedListGate.withLock { gate in
            defer { gate = nil }
            return gate ?? []
        }
        waiting.forEach { $0.resume() }
    }

    /// How many `unfinishedTransactions` calls wait for `openUnfinishedList`.
    public var callsWaitingForUnfinishedList: Int { unfinishedListGate.withLock { $0?.count ?? 0 } }

    /// Makes `purchase` charge (the transaction is then in the unfinished list) and wait before it returns,
    /// until `releasePurchases`.
    public func holdPurchasesAfterCharging() { purchaseReturnGate.withLock { $0 = $0 ?? [] } }

    /// Lets the waiting and later `purchase` calls return.
    public func releasePurchases() {
        let waiting = purchaseReturnGate.withLock { gate in
            defer { gate = nil }
            return gate ?? []
        }
        waiting.forEach { $0.resume() }
    }

    /// How many `purchase` calls have charged and wait for `releasePurchases`.
    public var purchasesWaitingToReturn: Int { purchaseReturnGate.withLock { $0?.count ?? 0 } }

    /// Sends an update, as the store would on its own.
    public func send(_ update: StoreUpdate) { sink.yield(update) }

    /// The transaction ids the core finished through the backend.
    public var finishedIDs: [UInt64] { script.withLock { $0.finishedIDs } }

    /// Every transaction charged by `purchase`.
    public var charged: [StoreTransaction] { script.withLock { $0.charged } }

    /// A new transaction for `productID`, numbered like the store would.
    public func makeTransaction(_ productID: String, quantity: Int = 1, purchaseDate: Date = Date(),
                                expirationDate: Date? = nil) -> StoreTransaction {
        let type = script.withLock { $0.products.first { $0.id == productID }?.type } ?? .consumable
        let id = script.withLock { state in
            defer { state.nextTransactionID += 1 }
            return state.nextTransactionID
        }
        return StoreTransaction(id: id, originalID: id, productID: productID, productType: type, quantity: quantity,
                                purchaseDate: purchaseDate, originalPurchaseDate: purchaseDate,
                                expirationDate: expirationDate ?? (type == .autoRenewable ? purchaseDate.addingTimeInterval(3600) : nil),
                                environment: .localTesting, storefront: "USA")
    }

    // MARK: StoreBackend

    public func products(for ids: [String]) async throws(StoreError) -> [StoreProduct] {
        let (products, error) = script.withLock { ($0.products, $0.productsError) }
        if let error { throw error }
        return products.filter { ids.contains($0.id) }
    }

    public func purchase(_ request: PaymentRequest, product: StoreProduct) async throws(StoreError) -> PurchaseOutcome {
        let scripted = script.withLock { $0.purchaseOutcomes.isEmpty ? nil : $0.purchaseOutcomes.removeFirst() }
        if let scripted { return try scripted.get() }
        var transaction = makeTransaction(product.id, quantity: request.quantity)
        transaction.appAccountToken = request.appAccountToken
        script.withLock { [transaction] in $0.charged.append(transaction) }
        await withCheckedContinuation { continuation in
            let isOpen = purchaseReturnGate.withLock { gate in
                gate?.append(continuation)
                return gate == nil
            }
            if isOpen { continuation.resume() }
        }
        return .purchased(transaction)
    }

    public func restore() async throws(StoreError) -> [StoreTransaction] {
        let (result, charged) = script.withLock { ($0.restoreResult, $0.charged) }
        if let result { return try result.get() }
        return Entitlements.current(from: charged, at: Date())
    }

    /// Like a real store: what was charged and not finished, plus what a test holds back.
    public func unfinishedTransactions() async throws(StoreError) -> [StoreTransaction] {
        await withCheckedContinuation { continuation in
            let isOpen = unfinishedListGate.withLock { gate in
                gate?.append(continuation)
                return gate == nil
            }
            if isOpen { continuation.resume() }
        }
        return try script.withLock { script throws(StoreError) in
            if script.unfinishedListFailures > 0 {
                script.unfinishedListFailures -= 1
                throw StoreError(.storageFailure, "the store cannot list its unfinished transactions")
            }
            return script.unfinished + script.charged.filter { !script.finishedIDs.contains($0.id) }
        }
    }

    /// Makes the next `count` `unfinishedTransactions` calls fail.
    public func failUnfinishedList(times count: Int) { script.withLock { $0.unfinishedListFailures = count } }

    public func finish(transactionID: UInt64) async throws(StoreError) {
        script.withLock { $0.finishedIDs.append(transactionID) }
    }

    public var canMakePayments: Bool { true }

    public func storefront() async throws(StoreError) -> String { "USA" }

    public func subscriptionStatus(groupID: String) async throws(StoreError) -> StoreSubscriptionStatus? {
        let latest = script.withLock { $0.charged.last { $0.subscriptionGroupID == groupID || $0.productID == "monthly" } }
        return latest.map { StoreSubscriptionStatus(state: .subscribed, transaction: $0, willAutoRenew: true, autoRenewProductID: $0.productID) }
    }

    public func updates() -> AsyncStream<StoreUpdate> { stream }

    public func close() { sink.finish() }
}
