#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// What the StoreKit 2 backend needs from StoreKit, as small protocols: the real StoreKit conforms on Apple
/// platforms (`Live/`), scripted fakes conform in the tests on Linux. Everything the backend decides is
/// written against these, so that it is tested without StoreKit.
public protocol StoreKitAPI: Sendable {
    associatedtype Product: StoreKitProduct
    associatedtype Transaction: StoreKitTransaction
    associatedtype Message: StoreKitMessage

    /// `Product.products(for:)`.
    func products(for ids: [String]) async throws(StoreKitFailure) -> [Product]
    /// `product.purchase(options:)` with `.quantity`, `.appAccountToken`, `.promotionalOffer(offerID:signature:)`,
    /// `.promotionalOffer(_:compactJWS:)`, `.introductoryOfferEligibility(compactJWS:)` and `.winBackOffer(_:)` (the
    /// product's win-back offer with that id); with a UI context, `product.purchase(confirmIn:options:)` where the
    /// platform has it. The two JWS options exist only in the iOS 26 / macOS 26 SDK's StoreKit: built with an older
    /// SDK, a payment that carries one throws `.unsupportedOption`.
    func purchase(_ product: Product, quantity: Int, appAccountToken: UUID?, promotionalOffer: SignedPromotionalOffer?,
                  promotionalOfferJWS: PromotionalOfferJWS?, introductoryOfferEligibilityJWS: String?,
                  winBackOfferID: String?, uiContext: UIContext?) async throws(StoreKitFailure) -> StoreKitPurchaseResult<Transaction>
    /// Starts `AppStore.presentOfferCodeRedeemSheet` in the UI context (a window scene; on macOS a view controller
    /// or a window) and returns: the sheet shows the user its own errors, and a code redeemed arrives through
    /// `Transaction.updates`. Throws when it cannot start: `.unsupported` where StoreKit has no such sheet (tvOS),
    /// no or a wrong UI context.
    func presentOfferCodeRedeemSheet(uiContext: UIContext?) throws(StoreKitFailure)
    /// `Transaction.beginRefundRequest(for:in:)` in the UI context (a window scene; on macOS a view controller or a
    /// window), returning when the sheet closes. Throws `.unsupported` where StoreKit has no refund sheet (tvOS), and
    /// StoreKit's `Transaction.RefundRequestError` as `.refundRequestDuplicate` or `.refundRequestFailed`.
    func beginRefundRequest(transactionID: UInt64, uiContext: UIContext?) async throws(StoreKitFailure) -> StoreKitRefundRequestStatus
    /// `AppStore.showManageSubscriptions(in:)` in the UI context's window scene, returning when the sheet closes.
    /// Throws `.unsupported` where StoreKit has no such sheet (macOS, tvOS).
    func showManageSubscriptions(uiContext: UIContext?) async throws(StoreKitFailure)
    /// `Transaction.updates`: started once, when the store opens.
    func transactionUpdates() -> AsyncStream<StoreKitVerified<Transaction>>
    /// `Transaction.unfinished`.
    func unfinishedTransactions() async -> [StoreKitVerified<Transaction>]
    /// `Transaction.currentEntitlements`.
    func currentEntitlements() async -> [StoreKitVerified<Transaction>]
    /// `AppStore.sync()`.
    func sync() async throws(StoreKitFailure)
    /// `transaction.finish()` of the transaction with this id.
    func finish(transactionID: UInt64) async
    /// `AppStore.canMakePayments`.
    var canMakePayments: Bool { get }
    /// `Storefront.current?.countryCode`.
    func storefrontCountryCode() async -> String?
    /// `Product.SubscriptionInfo.status(for:)`.
    func subscriptionStatuses(groupID: String) async throws(StoreKitFailure) -> [StoreKitSubscriptionStatus<Transaction>]
    /// `Product.SubscriptionInfo.Status.updates`: a subscription's status each time it changes (a renewal that fails
    /// into billing retry or its grace period changes no transaction, so `Transaction.updates` says nothing of it).
    /// Started once, when the store opens.
    func subscriptionStatusUpdates() -> AsyncStream<StoreKitSubscriptionStatus<Transaction>>
    /// `Product.SubscriptionInfo.isEligibleForIntroOffer(for:)`.
    func isEligibleForIntroOffer(groupID: String) async -> Bool
    /// `Transaction.all`: every transaction of the user, with StoreKit's verdicts.
    func allTransactions() async -> [StoreKitVerified<Transaction>]
    /// `PurchaseIntent.intents`: purchases the user starts in the App Store, each with `intent.offer`. Started once,
    /// when the store opens.
    func purchaseIntents() -> AsyncStream<StoreKitPurchaseIntent<Product>>
    /// `StoreAppTransaction.shared` (iOS 16, macOS 13, tvOS 16, visionOS 1), with StoreKit's verdict.
    func appTransaction() async throws(StoreKitFailure) -> StoreKitVerified<StoreKitAppTransaction>
    /// `Message.messages` (iOS 16, visionOS 1): the App Store's messages for the user. Listening is what keeps
    /// StoreKit from showing them at once (Apple's documentation of `Message`). Started once, when the store
    /// opens; an empty stream where StoreKit has no messages (macOS, tvOS).
    func messages() -> AsyncStream<Message>
    /// Whether this platform's StoreKit has messages at all (`Message` is iOS and visionOS only).
    var hasMessages: Bool { get }
    /// Starts `message.display(in:)` in the UI context's window scene and returns. Throws when it cannot start:
    /// `.unsupported` where StoreKit has no messages, no or a wrong UI context.
    func display(_ message: Message, uiContext: UIContext?) throws(StoreKitFailure)
    /// `Storefront.updates`: the country code of each new storefront. Started once, when the store opens.
    func storefrontUpdates() -> AsyncStream<String>
}

