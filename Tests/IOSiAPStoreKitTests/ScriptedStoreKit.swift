import Foundation
import IOSiAPCore
import IOSiAPStoreKit

/// StoreKit as a test scripts it: the fake behind `StoreKitAPI`.
final class ScriptedStoreKit: StoreKitAPI {
    struct FakeProduct: StoreKitProduct {
        var id: String
        var type: ProductType
        var displayName = "Product"
        var description = "A product"
        var price: Decimal = 0.99
        var displayPrice = "$0.99"
        var currencyCode = "USD"
        var subscription: StoreSubscriptionInfo?
    }

    struct FakeTransaction: StoreKitTransaction {
        var id: UInt64
        var originalID: UInt64
        var productID: String
        var productType: ProductType
        var purchasedQuantity = 1
        var purchaseDate = Date(timeIntervalSince1970: 1_767_225_600)
        var originalPurchaseDate = Date(timeIntervalSince1970: 1_767_225_600)
        var expirationDate: Date?
        var revocationDate: Date?
        var revocationReason: RevocationReason?
        var appAccountToken: UUID?
        var environment = "Sandbox"
        var storefrontCountryCode = "USA"
        var ownershipType = OwnershipType.purchased
        var reason = TransactionReason.purchase
        var subscriptionGroupID: String?
        var offer: TransactionOffer?
        /// The JWS StoreKit hands over; one per id unless a test signs a copy apart.
        var signedCopy: String?
        var jwsRepresentation: String { signedCopy ?? "header.payload-of-\(id).signature" }
    }

    struct FakeMessage: StoreKitMessage, Equatable {
        var reason: StoreMessage.Reason
        /// Tells this message apart from another with the same reason.
        var serial: Int
    }

    struct Script {
        var products = [FakeProduct(id: "coins", type: .consumable), FakeProduct(id: "pro", type: .nonConsumable)]
        var productsFailure: StoreKitFailure?
        var purchases: [Result<StoreKitPurchaseResult<FakeTransaction>, StoreKitFailure>] = []
        var purchaseRequests: [PaymentRequest] = []
        /// The UI contexts the offer code sheet was asked for with, and what asking throws.
        var offerCodeSheets: [UIContext?] = []
        var offerCodeSheetFailure: StoreKitFailure?
        /// The refund requests StoreKit was asked for, and how its sheet answers them.
        var refundRequests: [(transactionID: UInt64, uiContext: UIContext?)] = []
        var refundAnswer: Result<StoreKitRefundRequestStatus, StoreKitFailure> = .success(.success)
        /// The manage subscriptions sheets StoreKit was asked for, and what asking throws.
        var manageSubscriptionsSheets: [UIContext?] = []
        var manageSubscriptionsFailure: StoreKitFailure?
        var unfinished: [StoreKitVerified<FakeTransaction>] = []
        var entitlements: [StoreKitVerified<FakeTransaction>] = []
        var syncFailure: StoreKitFailure?
        var finished: [UInt64] = []
        var storefront: String? = "FRA"
        var statuses: [StoreKitSubscriptionStatus<FakeTransaction>] = []
        /// What the next reads of a status throw, one each (offline), and how many reads there were.
        var statusFailures: [StoreKitFailure] = []
        var statusReads = 0
        var appTransaction: Result<StoreKitVerified<StoreKitAppTransaction>, StoreKitFailure> = .success(.verified(ScriptedStoreKit.sampleAppTransaction))
        /// The messages StoreKit was asked to display, with their UI contexts, and what asking throws.
        var displayed: [(message: FakeMessage, uiContext: UIContext?)] = []
        var displayFailure: StoreKitFailure?
        /// How long showing a message takes (StoreKit's sheet is not shown in an instant).
        var displayTime: TimeInterval = 0
        /// False plays macOS or tvOS, where StoreKit has no `Message`.
        var hasMessages = true
        /// The groups whose introductory offer the user had (`isEligibleForIntroOffer(for:)` answers false), and the
        /// groups asked about.
        var introOfferUsedGroups: Set<String> = []
        var introEligibilityAsked: [String] = []
        /// What `Transaction.all` lists.
        var all: [StoreKitVerified<FakeTransaction>] = []
        /// Whether reading `Transaction.all` never ends (until the read is cancelled).
        var allHangs = false
    }

