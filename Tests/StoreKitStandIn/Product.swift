import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPVerification
import UIKit

/// StoreKit's `Product`: one of the local store's catalog products, priced in the storefront in force.
public struct Product: Identifiable, Sendable, Equatable, Hashable {
    public struct ProductType: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let consumable = ProductType(rawValue: "Consumable")
        public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
        public static let nonRenewable = ProductType(rawValue: "Non-Renewing Subscription")
        public static let autoRenewable = ProductType(rawValue: "Auto-Renewable Subscription")
        public static let subscriptionBundle = ProductType(rawValue: "Subscription Bundle")
        public static let subscriptionSuite = ProductType(rawValue: "Subscription Suite")

        init(_ type: IOSiAPCore.ProductType) {
            switch type {
            case .consumable: self = .consumable
            case .nonConsumable: self = .nonConsumable
            case .autoRenewable: self = .autoRenewable
            case .nonRenewing: self = .nonRenewable
            }
        }
    }

    public let id: String
    public let type: ProductType
    public let displayName: String
    public let description: String
    public let price: Decimal
    public let displayPrice: String
    public let subscription: SubscriptionInfo?
    /// "The format style for the numbers in the price of the product" ("Product.priceFormatStyle"): here the
    /// currency only (Apple is silent on its locale; LiveStoreKit reads its `currencyCode`).
    public var priceFormatStyle: Decimal.FormatStyle.Currency { Decimal.FormatStyle.Currency(code: currencyCode) }
    let currencyCode: String
    /// The local store's product, to pay for.
    let storeProduct: StoreProduct

    init(_ product: StoreProduct) {
        id = product.id
        type = ProductType(product.type)
        displayName = product.displayName
        description = product.description
        price = product.price
        displayPrice = product.displayPrice
        currencyCode = product.currencyCode
        subscription = product.subscription.map(SubscriptionInfo.init)
        storeProduct = product
    }

    /// Equal when the local store's products are (Apple is silent on what `Product`'s equality compares).
    public static func == (lhs: Product, rhs: Product) -> Bool { lhs.storeProduct == rhs.storeProduct }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(displayPrice)
    }

    /// The products of the catalog among `identifiers`; unknown ids are left out ("Product.products(for:)"). Each
    /// once, in the order of their ids (Apple is silent on the order).
    public static func products<Identifiers>(for identifiers: Identifiers) async throws -> [Product]
        where Identifiers: Collection, Identifiers.Element == String {
        let store = try StandInAppStore.shared()
        do {
            return try await store.local.products(for: Array(Set(identifiers)).sorted()).map(Product.init)
        } catch {
            throw storeKitError(error)
        }
    }

    // MARK: - Subscriptions

    public struct SubscriptionPeriod: Equatable, Hashable, Sendable {
        public enum Unit: Equatable, Hashable, Sendable {
            case day
            case week
            case month
            case year
        }
        public let unit: Unit
        public let value: Int

        init(_ period: StoreSubscriptionPeriod) {
            value = period.value
            unit = switch period.unit {
            case .day: .day
            case .week: .week
            case .month: .month
            case .year: .year
            }
        }
    }

    public struct SubscriptionOffer: Equatable, Hashable, Sendable {
        public struct OfferType: RawRepresentable, Equatable, Hashable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let introductory = OfferType(rawValue: "introductory")
            public static let promotional = OfferType(rawValue: "promotional")
            public static let winBack = OfferType(rawValue: "winBack")
        }

        public struct PaymentMode: RawRepresentable, Equatable, Hashable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let payAsYouGo = PaymentMode(rawValue: "PayAsYouGo")
            public static let payUpFront = PaymentMode(rawValue: "PayUpFront")
            public static let freeTrial = PaymentMode(rawValue: "FreeTrial")
        }

        /// A promotional offer's signature, as the developer's server made it ("Product.SubscriptionOffer.Signature").
        public struct Signature: Equatable, Hashable, Sendable {
            public var keyID: String
            public var nonce: UUID
            public var timestamp: Int
            public var signature: Data
            public init(keyID: String, nonce: UUID, timestamp: Int, signature: Data) {
                self.keyID = keyID
                self.nonce = nonce
                self.timestamp = timestamp
                self.signature = signature
            }
        }

        public let id: String?
        public let type: OfferType
        public let price: Decimal
        public let displayPrice: String
        public let period: SubscriptionPeriod
        public let periodCount: Int
        public let paymentMode: PaymentMode

        init(_ offer: IOSiAPCore.SubscriptionOffer, type: OfferType) {
            id = offer.id
            self.type = type
            price = offer.price
            displayPrice = offer.displayPrice
            period = SubscriptionPeriod(offer.period)
            periodCount = offer.periodCount
            paymentMode = switch offer.paymentMode {
            case .freeTrial: .freeTrial
            case .payAsYouGo: .payAsYouGo
            case .payUpFront: .payUpFront
            }
        }
    }

    public struct SubscriptionInfo: Equatable, Hashable, Sendable {
        public let introductoryOffer: SubscriptionOffer?
        public let promotionalOffers: [SubscriptionOffer]
        public let winBackOffers: [SubscriptionOffer]
        public let subscriptionGroupID: String
        public let subscriptionPeriod: SubscriptionPeriod
        public let groupLevel: Int
        public let groupDisplayName: String

        init(_ info: StoreSubscriptionInfo) {
            introductoryOffer = info.introductoryOffer.map { SubscriptionOffer($0, type: .introductory) }
            promotionalOffers = info.promotionalOffers.map { SubscriptionOffer($0, type: .promotional) }
            winBackOffers = info.winBackOffers.map { SubscriptionOffer($0, type: .winBack) }
            subscriptionGroupID = info.groupID
            subscriptionPeriod = SubscriptionPeriod(info.period)
            groupLevel = info.level
            groupDisplayName = info.groupName
        }

        /// Whether the user may still get an introductory offer in the group: never once they subscribed in it
        /// ("Product.SubscriptionInfo.isEligibleForIntroOffer(for:)"); `false` when the store cannot say (Apple is
        /// silent there).
        public static func isEligibleForIntroOffer(for groupID: String) async -> Bool {
            guard let store = try? StandInAppStore.shared() else { return false }
            return (try? await store.local.isEligibleForIntroOffer(groupID: groupID)) ?? false
        }

        /// The same for this subscription's group ("Product.SubscriptionInfo.isEligibleForIntroOffer": "on this
        /// auto-renewable subscription, or any auto-renewable subscription in the same subscription group").
        public var isEligibleForIntroOffer: Bool {
            get async { await Self.isEligibleForIntroOffer(for: subscriptionGroupID) }
        }

        public struct RenewalState: RawRepresentable, Equatable, Hashable, Sendable {
            public let rawValue: Int
            public init(rawValue: Int) { self.rawValue = rawValue }
            /// The App Store Server API's `status` values ("status": 1 active, 2 expired, 3 billing retry, 4 grace
            /// period, 5 revoked).
            public static let subscribed = RenewalState(rawValue: 1)
            public static let expired = RenewalState(rawValue: 2)
            public static let inBillingRetryPeriod = RenewalState(rawValue: 3)
            public static let inGracePeriod = RenewalState(rawValue: 4)
            public static let revoked = RenewalState(rawValue: 5)
        }

        public struct RenewalInfo: Equatable, Hashable, Sendable {
            public struct ExpirationReason: RawRepresentable, Equatable, Hashable, Sendable {
                public let rawValue: Int
                public init(rawValue: Int) { self.rawValue = rawValue }
                /// The App Store Server API's `expirationIntent` values ("expirationIntent").
                public static let autoRenewDisabled = ExpirationReason(rawValue: 1)
                public static let billingError = ExpirationReason(rawValue: 2)
                public static let didNotConsentToPriceIncrease = ExpirationReason(rawValue: 3)
                public static let productUnavailable = ExpirationReason(rawValue: 4)
                public static let unknown = ExpirationReason(rawValue: 5)
            }

            public let originalTransactionID: UInt64
            public let currentProductID: String
            public let willAutoRenew: Bool
            public let autoRenewPreference: String?
            public let expirationReason: ExpirationReason?
            public let isInBillingRetry: Bool
            public let gracePeriodExpirationDate: Date?
            let signedJWS: String
        }

        public struct Status: Equatable, Hashable, Sendable {
            public let state: RenewalState
            public let transaction: VerificationResult<Transaction>
            public let renewalInfo: VerificationResult<RenewalInfo>

            public struct Statuses: AsyncSequence, Sendable {
                public typealias Element = Status
                public typealias AsyncIterator = StandInListener<Status>
                public func makeAsyncIterator() -> AsyncIterator { AsyncIterator { $0.statuses() } }
            }

            /// Each change of a subscription's status ("Product.SubscriptionInfo.Status.updates"):
            /// `StandInAppStore.reportStatus` says when the stand-in reports one.
            public static var updates: Statuses { Statuses() }
        }

        /// The statuses of the user's subscriptions in `groupID`, one per subscription the user has there: their
        /// own and one a family member shares ("Product.SubscriptionInfo.status": "The array can have more than
        /// one subscription status if your subscription supports Family Sharing"). The order is the local store's
        /// (the user's own first): Apple documents none.
        public static func status(for groupID: String) async throws -> [Status] {
            let store = try StandInAppStore.shared()
            let statuses: [StoreSubscriptionStatus]
            do { statuses = try await store.local.subscriptionStatuses(groupID: groupID) } catch { throw storeKitError(error) }
            return statuses.map { storeKitStatus($0, local: store.local, verifier: store.verifier) }
        }

        /// The local store's `status`, with StoreKit's verdicts on its transaction and renewal info.
        static func storeKitStatus(_ status: StoreSubscriptionStatus, local: LocalStore, verifier: SignedDataVerifier) -> Status {
            let state: RenewalState = switch status.state {
            case .subscribed: .subscribed
            case .expired: .expired
            case .inBillingRetryPeriod: .inBillingRetryPeriod
            case .inGracePeriod: .inGracePeriod
            case .revoked: .revoked
            }
            let info = RenewalInfo(
                originalTransactionID: status.transaction.originalID, currentProductID: status.transaction.productID,
                willAutoRenew: status.willAutoRenew, autoRenewPreference: status.autoRenewProductID,
                expirationReason: status.expirationReason.map { RenewalInfo.ExpirationReason(rawValue: Int($0.rawValue)) },
                isInBillingRetry: status.isInBillingRetry, gracePeriodExpirationDate: status.gracePeriodExpirationDate,
                signedJWS: status.signedRenewalInfo ?? "")
            let renewal: VerificationResult<RenewalInfo>
            if status.signedRenewalInfo == nil {
                renewal = .unverified(info, .missingRequiredProperties)
            } else {
                do {
                    _ = try verifier.verifyRenewalInfo(info.signedJWS)
                    renewal = .verified(info)
                } catch {
                    renewal = .unverified(info, .init(error.code))  // as a transaction's copy (`VerificationError.init`)
                }
            }
            return Status(state: state, transaction: StandInAppStore.verificationResult(status.transaction, local: local, verifier: verifier),
                          renewalInfo: renewal)
        }
    }

    // MARK: - Purchases

    public struct PurchaseOption: Equatable, Hashable, Sendable {
        enum Option: Equatable, Hashable, Sendable {
            case quantity(Int)
            case appAccountToken(UUID)
            case promotionalOffer(offerID: String, signature: SubscriptionOffer.Signature)
            case promotionalOfferJWS(offerID: String, compactJWS: String)
            case introductoryOfferEligibility(compactJWS: String)
            case winBackOffer(String?)
        }
        let option: Option

        public static func quantity(_ quantity: Int) -> PurchaseOption { PurchaseOption(option: .quantity(quantity)) }
        public static func appAccountToken(_ token: UUID) -> PurchaseOption { PurchaseOption(option: .appAccountToken(token)) }
        public static func promotionalOffer(offerID: String, signature: SubscriptionOffer.Signature) -> PurchaseOption {
            PurchaseOption(option: .promotionalOffer(offerID: offerID, signature: signature))
        }
        /// The SDK's form returns an array of options.
        public static func promotionalOffer(_ offerID: String, compactJWS: String) -> [PurchaseOption] {
            [PurchaseOption(option: .promotionalOfferJWS(offerID: offerID, compactJWS: compactJWS))]
        }
        public static func introductoryOfferEligibility(compactJWS: String) -> PurchaseOption {
            PurchaseOption(option: .introductoryOfferEligibility(compactJWS: compactJWS))
        }
        public static func winBackOffer(_ offer: SubscriptionOffer) -> PurchaseOption { PurchaseOption(option: .winBackOffer(offer.id)) }
    }

    public enum PurchaseResult: Sendable {
        case success(VerificationResult<Transaction>)
        case userCancelled
        case pending
    }

    public enum PurchaseError: Error, Sendable, Equatable, Hashable {
        case invalidQuantity
        case productUnavailable
        case purchaseNotAllowed
        case ineligibleForOffer
        case invalidOfferIdentifier
        case invalidOfferPrice
        case invalidOfferSignature
        case missingOfferParameters
        case paymentMethodBindingConfigurationRequired
    }

    /// "Product.purchase(options:)" as iOS 18.2 and later answer it in an app with scenes: public reports have it
    /// fail, finding no scene to confirm in ("Could not get confirmation scene ID": RevenueCat purchases-ios #4611,
    /// Adapty #105; Apple's page is silent). The stand-in stands for iOS 27, so it always fails and charges nothing:
    /// code that calls it on iOS is caught here.
    @MainActor public func purchase(options: Set<PurchaseOption> = []) async throws -> PurchaseResult {
        throw StoreKitError.systemError(StandInError(message: "Could not get confirmation scene ID (purchase(options:) on iOS 18.2 and later)"))
    }

    /// Buys the product with `options`, the confirmation shown in `scene` ("Product.purchase(confirmIn:options:)",
    /// iOS 17): the local store charges it and answers as its purchase dialog and Ask to Buy controls say (`pending`
    /// for Ask to Buy and interrupted purchases, `userCancelled`). The scene is noted for tests
    /// (`StoreKitStandIn.lastConfirmationScene`).
    @MainActor public func purchase(confirmIn scene: some UIScene, options: Set<PurchaseOption> = []) async throws -> PurchaseResult {
        try StandInAppStore.shared().lastConfirmationScene.withLock { $0 = ObjectIdentifier(scene) }
        return try await buy(options)
    }

    /// The same, shown "in proximity to" `viewController` ("Product.purchase(confirmIn:options:)", iOS 18.2), noted
    /// as its window's scene. Apple is silent on a view controller outside any window: here it buys, noting none.
    public func purchase(confirmIn viewController: UIViewController, options: Set<PurchaseOption> = []) async throws -> PurchaseResult {
        let scene = await MainActor.run { viewController.viewIfLoaded?.window?.windowScene.map(ObjectIdentifier.init) }
        try StandInAppStore.shared().lastConfirmationScene.withLock { $0 = scene }
        return try await buy(options)
    }

    private func buy(_ options: Set<PurchaseOption>) async throws -> PurchaseResult {
        let store = try StandInAppStore.shared()
        var quantity = 1
        var token: UUID?
        var signed: SignedPromotionalOffer?
        var jws: PromotionalOfferJWS?
        var eligibility: String?
        var winBack: String?
        for option in options {
            switch option.option {
            case .quantity(let count): quantity = count
            case .appAccountToken(let value): token = value
            case .promotionalOffer(let offerID, let signature):
                signed = SignedPromotionalOffer(offerID: offerID, keyID: signature.keyID, nonce: signature.nonce,
                                                timestamp: Int64(signature.timestamp), signature: signature.signature)
            case .promotionalOfferJWS(let offerID, let compactJWS): jws = PromotionalOfferJWS(offerID: offerID, compactJWS: compactJWS)
            case .introductoryOfferEligibility(let compactJWS): eligibility = compactJWS
            case .winBackOffer(let id): winBack = id
            }
        }
        // StoreKit takes quantities from 1 to 10 ("Product.PurchaseOption.quantity(_:)": the App Store's limit).
        guard PaymentRequest.allowedQuantities.contains(quantity) else { throw PurchaseError.invalidQuantity }
        let request = PaymentRequest(productID: id, quantity: quantity, appAccountToken: token, promotionalOffer: signed,
                                     winBackOfferID: winBack, promotionalOfferJWS: jws, introductoryOfferEligibilityJWS: eligibility)
        let outcome: PurchaseOutcome
        do { outcome = try await store.local.purchase(request, product: storeProduct) } catch { throw storeKitError(error) }
        switch outcome {
        case .purchased(let transaction):
            // Returned here: "after a successful in-app purchase on the same device, StoreKit returns the
            // transaction through Product.PurchaseResult.success(_:)" ("Transaction.updates"), not the updates;
            // also there only while a test's echo switch says so (StoreKitStandIn.PurchaseEcho).
            store.noteReported(transaction)
            return .success(store.verificationResult(transaction))
        case .cancelled:
            return .userCancelled
        case .deferred:
            return .pending
        }
    }
}
