// The only file that calls StoreKit: thin wrappers from StoreKit 2 to `StoreKitAPI`. Everything it feeds
// is decided, and tested on Linux, in StoreKitBackend. This file has not been compiled or run on an Apple
// platform yet (no Apple machine is available to the project); the test command only parses it.
#if canImport(StoreKit)
import Foundation
import IOSiAPCore
import StoreKit

@available(iOS 17.0, macOS 14.0, tvOS 17.0, visionOS 1.0, *)
public struct LiveStoreKit: StoreKitAPI {
    public init() {}

    public func products(for ids: [String]) async throws(StoreKitFailure) -> [LiveProduct] {
        do { return try await Product.products(for: ids).map(LiveProduct.init) } catch { throw Self.failure(error) }
    }

    public func purchase(_ product: LiveProduct, quantity: Int, appAccountToken: UUID?,
                         promotionalOffer: SignedPromotionalOffer?) async throws(StoreKitFailure) -> StoreKitPurchaseResult<LiveTransaction> {
        var options: Set<Product.PurchaseOption> = [.quantity(quantity)]
        if let appAccountToken { options.insert(.appAccountToken(appAccountToken)) }
        if let offer = promotionalOffer {
            options.insert(.promotionalOffer(offerID: offer.offerID, keyID: offer.keyID, nonce: offer.nonce,
                                             signature: offer.signature, timestamp: Int(offer.timestamp)))
        }
        let result: Product.PurchaseResult
        do { result = try await product.product.purchase(options: options) } catch { throw Self.failure(error) }
        switch result {
        case .success(let verification): return .success(Self.verified(verification))
        case .userCancelled: return .userCancelled
        case .pending: return .pending
        @unknown default: throw .other("an unknown purchase result")
        }
    }

    public func transactionUpdates() -> AsyncStream<StoreKitVerified<LiveTransaction>> {
        AsyncStream { continuation in
            let listener = Task {
                for await update in Transaction.updates { continuation.yield(Self.verified(update)) }
                continuation.finish()
            }
            continuation.onTermination = { _ in listener.cancel() }
        }
    }

    public func unfinishedTransactions() async -> [StoreKitVerified<LiveTransaction>] {
        var all: [StoreKitVerified<LiveTransaction>] = []
        for await transaction in Transaction.unfinished { all.append(Self.verified(transaction)) }
        return all
    }

    public func currentEntitlements() async -> [StoreKitVerified<LiveTransaction>] {
        var all: [StoreKitVerified<LiveTransaction>] = []
        for await transaction in Transaction.currentEntitlements { all.append(Self.verified(transaction)) }
        return all
    }

    public func sync() async throws(StoreKitFailure) {
        do { try await AppStore.sync() } catch { throw Self.failure(error) }
    }

    public func finish(transactionID: UInt64) async {
        for await result in Transaction.unfinished where result.unsafePayloadValue.id == transactionID {
            await result.unsafePayloadValue.finish()
        }
    }

    public var canMakePayments: Bool { AppStore.canMakePayments }

    public func storefrontCountryCode() async -> String? {
        await Storefront.current?.countryCode
    }

    public func subscriptionStatuses(groupID: String) async throws(StoreKitFailure) -> [StoreKitSubscriptionStatus<LiveTransaction>] {
        let statuses: [Product.SubscriptionInfo.Status]
        do { statuses = try await Product.SubscriptionInfo.status(for: groupID) } catch { throw Self.failure(error) }
        return statuses.map { status in
            let state: SubscriptionStatus.State = switch status.state {
            case .subscribed: .subscribed
            case .expired: .expired
            case .inBillingRetryPeriod: .inBillingRetryPeriod
            case .inGracePeriod: .inGracePeriod
            case .revoked: .revoked
            default: .expired
            }
            let renewal = status.renewalInfo.unsafePayloadValue
            return StoreKitSubscriptionStatus(state: state, transaction: Self.verified(status.transaction),
                                              willAutoRenew: renewal.willAutoRenew, autoRenewProductID: renewal.autoRenewPreference)
        }
    }

    public func purchaseIntents() -> AsyncStream<LiveProduct> {
        AsyncStream { continuation in
            let listener = Task {
                for await intent in PurchaseIntent.intents { continuation.yield(LiveProduct(product: intent.product)) }
                continuation.finish()
            }
            continuation.onTermination = { _ in listener.cancel() }
        }
    }

    private static func verified(_ result: VerificationResult<Transaction>) -> StoreKitVerified<LiveTransaction> {
        switch result {
        case .verified(let transaction):
            return .verified(LiveTransaction(transaction, jws: result.jwsRepresentation))
        case .unverified(let transaction, let error):
            let failure: StoreKitVerificationFailure = switch error {
            case .invalidCertificateChain: .invalidCertificateChain
            case .invalidDeviceVerification: .invalidDeviceVerification
            case .invalidEncoding: .invalidEncoding
            case .invalidSignature: .invalidSignature
            case .missingRequiredProperties: .missingRequiredProperties
            case .revokedCertificate: .revokedCertificate
            @unknown default: .invalidSignature
            }
            return .unverified(LiveTransaction(transaction, jws: result.jwsRepresentation), failure)
        }
    }

