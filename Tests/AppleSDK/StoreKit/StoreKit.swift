// A declarations-only `StoreKit` for Linux: exactly the StoreKit 2 API that Sources/IOSiAPStoreKit/Live uses,
// so that scripts/check-storekit.sh type-checks LiveStoreKit.swift against StoreKit's real signatures without
// an Apple SDK. Nothing here runs: every body is `fatalError()`. It must never be built where the real StoreKit
// exists (a module named `StoreKit` would shadow Apple's framework): it is a SwiftPM target only in the Apple
// graph, a configuration Package.swift has on Linux only with IOSIAP_APPLE_GRAPH=1 (scripts/check-apple-graph.sh),
// where it is linked into libiosiap as iOS's StoreKit.
//
// Sources (transcribed by us, declarations only; no SDK code bodies are copied):
// - The iOS 18.0 SDK's interface text, as published in the GitHub repository xybp888/iOS-SDKs, path
//   iPhoneOS18.0.sdk/System/Library/Frameworks/StoreKit.framework/Modules/StoreKit.swiftmodule/arm64-apple-ios.swiftinterface
//   (commit 88fdca9de873f60303011685188c9415d4ebff0a; swift-compiler-version 6.0, -enable-library-evolution).
//   Every declaration below comes from it, with its `@available` lines, except:
// - `StoreKitError.unsupported` (iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4): Apple's
//   documentation, https://developer.apple.com/documentation/storekit/storekiterror/unsupported
// - `Product.purchase(confirmIn: UIViewController, options:)` (iOS 18.2, tvOS 18.2, macCatalyst 18.2,
//   visionOS 2.2): Apple's documentation,
//   https://developer.apple.com/documentation/storekit/product/purchase(confirmin:options:)-3bivf
// - `Product.purchase(confirmIn: NSWindow, options:)` (macOS 15.2): Apple's documentation page of the same
//   name, listed under Product's "Purchasing a product" beside the UIScene and UIViewController forms.
// - `@MainActor` on `purchase(options:)` and `purchase(confirmIn: some UIScene, options:)`: the iOS 18.0
//   interface has no attribute on them; Apple's current documentation declares both `@MainActor`
//   (https://developer.apple.com/documentation/storekit/product/purchase(options:) and
//   .../purchase(confirmin:options:)-6dj6y). The stub takes the stricter, newer form, so LiveStoreKit must
//   compile against either; the UIViewController and NSWindow forms are documented without it.
// The UIKit classes (UIScene, UIViewController) and AppKit's NSWindow come from the stubs beside this one
// (Tests/AppleSDK/UIKit, Tests/AppleSDK/AppKit): UIKit is imported in the iOS, tvOS and visionOS
// configurations, AppKit in the macOS one, as StoreKit's own interface imports them.
//
// Kinds are kept: what is a struct, enum or frozen enum in the SDK is one here, and the module is built with
// -enable-library-evolution, so a `switch` over a non-frozen enum (StoreKitError, Product.PurchaseError,
// Product.PurchaseResult, VerificationResult.VerificationError, SubscriptionPeriod.Unit) needs `@unknown default`
// as it does against Apple's binary module.
//
// Platforms: Linux ignores `@available(iOS ...)` versions, so each platform's *unavailable* declarations are
// made unavailable here by a compilation condition that scripts/check-storekit.sh sets per configuration
// (IOSIAP_STOREKIT_CHECK_MACOS, _TVOS, _VISIONOS; none for iOS). Versions (`introduced:`) are NOT checked on
// Linux: an API newer than the deployment target used without `#available` is not caught here.
//
// Omitted on purpose: stored properties the interface marks `internal`/`@usableFromInline` (`backing`, …),
// conformances LiveStoreKit does not rely on (CustomDebugStringConvertible, LocalizedError, …), and
// `@_implements(... Failure)` typealiases (the compiler infers `Failure == Never` from `next()`).