extension StoreKitAPI {
    /// No status updates: a conformance written before this requirement existed still compiles, and a grace
    /// period that starts while the game runs is then read at the next launch.
    public func subscriptionStatusUpdates() -> AsyncStream<StoreKitSubscriptionStatus<Transaction>> {
        AsyncStream { $0.finish() }
    }
}

/// StoreKit's `PurchaseIntent`: the product and the subscription offer the user chose in the App Store (`offer`,
/// iOS 18 and macOS 15; Apple documents it as set for a win-back offer), mapped (one of a type this library does
/// not know is `nil`).
public struct StoreKitPurchaseIntent<Product: Sendable>: Sendable {
    public var product: Product
    public var offer: TransactionOffer?

    public init(product: Product, offer: TransactionOffer? = nil) {
        self.product = product
        self.offer = offer
    }
}

/// The part of StoreKit's `Message` the backend reads; the backend keeps the message itself to display it.
public protocol StoreKitMessage: Sendable {
    /// `message.reason`, mapped (a reason this library does not know is `generic`).
    var reason: StoreMessage.Reason { get }
}

/// `Product.SubscriptionInfo.Status`: the state, the latest transaction and what its `RenewalInfo` says.
public struct StoreKitSubscriptionStatus<Transaction: Sendable>: Sendable {
    public var state: StoreSubscriptionStatus.State
    public var transaction: StoreKitVerified<Transaction>
    public var willAutoRenew: Bool
    public var autoRenewProductID: String?
    /// `renewalInfo.expirationReason`, mapped (a reason this library does not know is `unknown`).
    public var expirationReason: StoreSubscriptionStatus.ExpirationReason?
    public var isInBillingRetry: Bool
    public var gracePeriodExpirationDate: Date?
    /// `status.renewalInfo.jwsRepresentation`.
    public var renewalInfoJWS: String?
    /// Whether StoreKit verified `status.renewalInfo` (the grace period's end is taken only from verified renewal info).
    public var renewalInfoVerified: Bool

    public init(state: StoreSubscriptionStatus.State, transaction: StoreKitVerified<Transaction>, willAutoRenew: Bool,
                autoRenewProductID: String?, expirationReason: StoreSubscriptionStatus.ExpirationReason? = nil,
                isInBillingRetry: Bool = false, gracePeriodExpirationDate: Date? = nil, renewalInfoJWS: String? = nil,
                renewalInfoVerified: Bool = true) {
        self.state = state
        self.transaction = transaction
        self.willAutoRenew = willAutoRenew
        self.autoRenewProductID = autoRenewProductID
        self.expirationReason = expirationReason
        self.isInBillingRetry = isInBillingRetry
        self.gracePeriodExpirationDate = gracePeriodExpirationDate
        self.renewalInfoJWS = renewalInfoJWS
        self.renewalInfoVerified = renewalInfoVerified
    }
}

