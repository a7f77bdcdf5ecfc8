import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import UIKit

/// StoreKit's `Transaction`: a copy of one of the local store's transactions, as signed (its JWS is the
/// `VerificationResult`'s `jwsRepresentation`).
public struct Transaction: Identifiable, Sendable, Equatable, Hashable {
    public struct Reason: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let purchase = Reason(rawValue: "PURCHASE")
        public static let renewal = Reason(rawValue: "RENEWAL")
    }

    public struct RevocationReason: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The App Store Server API's `revocationReason` values: 1 an issue in the app, 0 another reason, 2 an
        /// upgrade to a subscription bundle ("revocationReason").
        public static let developerIssue = RevocationReason(rawValue: 1)
        public static let other = RevocationReason(rawValue: 0)
        public static var upgradedToBundle: RevocationReason { RevocationReason(rawValue: 2) }
    }

    public struct OfferType: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The App Store Server API's `offerType` values ("offerType").
        public static let introductory = OfferType(rawValue: 1)
        public static let promotional = OfferType(rawValue: 2)
        public static let code = OfferType(rawValue: 3)
        public static var winBack: OfferType { OfferType(rawValue: 4) }
    }

    public struct OwnershipType: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let purchased = OwnershipType(rawValue: "PURCHASED")
        public static let familyShared = OwnershipType(rawValue: "FAMILY_SHARED")
        public static var assigned: OwnershipType { OwnershipType(rawValue: "ASSIGNED") }
    }

    public struct Offer: Equatable, Hashable, Sendable {
        public let id: String?
        public let type: OfferType
    }

    public let id: UInt64
    public let originalID: UInt64
    public let productID: String
    public let productType: Product.ProductType
    public let purchasedQuantity: Int
    public let purchaseDate: Date
    public let originalPurchaseDate: Date
    public let expirationDate: Date?
    public let revocationDate: Date?
    public let revocationReason: RevocationReason?
    public let appAccountToken: UUID?
    public let environment: AppStore.Environment
    public let reason: Reason
    public let storefront: Storefront
    public let ownershipType: OwnershipType
    public let subscriptionGroupID: String?
    public let offer: Offer?
    /// Whether the user upgraded to another subscription of the group, which replaced this one ("isUpgraded"): as
    /// the local store signs it.
    public let isUpgraded: Bool
    /// The copy as the local store signed it (`VerificationResult.jwsRepresentation`).
    let signedJWS: String

    init(_ transaction: StoreTransaction, isUpgraded: Bool) {
        self.isUpgraded = isUpgraded
        id = transaction.id
        originalID = transaction.originalID
        productID = transaction.productID
        productType = Product.ProductType(transaction.productType)
        purchasedQuantity = transaction.quantity
        purchaseDate = transaction.purchaseDate
        originalPurchaseDate = transaction.originalPurchaseDate
        expirationDate = transaction.expirationDate
        revocationDate = transaction.revocationDate
        revocationReason = transaction.revocationReason.map { reason in
            switch reason {
            case .refundedDueToIssue: .developerIssue
            case .refundedForOtherReason: .other
            case .upgradedToBundle: .upgradedToBundle
            }
        }
        appAccountToken = transaction.appAccountToken
        environment = AppStore.Environment(rawValue: transaction.environment.rawValue)
        reason = transaction.reason == .renewal ? .renewal : .purchase
        storefront = Storefront(countryCode: transaction.storefront)
        ownershipType = OwnershipType(rawValue: transaction.ownershipType.rawValue)
        subscriptionGroupID = transaction.subscriptionGroupID
        offer = transaction.offer.map { Offer(id: $0.id, type: OfferType(rawValue: Int($0.type.rawValue))) }
        signedJWS = transaction.signedJWS ?? ""
    }

    /// Tells the App Store the app has delivered it: it leaves `Transaction.unfinished` ("Transaction.finish()").
    public func finish() async {
        guard let store = try? StandInAppStore.shared() else { return }
        try? await store.local.finish(transactionID: id)
    }

    // MARK: - The sequences

    /// An asynchronous sequence of verification results, made when it is first iterated; a read of the local
    /// store's transactions (`of(counting:_:)`) counts in `StoreKitStandIn.reads()` when its reader reaches its end.
    /// Apple says only "An asynchronous sequence of transactions" ("Transaction.Transactions"): when it reads, and
    /// that it is empty when no store can be opened, are the stand-in's choices.
    public struct Transactions: AsyncSequence, Sendable {
        public typealias Element = VerificationResult<Transaction>
        let make: @Sendable () async -> AsyncStream<VerificationResult<Transaction>>
        var counter: (WritableKeyPath<StoreKitStandIn.Reads, Int> & Sendable)?

        public struct AsyncIterator: AsyncIteratorProtocol {
            let make: @Sendable () async -> AsyncStream<VerificationResult<Transaction>>
            let counter: (WritableKeyPath<StoreKitStandIn.Reads, Int> & Sendable)?
            var stream: AsyncStream<VerificationResult<Transaction>>.AsyncIterator?
            /// The store the read began on (a read ending after a relaunch counts there, not in the new one).
            var store: StandInAppStore?
            var ended = false

            public mutating func next() async -> VerificationResult<Transaction>? {
                if stream == nil {
                    store = try? StandInAppStore.shared()
                    stream = await make().makeAsyncIterator()
                }
                if let element = await stream?.next() { return element }
                if !ended, let counter, let store { store.reads.withLock { $0[keyPath: counter] += 1 } }
                ended = true
                return nil
            }
        }

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(make: make, counter: counter, store: nil) }

        /// The results for the local store's transactions `read` gives when iterated; none when the store cannot
        /// be opened or read (StoreKit's sequences throw nothing either).
        static func of(counting counter: WritableKeyPath<StoreKitStandIn.Reads, Int> & Sendable,
                       _ read: @escaping @Sendable (StandInAppStore) async throws -> [StoreTransaction]) -> Transactions {
            Transactions(make: {
                guard let store = try? StandInAppStore.shared(), let transactions = try? await read(store) else {
                    return AsyncStream { $0.finish() }
                }
                return AsyncStream { continuation in
                    transactions.forEach { continuation.yield(store.verificationResult($0)) }
                    continuation.finish()
                }
            }, counter: counter)
        }
    }

    /// Every transaction of the user for this app, refunded and finished ones too, but a consumable only until it
    /// is finished ("Transaction.all": finished consumables are left out unless the app's Info.plist sets
    /// `SKIncludeConsumableInAppPurchaseHistory`, which `StoreKitStandIn.setIncludesConsumableHistory` stands for).
    public static var all: Transactions {
        .of(counting: \.all) { store in
            let history = try await store.local.transactionHistory()
            guard !store.includesConsumableHistory.withLock({ $0 }) else { return history }
            let finished = Set(try store.local.history().filter(\.isFinished).map(\.transaction.id))
            return history.filter { $0.productType != .consumable || !finished.contains($0.id) }
        }
    }

    /// "The latest transaction for each product the customer is entitled to": non-consumables, non-renewing
    /// subscriptions, and auto-renewable subscriptions that are active or in a billing grace period; never a
    /// refunded or revoked one, nor a consumable ("Transaction.currentEntitlements"). It needs no sign-in.
    public static var currentEntitlements: Transactions {
        .of(counting: \.currentEntitlements) { store in try await Self.entitled(store) }
    }

    /// The customer's current entitlement to `productID`, if any ("Transaction.currentEntitlement(for:)").
    public static func currentEntitlement(for productID: String) async -> VerificationResult<Transaction>? {
        guard let store = try? StandInAppStore.shared(), let entitled = try? await entitled(store) else { return nil }
        return entitled.first { StandInAppStore.handedOver($0).productID == productID }.map(store.verificationResult)
    }

    /// The newest transaction of `productID`, entitling or not ("Transaction.latest(for:)": "the customer's most
    /// recent transaction"); of two bought at once, the later id (Apple is silent on ties).
    public static func latest(for productID: String) async -> VerificationResult<Transaction>? {
        guard let store = try? StandInAppStore.shared(), let all = try? await store.local.transactionHistory() else { return nil }
        let seen = all.map { (genuine: $0, seen: StandInAppStore.handedOver($0)) }  // as a forging tool shows them
        return seen.filter { $0.seen.productID == productID }
            .max { ($0.seen.purchaseDate, $0.seen.id) < ($1.seen.purchaseDate, $1.seen.id) }
            .map { store.verificationResult($0.genuine) }
    }

    /// Transactions not finished yet ("Transaction.unfinished").
    public static var unfinished: Transactions { .of(counting: \.unfinished) { try await $0.local.unfinishedTransactions() } }

    /// What the App Store creates or updates outside the app's purchase calls ("Transaction.updates": it "emits a
    /// transaction when the system creates or updates transactions that occur outside the app or on other
    /// devices"); the unfinished ones first for the first listener after launch (`StandInAppStore.transactionUpdates`).
    public static var updates: Transactions {
        Transactions {
            guard let store = try? StandInAppStore.shared() else { return AsyncStream { $0.finish() } }
            return store.transactionUpdates()
        }
    }

    /// The rule of "Transaction.currentEntitlements", applied here to the local store's transactions rather than
    /// through the core's `Entitlements` (the code under test): the newest transaction of each product that is
    /// not a consumable, if it is not refunded, and, for an auto-renewable subscription, if its period or its billing
    /// grace period ("RenewalState.inGracePeriod": "entitled to service") has not ended. A subscription replaced
    /// by an upgrade ended when it was (the local store dates its expiration so). The user's own purchase and a
    /// family member's shared one are each entitlements ("Transaction.currentEntitlements(for:)", iOS 18.4, lists
    /// every transaction that entitles to a product, for Family Sharing). The rule reads each copy as it is handed
    /// over: a tool that forges copies (`StoreKitStandIn.forgeCopies`) rewrites this list too. In the order of
    /// their ids, so `currentEntitlement(for:)` gives the older of the user's own and a shared one (Apple is silent
    /// on the order).
    private static func entitled(_ store: StandInAppStore) async throws -> [StoreTransaction] {
        let now = store.now()
        var newest: [String: (genuine: StoreTransaction, seen: StoreTransaction)] = [:]
        for genuine in try await store.local.transactionHistory() where genuine.productType != .consumable {
            let seen = StandInAppStore.handedOver(genuine)
            let key = "\(seen.productID) \(seen.ownershipType.rawValue)"
            if let kept = newest[key]?.seen, (kept.purchaseDate, kept.id) > (seen.purchaseDate, seen.id) { continue }
            newest[key] = (genuine, seen)
        }
        return newest.values.filter { _, seen in
            guard !seen.isRevoked else { return false }
            guard seen.productType == .autoRenewable else { return true }
            return max(seen.expirationDate ?? .distantPast, seen.gracePeriodExpirationDate ?? .distantPast) > now
        }.map(\.genuine).sorted { $0.id < $1.id }
    }

    // MARK: - Refund requests

    public enum RefundRequestError: Error, Sendable, Equatable, Hashable {
        case duplicateRequest
        case failed
        case ineligible
    }

    public enum RefundRequestStatus: Sendable, Equatable, Hashable {
        case success
        case userCancelled
    }

    /// The refund request sheet for `transactionID` ("Transaction.beginRefundRequest(for:in:)"): the local store's
    /// simulated sheet answers (its `refund-request` controls), a duplicate request throws `duplicateRequest`.
    @MainActor public static func beginRefundRequest(for transactionID: UInt64, in scene: UIWindowScene) async throws -> RefundRequestStatus {
        let store = try StandInAppStore.shared()
        do {
            switch try await store.local.beginRefundRequest(transactionID: transactionID, uiContext: nil) {
            case .submitted: return .success
            case .cancelled: return .userCancelled
            }
        } catch {
            throw storeKitError(error)
        }
    }
}

extension VerificationResult where SignedType == Transaction {
    /// The JWS StoreKit checked ("VerificationResult.jwsRepresentation").
    public var jwsRepresentation: String { unsafePayloadValue.signedJWS }
}