    private static func failure(_ error: any Error) -> StoreKitFailure {
        if let error = error as? StoreKitError {
            switch error {
            case .userCancelled: return .userCancelled
            case .networkError(let detail): return .networkError(detail.localizedDescription)
            case .systemError(let detail): return .systemError(detail.localizedDescription)
            case .notAvailableInStorefront: return .notAvailableInStorefront
            case .notEntitled: return .notEntitled
            case .unknown: return .unknown
            default: return .other(String(describing: error))
            }
        }
        if let error = error as? Product.PurchaseError {
            switch error {
            case .invalidQuantity: return .invalidQuantity
            case .productUnavailable: return .productUnavailable
            case .purchaseNotAllowed: return .purchaseNotAllowed
            case .ineligibleForOffer: return .ineligibleForOffer
            case .invalidOfferIdentifier: return .invalidOfferIdentifier
            case .invalidOfferPrice: return .invalidOfferPrice
            case .invalidOfferSignature: return .invalidOfferSignature
            case .missingOfferParameters: return .missingOfferParameters
            default: return .other(String(describing: error))
            }
        }
        return .other(String(describing: error))
    }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, visionOS 1.0, *)
public struct LiveProduct: StoreKitProduct {
    let product: Product

    public var id: String { product.id }
    public var type: ProductType {
        switch product.type {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .autoRenewable: .autoRenewable
        default: .nonRenewing
        }
    }
    public var displayName: String { product.displayName }
    public var description: String { product.description }
    public var price: Decimal { product.price }
    public var displayPrice: String { product.displayPrice }
    public var currencyCode: String { product.priceFormatStyle.currencyCode }
    public var subscription: SubscriptionInfo? {
        guard let info = product.subscription else { return nil }
        let unit: SubscriptionPeriod.Unit = switch info.subscriptionPeriod.unit {
        case .day: .day
        case .week: .week
        case .month: .month
        default: .year
        }
        return SubscriptionInfo(groupID: info.subscriptionGroupID, groupName: info.groupDisplayName, level: info.groupLevel,
                                period: SubscriptionPeriod(value: info.subscriptionPeriod.value, unit: unit),
                                introductoryOffer: nil, promotionalOffers: [])
    }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, visionOS 1.0, *)
public struct LiveTransaction: StoreKitTransaction {
    let transaction: Transaction
    public let jwsRepresentation: String

    init(_ transaction: Transaction, jws: String) {
        self.transaction = transaction
        jwsRepresentation = jws
    }

    public var id: UInt64 { transaction.id }
    public var originalID: UInt64 { transaction.originalID }
    public var productID: String { transaction.productID }
    public var productType: ProductType {
        switch transaction.productType {
        case .consumable: .consumable
        case .nonConsumable: .nonConsumable
        case .autoRenewable: .autoRenewable
        default: .nonRenewing
        }
    }
    public var purchasedQuantity: Int { transaction.purchasedQuantity }
    public var purchaseDate: Date { transaction.purchaseDate }
    public var originalPurchaseDate: Date { transaction.originalPurchaseDate }
    public var expirationDate: Date? { transaction.expirationDate }
    public var revocationDate: Date? { transaction.revocationDate }
    public var revocationReason: RevocationReason? {
        transaction.revocationReason.map { $0 == .developerIssue ? .refundedDueToIssue : .refundedForOtherReason }
    }
    public var appAccountToken: UUID? { transaction.appAccountToken }
    public var environment: StoreEnvironment { StoreEnvironment(rawValue: transaction.environment.rawValue) ?? .production }
    public var storefrontCountryCode: String { transaction.storefront.countryCode }
    public var ownershipType: OwnershipType { transaction.ownershipType == .familyShared ? .familyShared : .purchased }
    public var reason: TransactionReason { transaction.reason == .renewal ? .renewal : .purchase }
    public var subscriptionGroupID: String? { transaction.subscriptionGroupID }
    public var offer: TransactionOffer? {
        let type: Transaction.OfferType?
        let id: String?
        if #available(iOS 17.2, macOS 14.2, tvOS 17.2, visionOS 1.1, *) {
            (type, id) = (transaction.offer?.type, transaction.offer?.id)
        } else {
            (type, id) = (transaction.offerType, transaction.offerID)
        }
        let kinds: [(Transaction.OfferType, OfferType)] = [(.introductory, .introductory), (.promotional, .promotional), (.code, .offerCode)]
        guard let type, let kind = kinds.first(where: { $0.0 == type })?.1 else { return nil }
        return TransactionOffer(type: kind, id: id)
    }
}
#endif