/// The parts of StoreKit's `Product` the backend reads.
public protocol StoreKitProduct: Sendable {
    var id: String { get }
    var type: ProductType { get }
    var displayName: String { get }
    var description: String { get }
    var price: Decimal { get }
    var displayPrice: String { get }
    var currencyCode: String { get }
    var subscription: StoreSubscriptionInfo? { get }
}

/// The parts of StoreKit's `Transaction` the backend reads.
public protocol StoreKitTransaction: Sendable {
    var id: UInt64 { get }
    var originalID: UInt64 { get }
    var productID: String { get }
    var productType: ProductType { get }
    var purchasedQuantity: Int { get }
    var purchaseDate: Date { get }
    var originalPurchaseDate: Date { get }
    var expirationDate: Date? { get }
    var revocationDate: Date? { get }
    var revocationReason: RevocationReason? { get }
    var appAccountToken: UUID? { get }
    /// `transaction.environment.rawValue` ("Production", "Sandbox", "Xcode"): the backend maps it, and a value it
    /// does not know fails verification instead of being taken for Production.
    var environment: String { get }
    var storefrontCountryCode: String { get }
    var ownershipType: OwnershipType { get }
    var reason: TransactionReason { get }
    var subscriptionGroupID: String? { get }
    /// `transaction.offer`: its type (win-back included) and id.
    var offer: TransactionOffer? { get }
    var jwsRepresentation: String { get }
}

/// StoreKit's `VerificationResult`: the transaction, and why StoreKit could not verify it, if it could not.
public enum StoreKitVerified<Transaction: Sendable>: Sendable {
    case verified(Transaction)
    case unverified(Transaction, StoreKitVerificationFailure)

    /// The transaction, verified or not.
    public var value: Transaction {
        switch self {
        case .verified(let transaction), .unverified(let transaction, _): transaction
        }
    }
}

/// `VerificationResult.VerificationError`.
public enum StoreKitVerificationFailure: Sendable, Equatable {
    case invalidCertificateChain, invalidDeviceVerification, invalidEncoding, invalidSignature
    case missingRequiredProperties, revokedCertificate
}

/// `Product.PurchaseResult`.
public enum StoreKitPurchaseResult<Transaction: Sendable>: Sendable {
    case success(StoreKitVerified<Transaction>)
    case userCancelled
    case pending
}

/// `Transaction.RefundRequestStatus`: how the refund request sheet closed.
public enum StoreKitRefundRequestStatus: Sendable, Equatable {
    case success
    case userCancelled
}

/// The errors StoreKit throws (`StoreKitError`, `Product.PurchaseError`), as the backend tells them apart.
public enum StoreKitFailure: Error, Sendable, Equatable {
    case unknown
    case userCancelled
    case networkError(String)
    case systemError(String)
    case notAvailableInStorefront
    case notEntitled
    /// `StoreKitError.unsupported` (iOS 18.4+): not supported on this device or platform.
    case unsupported
    /// A purchase option the StoreKit this library was built with does not have (the JWS-signed offers need the
    /// iOS 26 / macOS 26 SDK); the text says which, and what it needs.
    case unsupportedOption(String)
    /// A purchase this platform's StoreKit makes only with the game's UI context, asked for without one (on
    /// visionOS, which has no `purchase(options:)`); the text says which object it needs.
    case uiContextRequired(String)
    /// A UI context that is not an object of the class this platform's StoreKit takes; the text says which.
    case invalidUIContext(String)
    /// `StoreKitError.invalidPresentationContext` (iOS 27): StoreKit cannot show its UI from the context given; also
    /// a purchase without a context for which no window scene is found (LiveStoreKit's lookup).
    case invalidPresentationContext
    case invalidQuantity
    case productUnavailable
    case purchaseNotAllowed
    case ineligibleForOffer
    case invalidOfferIdentifier
    case invalidOfferPrice
    case invalidOfferSignature
    case missingOfferParameters
    /// `Product.PurchaseError.paymentMethodBindingConfigurationRequired` (iOS 26.5): the user must add a payment
    /// method to their Apple Account before buying.
    case paymentMethodBindingConfigurationRequired
    /// `Transaction.RefundRequestError.duplicateRequest`: a refund was already requested for the transaction.
    case refundRequestDuplicate
    /// `Transaction.RefundRequestError.failed`.
    case refundRequestFailed
    /// `Transaction.RefundRequestError.ineligible` (iOS 27): the App Store takes no refund request for it.
    case refundRequestIneligible
    /// An error StoreKit added after this library was written.
    case other(String)
}
