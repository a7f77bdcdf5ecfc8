import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import UIKit

/// A signed value and whether StoreKit could verify it on the device ("VerificationResult").
public enum VerificationResult<SignedType: Sendable>: Sendable {
    case unverified(SignedType, VerificationError)
    case verified(SignedType)

    public enum VerificationError: Error, Sendable, Equatable, Hashable {
        case revokedCertificate
        case invalidCertificateChain
        case invalidDeviceVerification
        case invalidEncoding
        case invalidSignature
        case missingRequiredProperties
    }

    /// The value, whether verified or not ("VerificationResult.unsafePayloadValue": it "ignores any verification
    /// errors").
    public var unsafePayloadValue: SignedType {
        switch self {
        case .verified(let value), .unverified(let value, _): value
        }
    }

    /// The value if verified, else the reason it is not, thrown ("VerificationResult.payloadValue").
    public var payloadValue: SignedType {
        get throws {
            switch self {
            case .verified(let value): return value
            case .unverified(_, let error): throw error
            }
        }
    }
}

extension VerificationResult: Equatable where SignedType: Equatable {}
extension VerificationResult: Hashable where SignedType: Hashable {}

extension VerificationResult where SignedType == Product.SubscriptionInfo.RenewalInfo {
    /// The renewal info as the App Store signed it ("VerificationResult.jwsRepresentation"); empty when the local
    /// store signed none (Apple is silent: StoreKit always has one).
    public var jwsRepresentation: String { unsafePayloadValue.signedJWS }
}

extension VerificationResult where SignedType == AppTransaction {
    /// "The app transaction signed by the App Store, in JWS Compact Serialization format"
    /// ("VerificationResult.jwsRepresentation").
    public var jwsRepresentation: String { unsafePayloadValue.signedJWS }
}

/// StoreKit's errors ("StoreKitError").
public enum StoreKitError: Error, Sendable {
    case unknown
    case userCancelled
    case networkError(URLError)
    case systemError(any Error)
    case notAvailableInStorefront
    case notEntitled
    case unsupported
    case invalidPresentationContext
}

public enum AppStore {
    public struct Environment: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let production = Environment(rawValue: "Production")
        public static let sandbox = Environment(rawValue: "Sandbox")
        public static let xcode = Environment(rawValue: "Xcode")
    }

    /// Whether the user may make payments ("AppStore.canMakePayments"): the local store's answer; `false` when no
    /// store can be opened (Apple is silent there).
    public static var canMakePayments: Bool { (try? StandInAppStore.shared())?.local.canMakePayments ?? false }

    /// Syncs the device's transactions with the App Store, asking the user to sign in; one who dismisses that makes
    /// it throw `StoreKitError.userCancelled` ("AppStore.sync()"; here while `StoreKitStandIn.setSyncCancelled`
    /// says so). The local store's simulated App Store Sync error (`iosiap-store error set app-store-sync ...`)
    /// fails it as well.
    public static func sync() async throws {
        let store = try StandInAppStore.shared()
        if store.syncCancelled.withLock({ $0 }) { throw StoreKitError.userCancelled }
        do { _ = try await store.local.restore() } catch { throw storeKitError(error) }
    }

    /// The manage subscriptions sheet ("AppStore.showManageSubscriptions(in:)"): the local store's simulated sheet.
    @MainActor public static func showManageSubscriptions(in scene: UIWindowScene) async throws {
        let store = try StandInAppStore.shared()
        do { try await store.local.showManageSubscriptions(uiContext: nil) } catch { throw storeKitError(error) }
    }

    /// The offer code sheet ("AppStore.presentOfferCodeRedeemSheet(in:)"): a code redeemed there (the local store's
    /// `redeem-code` control) arrives through `Transaction.updates`.
    @MainActor public static func presentOfferCodeRedeemSheet(in scene: UIWindowScene) async throws {
        let store = try StandInAppStore.shared()
        do { try store.local.presentOfferCodeRedeemSheet(uiContext: nil) } catch { throw storeKitError(error) }
    }
}

/// The user's App Store country ("Storefront").
public struct Storefront: Identifiable, Sendable, Equatable, Hashable {
    public let countryCode: String
    /// "An Apple-defined value that uniquely identifies an App Store storefront" ("Storefront.id"): Apple's values
    /// are not in a `.storekit` file, so here it is the country code (Apple silent on the values; LiveStoreKit reads
    /// `countryCode` only).
    public var id: String { countryCode }

    init(countryCode: String) {
        self.countryCode = countryCode
    }

    /// The storefront in force ("Storefront.current"); `nil` when the store cannot say.
    public static var current: Storefront? {
        get async {
            guard let store = try? StandInAppStore.shared(), let code = try? await store.local.storefront() else { return nil }
            return Storefront(countryCode: code)
        }
    }

    public struct Storefronts: AsyncSequence, Sendable {
        public typealias Element = Storefront
        public typealias AsyncIterator = StandInListener<Storefront>
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator { $0.storefronts() } }
    }

    /// Each change of the user's storefront ("Storefront.updates").
    public static var updates: Storefronts { Storefronts() }
}

/// A purchase the user started in the App Store ("PurchaseIntent"), with the offer chosen there.
public struct PurchaseIntent: Equatable, Sendable {
    public let product: Product
    public let offer: Product.SubscriptionOffer?
    /// The product's id ("PurchaseIntent.id": "The product identifier of the Apple In-App Purchase that the customer
    /// selects").
    public var id: Product.ID { product.id }