    let script = Locked(Script())
    private let stream: AsyncStream<StoreKitVerified<FakeTransaction>>
    private let sink: AsyncStream<StoreKitVerified<FakeTransaction>>.Continuation
    private let intents: AsyncStream<StoreKitPurchaseIntent<FakeProduct>>
    private let intentSink: AsyncStream<StoreKitPurchaseIntent<FakeProduct>>.Continuation

    private let messageStream: AsyncStream<FakeMessage>
    private let messageSink: AsyncStream<FakeMessage>.Continuation
    private let storefronts: AsyncStream<String>
    private let storefrontSink: AsyncStream<String>.Continuation
    private let statuses: AsyncStream<StoreKitSubscriptionStatus<FakeTransaction>>
    private let statusSink: AsyncStream<StoreKitSubscriptionStatus<FakeTransaction>>.Continuation

    init() {
        (stream, sink) = AsyncStream.makeStream()
        (intents, intentSink) = AsyncStream.makeStream()
        (messageStream, messageSink) = AsyncStream.makeStream()
        (storefronts, storefrontSink) = AsyncStream.makeStream()
        (statuses, statusSink) = AsyncStream.makeStream()
    }

    /// What `Product.SubscriptionInfo.Status.updates` sends next.
    func sendStatus(_ status: StoreKitSubscriptionStatus<FakeTransaction>) { statusSink.yield(status) }

    func subscriptionStatusUpdates() -> AsyncStream<StoreKitSubscriptionStatus<FakeTransaction>> { statuses }

    /// What `Message.messages` sends next.
    func sendMessage(_ message: FakeMessage) { messageSink.yield(message) }

    /// What `Storefront.updates` sends next.
    func sendStorefront(_ countryCode: String) { storefrontSink.yield(countryCode) }

    func messages() -> AsyncStream<FakeMessage> { messageStream }
    var hasMessages: Bool { script.withLock { $0.hasMessages } }
    func storefrontUpdates() -> AsyncStream<String> { storefronts }

    func display(_ message: FakeMessage, uiContext: UIContext?) throws(StoreKitFailure) {
        Thread.sleep(forTimeInterval: script.withLock { $0.displayTime })
        try script.withLock { script throws(StoreKitFailure) in
            if let failure = script.displayFailure { throw failure }
            script.displayed.append((message, uiContext))
        }
    }

    /// A purchase the user starts in the App Store, with the offer chosen there (`PurchaseIntent.offer`).
    func sendIntent(_ product: FakeProduct, offer: TransactionOffer? = nil) {
        intentSink.yield(StoreKitPurchaseIntent(product: product, offer: offer))
    }

    func storefrontCountryCode() async -> String? { script.withLock { $0.storefront } }

    func subscriptionStatuses(groupID: String) async throws(StoreKitFailure) -> [StoreKitSubscriptionStatus<FakeTransaction>] {
        try script.withLock { script throws(StoreKitFailure) in
            script.statusReads += 1
            if !script.statusFailures.isEmpty { throw script.statusFailures.removeFirst() }
            return script.statuses
        }
    }

    func isEligibleForIntroOffer(groupID: String) async -> Bool {
        script.withLock { script in
            script.introEligibilityAsked.append(groupID)
            return !script.introOfferUsedGroups.contains(groupID)
        }
    }

    func allTransactions() async -> [StoreKitVerified<FakeTransaction>] {
        if script.withLock({ $0.allHangs }) {
            while !Task.isCancelled { try? await Task.sleep(for: .seconds(60)) }
        }
        return script.withLock { $0.all }
    }

    func purchaseIntents() -> AsyncStream<StoreKitPurchaseIntent<FakeProduct>> { intents }

    func appTransaction() async throws(StoreKitFailure) -> StoreKitVerified<StoreKitAppTransaction> {
        try script.withLock { $0.appTransaction }.get()
    }