import Foundation
#if IOSIAP_STOREKIT_CHECK_MACOS
import AppKit
#else
import UIKit
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking  // URLError lives here on Linux
#endif

/// The value of a stored `static let` the interface declares without its value: never run.
func unimplemented<T>() -> T { fatalError("the StoreKit stub only type-checks; it never runs") }

// MARK: - Product

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public struct Product: Identifiable {
    public struct ProductType: RawRepresentable, Equatable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { fatalError() }
        public static let consumable: Product.ProductType = unimplemented()
        public static let nonConsumable: Product.ProductType = unimplemented()
        public static let nonRenewable: Product.ProductType = unimplemented()
        public static let autoRenewable: Product.ProductType = unimplemented()
        @available(iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, macOS 12.0, *)
        public typealias RawValue = String
    }

    public let id: String
    public let type: Product.ProductType
    public let displayName: String
    public let description: String
    public let price: Decimal
    public let displayPrice: String
    public let isFamilyShareable: Bool
    public let subscription: Product.SubscriptionInfo?
    @available(iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, macOS 12.0, *)
    public typealias ID = String
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product: Equatable {
    public static func == (lhs: Product, rhs: Product) -> Bool { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product: Hashable {
    public func hash(into hasher: inout Hasher) { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.ProductType: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    public enum PurchaseResult {
        case success(VerificationResult<Transaction>)
        case userCancelled
        case pending
    }

    public enum PurchaseError: Error {
        case invalidQuantity
        case productUnavailable
        case purchaseNotAllowed
        case ineligibleForOffer
        case invalidOfferIdentifier
        case invalidOfferPrice
        case invalidOfferSignature
        case missingOfferParameters
    }

    #if IOSIAP_STOREKIT_CHECK_VISIONOS
    @available(*, unavailable, message: "Use @Environment(\\.purchase) to get a PurchaseAction value to call. If your app uses UIKit, use purchase(confirmIn:options:).")
    #endif
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
    @available(visionOS, unavailable, message: "Use @Environment(\\.purchase) to get a PurchaseAction value to call. If your app uses UIKit, use purchase(confirmIn:options:).")
    @MainActor public func purchase(options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult { fatalError() }
}

#if !IOSIAP_STOREKIT_CHECK_MACOS
@available(iOS 17.0, tvOS 17.0, macCatalyst 17.0, visionOS 1.0, *)
extension Product {
    @available(iOS 17.0, tvOS 17.0, macCatalyst 17.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor public func purchase(confirmIn scene: some UIScene, options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult {
        fatalError()
    }

    // Not in the iOS 18.0 interface: Apple's documentation (see the header).
    @available(iOS 18.2, tvOS 18.2, macCatalyst 18.2, visionOS 2.2, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    public func purchase(confirmIn viewController: UIViewController, options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult {
        fatalError()
    }
}
#else
extension Product {
    // Not in the iOS 18.0 interface: Apple's documentation (see the header).
    @available(macOS 15.2, *)
    public func purchase(confirmIn window: NSWindow, options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult {
        fatalError()
    }
}
#endif

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.PurchaseError: Equatable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.PurchaseError: Hashable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.PurchaseResult: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    public static func products<Identifiers>(for identifiers: Identifiers) async throws -> [Product]
        where Identifiers: Collection, Identifiers.Element == String { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, macCatalyst 15.0, visionOS 1.0, *)
    public var priceFormatStyle: Decimal.FormatStyle.Currency { fatalError() }
}

// MARK: - Product.PurchaseOption

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    public struct PurchaseOption: Equatable, Hashable {
        public static func appAccountToken(_ token: UUID) -> Product.PurchaseOption { fatalError() }
        public static func quantity(_ quantity: Int) -> Product.PurchaseOption { fatalError() }
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public static func winBackOffer(_ offer: Product.SubscriptionOffer) -> Product.PurchaseOption { fatalError() }
        public static func == (a: Product.PurchaseOption, b: Product.PurchaseOption) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.PurchaseOption: Sendable {}

extension Product.PurchaseOption {
    @available(iOS 17.4, macOS 14.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
    public static func promotionalOffer(offerID: String, signature: Product.SubscriptionOffer.Signature) -> Product.PurchaseOption {
        fatalError()
    }
}

// MARK: - Product.SubscriptionPeriod

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    public struct SubscriptionPeriod: Equatable, Hashable {
        public enum Unit: Equatable, Hashable {
            case day
            case week
            case month
            case year
        }

        public let unit: Product.SubscriptionPeriod.Unit
        public let value: Int
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionPeriod: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionPeriod.Unit: Sendable {}

// MARK: - Product.SubscriptionOffer

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    public struct SubscriptionOffer: Equatable, Hashable {
        public struct OfferType: RawRepresentable, Equatable, Hashable {
            public let rawValue: String
            public init(rawValue: String) { fatalError() }
            public static let introductory: Product.SubscriptionOffer.OfferType = unimplemented()
            public static let promotional: Product.SubscriptionOffer.OfferType = unimplemented()
            @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
            public static let winBack: Product.SubscriptionOffer.OfferType = unimplemented()
            @available(iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, macOS 12.0, *)
            public typealias RawValue = String
        }

        public struct PaymentMode: RawRepresentable, Equatable, Hashable {
            public let rawValue: String
            public init(rawValue: String) { fatalError() }
            public static let payAsYouGo: Product.SubscriptionOffer.PaymentMode = unimplemented()
            public static let payUpFront: Product.SubscriptionOffer.PaymentMode = unimplemented()
            public static let freeTrial: Product.SubscriptionOffer.PaymentMode = unimplemented()
            @available(iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, macOS 12.0, *)
            public typealias RawValue = String
        }

        public let id: String?
        public let type: Product.SubscriptionOffer.OfferType
        public let price: Decimal
        public let displayPrice: String
        public let period: Product.SubscriptionPeriod
        public let periodCount: Int
        public let paymentMode: Product.SubscriptionOffer.PaymentMode
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionOffer: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionOffer.OfferType: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionOffer.PaymentMode: Sendable {}

extension Product.SubscriptionOffer {
    @available(iOS 17.4, macOS 14.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
    public struct Signature: Equatable, Hashable, Sendable {
        public var keyID: String
        public var nonce: UUID
        public var timestamp: Int
        public var signature: Data
        public init(keyID: String, nonce: UUID, timestamp: Int, signature: Data) { fatalError() }
    }
}

// MARK: - Product.SubscriptionInfo

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    public struct SubscriptionInfo: Equatable, Hashable {
        public let introductoryOffer: Product.SubscriptionOffer?
        public let promotionalOffers: [Product.SubscriptionOffer]
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public let winBackOffers: [Product.SubscriptionOffer]
        public let subscriptionGroupID: String
        public let subscriptionPeriod: Product.SubscriptionPeriod
        public static func isEligibleForIntroOffer(for groupID: String) async -> Bool { fatalError() }
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo: Sendable {}

@available(iOS 16.4, macOS 13.3, tvOS 16.4, watchOS 9.4, *)
extension Product.SubscriptionInfo {
    @available(iOS 16.4, macOS 13.3, tvOS 16.4, watchOS 9.4, visionOS 1.0, *)
    public var groupLevel: Int { fatalError() }
    @available(iOS 16.4, macOS 13.3, tvOS 16.4, watchOS 9.4, visionOS 1.0, *)
    public var groupDisplayName: String { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo {
    public struct RenewalState: RawRepresentable, Equatable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { fatalError() }
        public static let subscribed: Product.SubscriptionInfo.RenewalState = unimplemented()
        public static let expired: Product.SubscriptionInfo.RenewalState = unimplemented()
        public static let inBillingRetryPeriod: Product.SubscriptionInfo.RenewalState = unimplemented()
        public static let inGracePeriod: Product.SubscriptionInfo.RenewalState = unimplemented()
        public static let revoked: Product.SubscriptionInfo.RenewalState = unimplemented()
        @available(iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, macOS 12.0, *)
        public typealias RawValue = Int
    }

    public struct RenewalInfo {
        public struct ExpirationReason: RawRepresentable, Equatable, Hashable {
            public let rawValue: Int
            public init(rawValue: Int) { fatalError() }
            public static let autoRenewDisabled: Product.SubscriptionInfo.RenewalInfo.ExpirationReason = unimplemented()
            public static let billingError: Product.SubscriptionInfo.RenewalInfo.ExpirationReason = unimplemented()
            public static let didNotConsentToPriceIncrease: Product.SubscriptionInfo.RenewalInfo.ExpirationReason = unimplemented()
            public static let productUnavailable: Product.SubscriptionInfo.RenewalInfo.ExpirationReason = unimplemented()
            public static let unknown: Product.SubscriptionInfo.RenewalInfo.ExpirationReason = unimplemented()
            @available(iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, macOS 12.0, *)
            public typealias RawValue = Int
        }
        public let originalTransactionID: UInt64
        public let currentProductID: String
        public let willAutoRenew: Bool
        public let autoRenewPreference: String?
        public let expirationReason: Product.SubscriptionInfo.RenewalInfo.ExpirationReason?
        public let isInBillingRetry: Bool
        public let gracePeriodExpirationDate: Date?
    }

    public struct Status: Equatable, Hashable {
        public let state: Product.SubscriptionInfo.RenewalState
        public let transaction: VerificationResult<Transaction>
        public let renewalInfo: VerificationResult<Product.SubscriptionInfo.RenewalInfo>
        public static func == (a: Product.SubscriptionInfo.Status, b: Product.SubscriptionInfo.Status) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
    }

    public static func status(for groupID: String) async throws -> [Product.SubscriptionInfo.Status] { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo.RenewalInfo: Equatable {
    public static func == (lhs: Product.SubscriptionInfo.RenewalInfo, rhs: Product.SubscriptionInfo.RenewalInfo) -> Bool { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo.RenewalInfo: Hashable {
    public func hash(into hasher: inout Hasher) { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo.RenewalState: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo.Status: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo.RenewalInfo: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo.RenewalInfo.ExpirationReason: Sendable {}

// MARK: - VerificationResult

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
@frozen public enum VerificationResult<SignedType> {
    case unverified(SignedType, VerificationResult<SignedType>.VerificationError)
    case verified(SignedType)

    public var payloadValue: SignedType { get throws { fatalError() } }
    public var unsafePayloadValue: SignedType { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult {
    public enum VerificationError: Error {
        case revokedCertificate
        case invalidCertificateChain
        case invalidDeviceVerification
        case invalidEncoding
        case invalidSignature
        case missingRequiredProperties
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult: Equatable where SignedType: Equatable {
    public static func == (a: VerificationResult<SignedType>, b: VerificationResult<SignedType>) -> Bool { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult: Hashable where SignedType: Hashable {
    public func hash(into hasher: inout Hasher) { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult: Sendable where SignedType: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult.VerificationError: Equatable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult.VerificationError: Hashable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult where SignedType == Transaction {
    public var jwsRepresentation: String { fatalError() }
}

@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
extension VerificationResult where SignedType == AppTransaction {
    public var jwsRepresentation: String { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult where SignedType == Product.SubscriptionInfo.RenewalInfo {
    public var jwsRepresentation: String { fatalError() }
}

// MARK: - AppTransaction

@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
public struct AppTransaction: Sendable {
    public var jsonRepresentation: Data { fatalError() }
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
    public static var shared: VerificationResult<AppTransaction> { get async throws { fatalError() } }
    public static func refresh() async throws -> VerificationResult<AppTransaction> { fatalError() }
}

// MARK: - Transaction

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public struct Transaction: Identifiable {
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    public struct Reason: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { fatalError() }
        public static let purchase: Transaction.Reason = unimplemented()
        public static let renewal: Transaction.Reason = unimplemented()
        @available(iOS 17.0, tvOS 17.0, watchOS 10.0, macOS 14.0, *)
        public typealias RawValue = String
    }

    public struct RevocationReason: RawRepresentable, Equatable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { fatalError() }
        public static let developerIssue: Transaction.RevocationReason = unimplemented()
        public static let other: Transaction.RevocationReason = unimplemented()
        @available(iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, macOS 12.0, *)
        public typealias RawValue = Int
    }

    public struct OfferType: RawRepresentable, Equatable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { fatalError() }
        public static let introductory: Transaction.OfferType = unimplemented()
        public static let promotional: Transaction.OfferType = unimplemented()
        public static let code: Transaction.OfferType = unimplemented()
        // Back-deployed in the SDK (`@backDeployed(before: iOS 18.0, ...)`), hence usable from iOS 15.
        @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
        public static var winBack: Transaction.OfferType { fatalError() }
        @available(iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, macOS 12.0, *)
        public typealias RawValue = Int
    }

    public struct OwnershipType: RawRepresentable, Equatable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { fatalError() }
        public static let purchased: Transaction.OwnershipType = unimplemented()
        public static let familyShared: Transaction.OwnershipType = unimplemented()
        @available(iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, macOS 12.0, *)
        public typealias RawValue = String
    }

    @available(iOS 17.2, macOS 14.2, tvOS 17.2, watchOS 10.2, visionOS 1.1, *)
    public struct Offer: Equatable, Hashable, Sendable {
        public struct PaymentMode: RawRepresentable, Equatable, Hashable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { fatalError() }
            public static let freeTrial: Transaction.Offer.PaymentMode = unimplemented()
            public static let payAsYouGo: Transaction.Offer.PaymentMode = unimplemented()
            public static let payUpFront: Transaction.Offer.PaymentMode = unimplemented()
            @available(iOS 17.2, tvOS 17.2, watchOS 10.2, visionOS 1.1, macOS 14.2, *)
            public typealias RawValue = String
        }

        public let id: String?
        public let type: Transaction.OfferType
        public let paymentMode: Transaction.Offer.PaymentMode?
    }

    public let id: UInt64
    public let originalID: UInt64
    public let productID: String
    public let subscriptionGroupID: String?
    public let purchaseDate: Date
    public let originalPurchaseDate: Date
    public let expirationDate: Date?
    public let purchasedQuantity: Int
    @available(iOS 17.2, macOS 14.2, tvOS 17.2, watchOS 10.2, visionOS 1.1, *)
    public let offer: Transaction.Offer?
    public let revocationDate: Date?
    public let revocationReason: Transaction.RevocationReason?
    public let productType: Product.ProductType
    public let appAccountToken: UUID?
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
    public let environment: AppStore.Environment
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    public let reason: Transaction.Reason
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    public let storefront: Storefront
    public let ownershipType: Transaction.OwnershipType
    public let signedDate: Date
    public func finish() async { fatalError() }
    @available(iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, macOS 12.0, *)
    public typealias ID = UInt64
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Transaction: Equatable {
    public static func == (lhs: Transaction, rhs: Transaction) -> Bool { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Transaction: Hashable {
    public func hash(into hasher: inout Hasher) { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Transaction {
    public struct Transactions: AsyncSequence {
        public typealias Element = VerificationResult<Transaction>
        public struct AsyncIterator: AsyncIteratorProtocol {
            public mutating func next() async -> VerificationResult<Transaction>? { fatalError() }
            @available(iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, macOS 12.0, *)
            public typealias Element = VerificationResult<Transaction>
        }
        public func makeAsyncIterator() -> Transaction.Transactions.AsyncIterator { fatalError() }
    }

    public static var all: Transaction.Transactions { fatalError() }
    public static var currentEntitlements: Transaction.Transactions { fatalError() }
    public static var unfinished: Transaction.Transactions { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Transaction {
    public static var updates: Transaction.Transactions { fatalError() }
}

// Refund requests. The error and status exist on macOS (12.0) and on tvOS from 17.0; the sheet takes a
// UIWindowScene and is unavailable on tvOS (the macOS stub has no UIKit: there StoreKit's sheet takes an
// NSViewController, which LiveStoreKit does not use).
@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction {
    @available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    public enum RefundRequestError: Error {
        case duplicateRequest
        case failed
    }

    @available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    public enum RefundRequestStatus {
        case success
        case userCancelled
    }
}

@available(iOS 15.0, macCatalyst 15.0, tvOS 17.0, macOS 12.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestError: Sendable {}

@available(iOS 15.0, macCatalyst 15.0, tvOS 17.0, macOS 12.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestStatus: Sendable {}

#if !IOSIAP_STOREKIT_CHECK_MACOS
#if IOSIAP_STOREKIT_CHECK_TVOS
@available(*, unavailable)
#endif
@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction {
    @available(iOS 15.0, macCatalyst 15.0, visionOS 1.0, *)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    @MainActor public static func beginRefundRequest(for transactionID: UInt64, in scene: UIWindowScene) async throws
        -> Transaction.RefundRequestStatus { fatalError() }
}
#endif

@available(iOS 15.0, macCatalyst 15.0, tvOS 15.0, macOS 12.0, watchOS 8.0, visionOS 1.0, *)
extension Transaction: Sendable {}

@available(iOS 15.0, macCatalyst 15.0, tvOS 15.0, macOS 12.0, watchOS 8.0, visionOS 1.0, *)
extension Transaction.RevocationReason: Sendable {}

@available(iOS 15.0, macCatalyst 15.0, tvOS 15.0, macOS 12.0, watchOS 8.0, visionOS 1.0, *)
extension Transaction.OfferType: Sendable {}

@available(iOS 15.0, macCatalyst 15.0, tvOS 15.0, macOS 12.0, watchOS 8.0, visionOS 1.0, *)
extension Transaction.OwnershipType: Sendable {}

@available(iOS 15.0, macCatalyst 15.0, tvOS 15.0, macOS 12.0, watchOS 8.0, visionOS 1.0, *)
extension Transaction.Transactions: Sendable {}

// MARK: - Storefront

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public struct Storefront: Identifiable, Sendable {
    public let countryCode: String
    public let id: String
    public static var current: Storefront? { get async { fatalError() } }
    @available(iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, macOS 12.0, *)
    public typealias ID = String
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Storefront {
    public struct Storefronts: AsyncSequence, Sendable {
        public typealias Element = Storefront
        public struct AsyncIterator: AsyncIteratorProtocol {
            public mutating func next() async -> Storefront? { fatalError() }
        }
        public func makeAsyncIterator() -> Storefront.Storefronts.AsyncIterator { fatalError() }
    }

    public static var updates: Storefront.Storefronts { fatalError() }
}

// MARK: - AppStore

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public enum AppStore {
    public static var canMakePayments: Bool { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension AppStore {
    public static func sync() async throws { fatalError() }
}

#if !IOSIAP_STOREKIT_CHECK_MACOS
#if IOSIAP_STOREKIT_CHECK_TVOS
@available(*, unavailable)
#endif
@available(iOS 15.0, macCatalyst 15.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@available(tvOS, unavailable)
extension AppStore {
    @available(iOS 15.0, macCatalyst 15.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    @MainActor public static func showManageSubscriptions(in scene: UIWindowScene) async throws { fatalError() }
}
#endif

#if !IOSIAP_STOREKIT_CHECK_MACOS
#if IOSIAP_STOREKIT_CHECK_TVOS
@available(*, unavailable)
#endif
extension AppStore {
    @available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    @MainActor public static func presentOfferCodeRedeemSheet(in scene: UIWindowScene) async throws { fatalError() }
}
#endif

@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
extension AppStore {
    public struct Environment: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { fatalError() }
        public static let production: AppStore.Environment = unimplemented()
        public static let sandbox: AppStore.Environment = unimplemented()
        public static let xcode: AppStore.Environment = unimplemented()
        @available(iOS 16.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, macOS 13.0, *)
        public typealias RawValue = String
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension AppStore: Sendable {}

// MARK: - StoreKitError

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public enum StoreKitError: Error {
    case unknown
    case userCancelled
    case networkError(URLError)
    case systemError(any Error)
    case notAvailableInStorefront
    @available(iOS 15.4, macOS 12.3, tvOS 15.4, watchOS 8.5, visionOS 1.0, *)
    case notEntitled
    // Not in the iOS 18.0 interface: Apple's documentation (see the header).
    @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
    case unsupported
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension StoreKitError: Sendable {}

// MARK: - PurchaseIntent

#if IOSIAP_STOREKIT_CHECK_TVOS || IOSIAP_STOREKIT_CHECK_VISIONOS
@available(*, unavailable)
#endif
@available(iOS 16.4, macOS 14.4, macCatalyst 16.4, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
public struct PurchaseIntent: Equatable, Identifiable, Sendable {
    public let product: Product
    @available(iOS 18.0, macOS 15.0, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @available(visionOS, unavailable)
    public let offer: Product.SubscriptionOffer?
    public var id: Product.ID { fatalError() }
    public static func == (a: PurchaseIntent, b: PurchaseIntent) -> Bool { fatalError() }
}

#if IOSIAP_STOREKIT_CHECK_TVOS || IOSIAP_STOREKIT_CHECK_VISIONOS
@available(*, unavailable)
#endif
@available(iOS 16.4, macOS 14.4, macCatalyst 16.4, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
extension PurchaseIntent {
    public struct PurchaseIntents: AsyncSequence {
        public typealias Element = PurchaseIntent
        public struct AsyncIterator: AsyncIteratorProtocol {
            public mutating func next() async -> PurchaseIntent.PurchaseIntents.Element? { fatalError() }
        }
        public func makeAsyncIterator() -> PurchaseIntent.PurchaseIntents.AsyncIterator { fatalError() }
    }

    public static var intents: PurchaseIntent.PurchaseIntents { fatalError() }
}

// MARK: - Message (iOS and visionOS only: unavailable on macOS, tvOS and watchOS)

#if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
@available(*, unavailable)
#endif
@available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public struct Message: Sendable {
    public let reason: Message.Reason
    @available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    public struct Reason: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { fatalError() }
        public static let generic: Message.Reason = unimplemented()
        public static let priceIncreaseConsent: Message.Reason = unimplemented()
        @available(iOS 16.4, macCatalyst 16.4, visionOS 1.0, *)
        @available(macOS, unavailable)
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
        public static let billingIssue: Message.Reason = unimplemented()
        @available(iOS 18.0, macCatalyst 18.0, visionOS 2.0, *)
        @available(macOS, unavailable)
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
        public static let winBackOffer: Message.Reason = unimplemented()
        @available(iOS 16.0, visionOS 1.0, macCatalyst 16.0, *)
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
        @available(macOS, unavailable)
        public typealias RawValue = Int
    }
}

#if !IOSIAP_STOREKIT_CHECK_MACOS
#if IOSIAP_STOREKIT_CHECK_TVOS
@available(*, unavailable)
#endif
@available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
extension Message {
    @MainActor public func display(in scene: UIWindowScene) throws { fatalError() }
}
#endif

#if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
@available(*, unavailable)
#endif
@available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
extension Message {
    public struct Messages: AsyncSequence, Sendable {
        public typealias Element = Message
        public struct AsyncIterator: AsyncIteratorProtocol {
            public mutating func next() async -> Message.Messages.Element? { fatalError() }
        }
        public func makeAsyncIterator() -> Message.Messages.AsyncIterator { fatalError() }
    }

    public static var messages: Message.Messages { fatalError() }
}