    /// The win-back offer the user redeemed in the App Store, as the product's own offer; `nil` for none or any
    /// other type ("PurchaseIntent.offer": "The system populates this value if the customer redeems a winBack
    /// offer type outside of your app"; the local store's intents carry win-back offers only).
    init(product: Product, offerReference: TransactionOffer?) {
        self.product = product
        offer = offerReference.flatMap { reference in
            reference.type == .winBack ? product.subscription?.winBackOffers.first { $0.id == reference.id } : nil
        }
    }

    public struct PurchaseIntents: AsyncSequence, Sendable {
        public typealias Element = PurchaseIntent
        public typealias AsyncIterator = StandInListener<PurchaseIntent>
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator { $0.intents() } }
    }

    /// The purchases the user starts in the App Store while the app runs ("PurchaseIntent.intents").
    public static var intents: PurchaseIntents { PurchaseIntents() }
}

/// A message the App Store has for the user ("Message"): shown only when the app displays it, once it listens.
public struct Message: Sendable {
    public struct Reason: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let generic = Reason(rawValue: "generic")
        public static let priceIncreaseConsent = Reason(rawValue: "priceIncreaseConsent")
        public static let billingIssue = Reason(rawValue: "billingIssue")
        public static let winBackOffer = Reason(rawValue: "winBackOffer")
    }

    public let reason: Reason
    /// The local store's id of it, to display.
    let storeMessageID: String

    init(_ message: StoreMessage) {
        storeMessageID = message.id
        reason = switch message.reason {
        case .generic: .generic
        case .priceIncreaseConsent: .priceIncreaseConsent
        case .billingIssue: .billingIssue
        case .winBackOffer: .winBackOffer
        }
    }

    /// Shows the message's sheet ("Message.display(in:)"): the local store's simulated sheet.
    @MainActor public func display(in scene: UIWindowScene) throws {
        let store = try StandInAppStore.shared()
        do { try store.local.displayMessage(id: storeMessageID, uiContext: nil) } catch { throw storeKitError(error) }
    }

    public struct Messages: AsyncSequence, Sendable {
        public typealias Element = Message
        public typealias AsyncIterator = StandInListener<Message>
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator { $0.messages() } }
    }

    /// The App Store's messages, each kept from showing itself while the app listens ("Message.messages").
    public static var messages: Messages { Messages() }
}

/// The app's own signed purchase record ("AppTransaction").
public struct AppTransaction: Sendable, Equatable, Hashable {
    public let appID: UInt64?
    public let appVersion: String
    public let appVersionID: UInt64?
    public let bundleID: String
    public let environment: AppStore.Environment
    public let originalAppVersion: String
    public let originalPurchaseDate: Date
    public let preorderDate: Date?
    public let deviceVerification: Data
    public let deviceVerificationNonce: UUID
    public let signedDate: Date
    let signedJWS: String

    /// The signed payload's JSON ("AppTransaction.jsonRepresentation").
    public var jsonRepresentation: Data {
        let parts = signedJWS.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return Data() }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64) ?? Data()
    }

    /// The record, verified on the device ("AppTransaction.shared"). StoreKit may answer from a cached copy where
    /// `refresh()` asks the App Store; the local store is both, so the two are the same here (Apple is silent on
    /// when the cache is used).
    public static var shared: VerificationResult<AppTransaction> {
        get async throws { try await refresh() }
    }

    /// The record signed anew ("AppTransaction.refresh()").
    public static func refresh() async throws -> VerificationResult<AppTransaction> {
        let store = try StandInAppStore.shared()
        let app: StoreAppTransaction
        do { app = try await store.local.appTransaction() } catch { throw storeKitError(error) }
        let record = AppTransaction(
            appID: app.appID, appVersion: app.appVersion, appVersionID: app.appVersionID, bundleID: app.bundleID,
            environment: AppStore.Environment(rawValue: app.environment.rawValue), originalAppVersion: app.originalAppVersion,
            originalPurchaseDate: app.originalPurchaseDate, preorderDate: app.preorderDate,
            deviceVerification: app.deviceVerification.flatMap { Data(base64Encoded: $0) } ?? Data(),
            deviceVerificationNonce: app.deviceVerificationNonce ?? UUID(), signedDate: app.signedDate, signedJWS: app.signedJWS)
        return (try? store.verifier.verifyAppTransaction(app.signedJWS)) != nil ? .verified(record) : .unverified(record, .invalidSignature)
    }
}

/// The iterator of `Storefront.updates`, `PurchaseIntent.intents` and `Message.messages`: listens to the store in use
/// from its first `next()`; nothing when no store can be opened. Apple is silent on when a listener starts and on a
/// store that cannot be reached: the stand-in starts at the first `next()`, as a `for await` loop asks it.
public struct StandInListener<Element: Sendable>: AsyncIteratorProtocol {
    let listen: @Sendable (StandInAppStore) -> AsyncStream<Element>
    var stream: AsyncStream<Element>.AsyncIterator?

    init(_ listen: @escaping @Sendable (StandInAppStore) -> AsyncStream<Element>) {
        self.listen = listen
    }

    public mutating func next() async -> Element? {
        if stream == nil { stream = ((try? StandInAppStore.shared()).map(listen) ?? AsyncStream { $0.finish() }).makeAsyncIterator() }
        return await stream?.next()
    }
}