    /// An app first bought at version 1.0, now at 2.1, as the sandbox signs it.
    static let sampleAppTransaction = StoreKitAppTransaction(
        appID: nil, appVersion: "2.1", appVersionID: nil, bundleID: "com.example.game", environment: "Sandbox",
        originalAppVersion: "1.0", originalPurchaseDate: Date(timeIntervalSince1970: 1_600_000_000), preorderDate: nil,
        deviceVerification: Data([1, 2, 3]), deviceVerificationNonce: UUID(uuidString: "48C8B92D-CE0D-4229-BEDF-E61B4F9CFC92")!,
        signedDate: Date(timeIntervalSince1970: 1_767_225_600), appTransactionID: "704289572311459405", originalPlatform: "iOS",
        jwsRepresentation: "header.app-transaction.signature")

    /// What `Transaction.updates` reports next.
    func sendUpdate(_ update: StoreKitVerified<FakeTransaction>) { sink.yield(update) }

    static func transaction(_ id: UInt64, _ product: String, _ type: ProductType = .consumable) -> FakeTransaction {
        FakeTransaction(id: id, originalID: id, productID: product, productType: type)
    }

    /// A JWS of transaction `id` signed at `signedDate` (milliseconds since 1970), as the App Store's payload says it;
    /// the signature is no real one (StoreKit's verdict is scripted).
    static func signedCopy(of id: UInt64, at signedDate: Int) -> String {
        let payload = Data("{\"transactionId\":\"\(id)\",\"signedDate\":\(signedDate)}".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return "header.\(payload).signature"
    }

    func products(for ids: [String]) async throws(StoreKitFailure) -> [FakeProduct] {
        let (products, failure) = script.withLock { ($0.products, $0.productsFailure) }
        if let failure { throw failure }
        return products.filter { ids.contains($0.id) }
    }

    func purchase(_ product: FakeProduct, quantity: Int, appAccountToken: UUID?, promotionalOffer: SignedPromotionalOffer?,
                  promotionalOfferJWS: PromotionalOfferJWS?, introductoryOfferEligibilityJWS: String?,
                  winBackOfferID: String?, uiContext: UIContext?) async throws(StoreKitFailure) -> StoreKitPurchaseResult<FakeTransaction> {
        let next = script.withLock { script in
            script.purchaseRequests.append(PaymentRequest(productID: product.id, quantity: quantity, appAccountToken: appAccountToken,
                                                          promotionalOffer: promotionalOffer, uiContext: uiContext,
                                                          winBackOfferID: winBackOfferID, promotionalOfferJWS: promotionalOfferJWS,
                                                          introductoryOfferEligibilityJWS: introductoryOfferEligibilityJWS))
            return script.purchases.isEmpty ? nil : script.purchases.removeFirst()
        }
        guard let next else { throw .unknown }
        return try next.get()
    }

    func transactionUpdates() -> AsyncStream<StoreKitVerified<FakeTransaction>> { stream }
    func unfinishedTransactions() async -> [StoreKitVerified<FakeTransaction>] { script.withLock { $0.unfinished } }
    func currentEntitlements() async -> [StoreKitVerified<FakeTransaction>] { script.withLock { $0.entitlements } }

    func sync() async throws(StoreKitFailure) {
        if let failure = script.withLock({ $0.syncFailure }) { throw failure }
    }

    func finish(transactionID: UInt64) async { script.withLock { $0.finished.append(transactionID) } }

    func presentOfferCodeRedeemSheet(uiContext: UIContext?) throws(StoreKitFailure) {
        try script.withLock { script throws(StoreKitFailure) in
            script.offerCodeSheets.append(uiContext)
            if let failure = script.offerCodeSheetFailure { throw failure }
        }
    }

    func beginRefundRequest(transactionID: UInt64, uiContext: UIContext?) async throws(StoreKitFailure) -> StoreKitRefundRequestStatus {
        try script.withLock { script in
            script.refundRequests.append((transactionID, uiContext))
            return script.refundAnswer
        }.get()
    }

    func showManageSubscriptions(uiContext: UIContext?) async throws(StoreKitFailure) {
        try script.withLock { script throws(StoreKitFailure) in
            script.manageSubscriptionsSheets.append(uiContext)
            if let failure = script.manageSubscriptionsFailure { throw failure }
        }
    }

    var canMakePayments: Bool { true }
}
