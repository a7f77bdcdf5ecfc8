// A declarations-only `StoreKit` for Linux, transcribed from the oldest SDKs the package supports (deployment
// targets iOS 18.0, macOS 15.0, tvOS 18.0, visionOS 2.0): every public declaration of StoreKit's Swift overlay as
// the iOS 18.0 and macOS 15.0 SDKs declare it, and nothing newer. It is for scripts/check-storekit.sh to type-check
// Sources/IOSiAPStoreKit against, so that code which compiles here also compiles with the oldest SDKs the package
// supports (those of Xcode 16.0). Nothing here runs: every body is `fatalError()`. It must never be built where the
// real StoreKit exists (a module named `StoreKit` would shadow Apple's framework).
//
// Sources (transcribed by us, declarations only; no SDK code bodies and no Apple comments are copied):
// - iOS 18.0: GitHub repository xybp888/iOS-SDKs, commit 88fdca9de873f60303011685188c9415d4ebff0a, path
//   iPhoneOS18.0.sdk/System/Library/Frameworks/StoreKit.framework/Modules/StoreKit.swiftmodule/arm64-apple-ios.swiftinterface
//   (swift-compiler-version: Apple Swift version 6.0 effective-5.10 (swiftlang-6.0.0.7.24 clang-1600.0.25.1);
//   -user-module-version 814.0.59.2.3). tvOS and visionOS have no interface here: this one's `tvOS`/`visionOS`
//   attributes decide for them.
// - macOS 15.0: GitHub repository alexey-lysiuk/macos-sdk, commit cee99e5c64d8e62362331d3f6d911559ba56555d, path
//   MacOSX15.0.sdk/System/Library/Frameworks/StoreKit.framework/Versions/A/Modules/StoreKit.swiftmodule/arm64e-apple-macos.swiftinterface
//   (swift-compiler-version: Apple Swift version 6.0 effective-5.10 (swiftlang-6.0.0.7.24 clang-1600.0.25.1);
//   -user-module-version 814.0.59.1.2).
// user-module-version: ios 814.0.59.2.3 macos 814.0.59.1.2
// Both interfaces were read in full. They declare the same names; they differ only where a signature names UIKit
// or AppKit (see "Platforms" below). Neither declares a top-level typealias: `SubscriptionPeriod`,
// `SubscriptionInfo`, `SubscriptionStatus`, ... came with the 18.4 / macOS 15.4 SDKs and are not here, nor are
// StoreKitError.unsupported (18.4), purchase(confirmIn: UIViewController) (18.2) or purchase(confirmIn: NSWindow)
// (macOS 15.2). `purchase(options:)` and `purchase(confirmIn: some UIScene)` carry no `@MainActor` in 18.0.
//
// Rules of the transcription:
// - Kinds are kept (struct / non-frozen enum / `@frozen` enum), and the module is built with
//   -enable-library-evolution, so a `switch` over a non-frozen enum needs `@unknown default` as with Apple's module.
// - Every `@available` line is kept as written (watchOS and macCatalyst ones too). Stored `let`/`var`s stay stored;
//   other bodies are `fatalError()`; a `static let` declared without value is `= unimplemented()`.
//   `@inlinable`, `@backDeployed(...)` and `@_alwaysEmitIntoClient` are dropped with their bodies; the public
//   declaration stays. Internal and `@usableFromInline internal` declarations (`BackingValue`, `backing`,
//   `...Storage`, `priceLocaleInternal`, `calendarComponent`, `Date(unixEpochMS:)`, the `init?(_: BackingValue)`
//   extensions, `PurchaseOption.custom(key:value: BackingValue)`, `BackingValue: Decodable`) are left out.
// - The `__AsyncSequence_Failure` / `__AsyncIteratorProtocol_Failure` typealiases (`@_implements(... Failure)`,
//   inside `#if compiler(>=5.3) && $AssociatedTypeImplements`) are left out: the compiler infers `Failure == Never`
//   from the non-throwing `next()`.
// - Platforms: Linux ignores platform versions and platform-specific `unavailable`, so scripts/check-storekit.sh
//   passes IOSIAP_STOREKIT_CHECK_MACOS / _TVOS / _VISIONOS (none for iOS), and each `@available(<P>, unavailable)`
//   for those platforms is preceded by `#if IOSIAP_STOREKIT_CHECK_<P>` / `@available(*, unavailable)` / `#endif`.
//   A declaration only the iOS interface has (it names UIKit) is inside `#if !IOSIAP_STOREKIT_CHECK_MACOS`; one only
//   the macOS interface has (it names AppKit) inside `#if IOSIAP_STOREKIT_CHECK_MACOS`; inside such a branch the
//   guards of the configurations that never compile it are omitted (they would be dead code). The UIKit classes
//   (UIScene, UIWindowScene) and AppKit's NSViewController come from the stubs beside this one
//   (Tests/AppleSDK/UIKit, Tests/AppleSDK/AppKit).
//   Where the two interfaces differ:
//   iOS only:   Product.purchase(confirmIn: some UIScene, options:); Transaction.beginRefundRequest(in: UIWindowScene)
//               and the `@MainActor` static beginRefundRequest(for:in: UIWindowScene); AppStore.showManageSubscriptions
//               (in:) and (in:subscriptionGroupID:); AppStore.presentOfferCodeRedeemSheet(in: UIWindowScene);
//               AppStore.requestReview(in: UIWindowScene); Message.display(in: UIWindowScene).
//   macOS only: Transaction.beginRefundRequest(in: NSViewController) and the (not isolated) static
//               beginRefundRequest(for:in: NSViewController); AppStore.requestReview(in: NSViewController) (macOS 13.0);
//               AppStore.presentOfferCodeRedeemSheet(from: NSViewController) (macOS 15.0).
// - `ExternalPurchase.NoticeResult.continued` is unavailable on every platform in both interfaces, so it is
//   `@available(*, unavailable)` in every configuration.
//
// Left out because their signature needs a module that does not exist here:
// - `VerificationResult<AppTransaction>.signature`, `VerificationResult<Transaction>.signature` and
//   `VerificationResult<Product.SubscriptionInfo.RenewalInfo>.signature`, all of type
//   `CryptoKit.P256.Signing.ECDSASignature` (CryptoKit), in both interfaces.
// - The Objective-C StoreKit (`@_exported import StoreKit`: SKPaymentQueue, SKProduct, SKStoreReviewController, ...):
//   not part of the Swift interface text.
// Nothing else was left out: no declaration of either interface names SwiftUI, Combine, os,
// DeveloperToolsSupport or Security, nor a UIKit/AppKit class other than UIScene, UIWindowScene and NSViewController.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking  // URLError lives here on Linux
#endif
#if IOSIAP_STOREKIT_CHECK_MACOS
import AppKit
#else
import UIKit
#endif

/// The value of a stored `static let` the interface declares without its value: never run.
func unimplemented<T>() -> T { fatalError("the StoreKit stub only type-checks; it never runs") }

// MARK: - Product

// MARK: Product.SubscriptionPeriod

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    public struct SubscriptionPeriod: Equatable, Hashable {
        public enum Unit: Equatable, Hashable {
            case day
            case week
            case month
            case year
            public static func == (a: Product.SubscriptionPeriod.Unit, b: Product.SubscriptionPeriod.Unit) -> Bool { fatalError() }
            public func hash(into hasher: inout Hasher) { fatalError() }
            public var hashValue: Int { fatalError() }
        }
        public let unit: Product.SubscriptionPeriod.Unit
        public let value: Int
        public static func == (a: Product.SubscriptionPeriod, b: Product.SubscriptionPeriod) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionPeriod: CustomDebugStringConvertible {
    public var debugDescription: String { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionPeriod.Unit: CustomDebugStringConvertible {
    public var debugDescription: String { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionPeriod: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionPeriod.Unit: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionPeriod {
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, macCatalyst 15.0, visionOS 1.0, *)
    public func dateRange(referenceDate: Date = .now) -> Range<Date> { fatalError() }
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, macCatalyst 15.0, visionOS 1.0, *)
    public func formatted<S>(_ format: S, referenceDate: Date = .now) -> S.FormatOutput
        where S: Foundation.FormatStyle, S.FormatInput == Range<Date> { fatalError() }
}

@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
extension Product.SubscriptionPeriod {
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
    public func formatted<S>(_ format: S, referenceDate: Date = .now) -> S.FormatOutput
        where S: Foundation.FormatStyle, S.FormatInput == Duration { fatalError() }
}

extension Product.SubscriptionPeriod {
    @available(iOS 16.4, macOS 13.3, tvOS 16.4, watchOS 9.4, visionOS 1.0, *)
    public static var weekly: Product.SubscriptionPeriod { fatalError() }
    @available(iOS 16.4, macOS 13.3, tvOS 16.4, watchOS 9.4, visionOS 1.0, *)
    public static var monthly: Product.SubscriptionPeriod { fatalError() }
    @available(iOS 16.4, macOS 13.3, tvOS 16.4, watchOS 9.4, visionOS 1.0, *)
    public static var yearly: Product.SubscriptionPeriod { fatalError() }
    @available(iOS 16.4, macOS 13.3, tvOS 16.4, watchOS 9.4, visionOS 1.0, *)
    public static var everyThreeDays: Product.SubscriptionPeriod { fatalError() }
    @available(iOS 16.4, macOS 13.3, tvOS 16.4, watchOS 9.4, visionOS 1.0, *)
    public static var everyTwoWeeks: Product.SubscriptionPeriod { fatalError() }
    @available(iOS 16.4, macOS 13.3, tvOS 16.4, watchOS 9.4, visionOS 1.0, *)
    public static var everyTwoMonths: Product.SubscriptionPeriod { fatalError() }
    @available(iOS 16.4, macOS 13.3, tvOS 16.4, watchOS 9.4, visionOS 1.0, *)
    public static var everyThreeMonths: Product.SubscriptionPeriod { fatalError() }
    @available(iOS 16.4, macOS 13.3, tvOS 16.4, watchOS 9.4, visionOS 1.0, *)
    public static var everySixMonths: Product.SubscriptionPeriod { fatalError() }
}

@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
extension Product.SubscriptionPeriod.Unit {
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
    public struct FormatStyle: Foundation.FormatStyle {
        public func format(_ value: Product.SubscriptionPeriod.Unit) -> String { fatalError() }
        public func locale(_ locale: Locale) -> Product.SubscriptionPeriod.Unit.FormatStyle { fatalError() }
        public func encode(to encoder: any Encoder) throws { fatalError() }
        public init(from decoder: any Decoder) throws { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public static func == (a: Product.SubscriptionPeriod.Unit.FormatStyle, b: Product.SubscriptionPeriod.Unit.FormatStyle) -> Bool { fatalError() }
        @available(iOS 16.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, macOS 13.0, *)
        public typealias FormatInput = Product.SubscriptionPeriod.Unit
        @available(iOS 16.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, macOS 13.0, *)
        public typealias FormatOutput = String
        public var hashValue: Int { fatalError() }
    }
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
    public func formatted<S>(_ format: S) -> S.FormatOutput
        where S: Foundation.FormatStyle, S.FormatInput == Product.SubscriptionPeriod.Unit { fatalError() }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Product.SubscriptionPeriod.Unit: Comparable {
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    public static func < (lhs: Product.SubscriptionPeriod.Unit, rhs: Product.SubscriptionPeriod.Unit) -> Bool { fatalError() }
}

// MARK: Product.PromotionInfo (iOS only)

extension Product {
    #if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS || IOSIAP_STOREKIT_CHECK_VISIONOS
    @available(*, unavailable)
    #endif
    @available(iOS 16.4, *)
    @available(visionOS, unavailable)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    public struct PromotionInfo: Equatable {
        public enum Visibility: Int, Equatable, Hashable {
            case appStoreConnectDefault
            case visible
            case hidden
            public init?(rawValue: Int) { fatalError() }
            #if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS || IOSIAP_STOREKIT_CHECK_VISIONOS
            @available(*, unavailable)
            #endif
            @available(iOS 16.4, *)
            @available(tvOS, unavailable, introduced: 15.0)
            @available(watchOS, unavailable, introduced: 8.0)
            @available(visionOS, unavailable)
            @available(macOS, unavailable, introduced: 12.0)
            public typealias RawValue = Int
            public var rawValue: Int { fatalError() }
        }
        public let productID: Product.ID
        public var visibility: Product.PromotionInfo.Visibility
        public func update() async throws { fatalError() }
        public static var currentOrder: [Product.PromotionInfo] { get async throws { fatalError() } }
        public static func updateProductOrder(byID order: some Collection<Product.ID>) async throws { fatalError() }
        public static func updateProductVisibility(_ visibility: Product.PromotionInfo.Visibility, for productID: Product.ID) async throws { fatalError() }
        public static func updateAll(_ promotions: some Collection<PromotionInfo>) async throws { fatalError() }
        public static func == (a: Product.PromotionInfo, b: Product.PromotionInfo) -> Bool { fatalError() }
    }
}

// MARK: Product.SubscriptionInfo

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    public struct SubscriptionInfo: Equatable, Hashable {
        public let introductoryOffer: Product.SubscriptionOffer?
        public let promotionalOffers: [Product.SubscriptionOffer]
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public let winBackOffers: [Product.SubscriptionOffer]
        public let subscriptionGroupID: String
        public let subscriptionPeriod: Product.SubscriptionPeriod
        public var isEligibleForIntroOffer: Bool { get async { fatalError() } }
        public static func isEligibleForIntroOffer(for groupID: String) async -> Bool { fatalError() }
        public static func == (a: Product.SubscriptionInfo, b: Product.SubscriptionInfo) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
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

// MARK: Product.PurchaseOption

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    public struct PurchaseOption: Equatable, Hashable {
        public static func appAccountToken(_ token: UUID) -> Product.PurchaseOption { fatalError() }
        public static func custom(key: String, value: String) -> Product.PurchaseOption { fatalError() }
        public static func custom(key: String, value: Double) -> Product.PurchaseOption { fatalError() }
        public static func custom(key: String, value: Bool) -> Product.PurchaseOption { fatalError() }
        public static func custom(key: String, value: Data) -> Product.PurchaseOption { fatalError() }
        public static func promotionalOffer(offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int) -> Product.PurchaseOption { fatalError() }
        public static func quantity(_ quantity: Int) -> Product.PurchaseOption { fatalError() }
        public static func simulatesAskToBuyInSandbox(_ simulateAskToBuy: Bool) -> Product.PurchaseOption { fatalError() }
        @preconcurrency public static func onStorefrontChange(shouldContinuePurchase: @escaping @Sendable (Storefront) -> Bool) -> Product.PurchaseOption { fatalError() }
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public static func winBackOffer(_ offer: Product.SubscriptionOffer) -> Product.PurchaseOption { fatalError() }
        public static func == (a: Product.PurchaseOption, b: Product.PurchaseOption) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.PurchaseOption: CustomDebugStringConvertible {
    public var debugDescription: String { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.PurchaseOption: Sendable {}

extension Product.PurchaseOption {
    @available(iOS 17.4, macOS 14.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
    public static func promotionalOffer(offerID: String, signature: Product.SubscriptionOffer.Signature) -> Product.PurchaseOption { fatalError() }
}

// MARK: Product

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
    public var jsonRepresentation: Data { fatalError() }
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
    public var hashValue: Int { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product: CustomDebugStringConvertible {
    public var debugDescription: String { fatalError() }
}

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
        public static func == (a: Product.PurchaseError, b: Product.PurchaseError) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
    // Not `@MainActor` in the 18.0 / macOS 15.0 SDKs (later SDKs add it).
    #if IOSIAP_STOREKIT_CHECK_VISIONOS
    @available(*, unavailable)
    #endif
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
    @available(visionOS, unavailable, message: "Use @Environment(\\.purchase) to get a PurchaseAction value to call. If your app uses UIKit, use purchase(confirmIn:options:).")
    public func purchase(options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    public static func products<Identifiers>(for identifiers: Identifiers) async throws -> [Product]
        where Identifiers: Collection, Identifiers.Element == String { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    public var latestTransaction: VerificationResult<Transaction>? { get async { fatalError() } }
    public var currentEntitlement: VerificationResult<Transaction>? { get async { fatalError() } }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.ProductType: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.PurchaseResult: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, macCatalyst 15.0, visionOS 1.0, *)
    public var priceFormatStyle: Decimal.FormatStyle.Currency { fatalError() }
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, macCatalyst 15.0, visionOS 1.0, *)
    public var subscriptionPeriodFormatStyle: Date.ComponentsFormatStyle { fatalError() }
}

@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
extension Product {
    public var subscriptionPeriodUnitFormatStyle: Product.SubscriptionPeriod.Unit.FormatStyle { fatalError() }
}

#if !IOSIAP_STOREKIT_CHECK_MACOS
// iOS interface only (names UIKit). Not `@MainActor` in the 18.0 SDK. The UIViewController form is 18.2: not here.
@available(iOS 17.0, tvOS 17.0, macCatalyst 17.0, visionOS 1.0, *)
extension Product {
    @available(iOS 17.0, tvOS 17.0, macCatalyst 17.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    public func purchase(confirmIn scene: some UIScene, options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult { fatalError() }
}
#endif

// MARK: Product.SubscriptionInfo.RenewalState, .RenewalInfo, .Status

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
        @frozen public enum PriceIncreaseStatus: Equatable, Hashable {
            case noIncreasePending
            case pending
            case agreed
            public static func == (a: Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus, b: Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus) -> Bool { fatalError() }
            public func hash(into hasher: inout Hasher) { fatalError() }
            public var hashValue: Int { fatalError() }
        }
        public var jsonRepresentation: Data { fatalError() }
        public let originalTransactionID: UInt64
        public let currentProductID: String
        public let willAutoRenew: Bool
        public let autoRenewPreference: String?
        public let expirationReason: Product.SubscriptionInfo.RenewalInfo.ExpirationReason?
        public let priceIncreaseStatus: Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus
        public let isInBillingRetry: Bool
        public let gracePeriodExpirationDate: Date?
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public let offer: Transaction.Offer?
        @available(iOS, introduced: 15.0, deprecated: 18.0, renamed: "offer.id", message: "Use the offer property instead")
        @available(macOS, introduced: 12.0, deprecated: 15.0, renamed: "offer.id", message: "Use the offer property instead")
        @available(tvOS, introduced: 15.0, deprecated: 18.0, renamed: "offer.id", message: "Use the offer property instead")
        @available(watchOS, introduced: 8.0, deprecated: 11.0, renamed: "offer.id", message: "Use the offer property instead")
        @available(visionOS, introduced: 1.0, deprecated: 2.0, renamed: "offer.id", message: "Use the offer property instead")
        public var offerID: String? { fatalError() }
        @available(iOS, introduced: 15.0, deprecated: 18.0, renamed: "offer.type", message: "Use the offer property instead")
        @available(macOS, introduced: 12.0, deprecated: 15.0, renamed: "offer.type", message: "Use the offer property instead")
        @available(tvOS, introduced: 15.0, deprecated: 18.0, renamed: "offer.type", message: "Use the offer property instead")
        @available(watchOS, introduced: 8.0, deprecated: 11.0, renamed: "offer.type", message: "Use the offer property instead")
        @available(visionOS, introduced: 1.0, deprecated: 2.0, renamed: "offer.type", message: "Use the offer property instead")
        public var offerType: Transaction.OfferType? { fatalError() }
        @available(iOS, introduced: 15.0, deprecated: 18.0, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead")
        @available(macOS, introduced: 12.0, deprecated: 15.0, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead")
        @available(tvOS, introduced: 15.0, deprecated: 18.0, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead")
        @available(watchOS, introduced: 8.0, deprecated: 11.0, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead")
        @available(visionOS, introduced: 1.0, deprecated: 2.0, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead")
        public var offerPaymentModeStringRepresentation: String? { fatalError() }
        @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
        public let environment: AppStore.Environment
        #if IOSIAP_STOREKIT_CHECK_VISIONOS
        @available(*, unavailable)
        #endif
        @available(iOS, introduced: 15.0, deprecated: 16.0, message: "Use the environment property instead")
        @available(macOS, introduced: 12.0, deprecated: 13.0, message: "Use the environment property instead")
        @available(tvOS, introduced: 15.0, deprecated: 16.0, message: "Use the environment property instead")
        @available(watchOS, introduced: 8.0, deprecated: 9.0, message: "Use the environment property instead")
        @available(macCatalyst, introduced: 15.0, deprecated: 16.0, message: "Use the environment property instead")
        @available(visionOS, unavailable)
        public var environmentStringRepresentation: String { fatalError() }
        @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, macCatalyst 15.0, visionOS 1.0, *)
        public var recentSubscriptionStartDate: Date { fatalError() }
        @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, macCatalyst 15.0, visionOS 1.0, *)
        public var renewalDate: Date? { fatalError() }
        @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
        public var renewalPrice: Decimal? { fatalError() }
        @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
        public var currency: Locale.Currency? { fatalError() }
        #if IOSIAP_STOREKIT_CHECK_VISIONOS
        @available(*, unavailable)
        #endif
        @available(iOS, introduced: 15.0, deprecated: 16.0, renamed: "currency.identifier", message: "Use the currency property instead")
        @available(macOS, introduced: 12.0, deprecated: 13.0, renamed: "currency.identifier", message: "Use the currency property instead")
        @available(tvOS, introduced: 15.0, deprecated: 16.0, renamed: "currency.identifier", message: "Use the currency property instead")
        @available(watchOS, introduced: 8.0, deprecated: 9.0, renamed: "currency.identifier", message: "Use the currency property instead")
        @available(visionOS, unavailable)
        public var currencyCode: String? { fatalError() }
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public let eligibleWinBackOfferIDs: [String]
        public let deviceVerification: Data
        public let deviceVerificationNonce: UUID
        public let signedDate: Date
    }
    public struct Status: Equatable, Hashable {
        public let state: Product.SubscriptionInfo.RenewalState
        public let transaction: VerificationResult<Transaction>
        public let renewalInfo: VerificationResult<Product.SubscriptionInfo.RenewalInfo>
        public static func == (a: Product.SubscriptionInfo.Status, b: Product.SubscriptionInfo.Status) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
    public var status: [Product.SubscriptionInfo.Status] { get async throws { fatalError() } }
    public static func status(for groupID: String) async throws -> [Product.SubscriptionInfo.Status] { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo.Status {
    public struct Statuses: AsyncSequence {
        public typealias Element = Product.SubscriptionInfo.Status
        public struct AsyncIterator: AsyncIteratorProtocol {
            public mutating func next() async -> Product.SubscriptionInfo.Status.Statuses.Element? { fatalError() }
            @available(iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, macOS 12.0, *)
            public typealias Element = Product.SubscriptionInfo.Status.Statuses.Element
        }
        public func makeAsyncIterator() -> Product.SubscriptionInfo.Status.Statuses.AsyncIterator { fatalError() }
    }
    public static var updates: Product.SubscriptionInfo.Status.Statuses { fatalError() }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Product.SubscriptionInfo.Status {
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    public static var all: AsyncStream<(groupID: String, statuses: [Product.SubscriptionInfo.Status])> { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo.RenewalInfo: Equatable {
    public static func == (lhs: Product.SubscriptionInfo.RenewalInfo, rhs: Product.SubscriptionInfo.RenewalInfo) -> Bool { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo.RenewalInfo: Hashable {
    public func hash(into hasher: inout Hasher) { fatalError() }
    public var hashValue: Int { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo.RenewalInfo: CustomDebugStringConvertible {
    public var debugDescription: String { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo.RenewalState: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo.Status: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo.Status.Statuses: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo.RenewalInfo: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo.RenewalInfo.ExpirationReason: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus: Sendable {}

// MARK: Product: LocalizedError, localizedDescription

@available(iOS 15.4, macOS 12.3, tvOS 15.4, watchOS 8.5, visionOS 1.0, *)
extension Product.PurchaseError: LocalizedError {
    public var errorDescription: String? { fatalError() }
    public var failureReason: String? { fatalError() }
    public var recoverySuggestion: String? { fatalError() }
}

@available(iOS 15.4, macOS 12.3, tvOS 15.4, watchOS 8.5, visionOS 1.0, *)
extension Product.ProductType {
    public var localizedDescription: String { fatalError() }
}

@available(iOS 15.4, macOS 12.3, tvOS 15.4, watchOS 8.5, visionOS 1.0, *)
extension Product.SubscriptionInfo.RenewalState {
    public var localizedDescription: String { fatalError() }
}

@available(iOS 15.4, macOS 12.3, tvOS 15.4, watchOS 8.5, visionOS 1.0, *)
extension Product.SubscriptionInfo.RenewalInfo.ExpirationReason {
    public var localizedDescription: String { fatalError() }
}

@available(iOS 15.4, macOS 12.3, tvOS 15.4, watchOS 8.5, visionOS 1.0, *)
extension Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus {
    public var localizedDescription: String { fatalError() }
}

@available(iOS 15.4, macOS 12.3, tvOS 15.4, watchOS 8.5, visionOS 1.0, *)
extension Product.SubscriptionOffer.OfferType {
    public var localizedDescription: String { fatalError() }
}

@available(iOS 15.4, macOS 12.3, tvOS 15.4, watchOS 8.5, visionOS 1.0, *)
extension Product.SubscriptionOffer.PaymentMode {
    public var localizedDescription: String { fatalError() }
}

@available(iOS 15.4, macOS 12.3, tvOS 15.4, watchOS 8.5, visionOS 1.0, *)
extension Product.SubscriptionPeriod.Unit {
    public var localizedDescription: String { fatalError() }
}

// MARK: Product.SubscriptionOffer

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
        public static func == (a: Product.SubscriptionOffer, b: Product.SubscriptionOffer) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
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
        public static func == (a: Product.SubscriptionOffer.Signature, b: Product.SubscriptionOffer.Signature) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
}

// MARK: Product: trailing conformances

#if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS || IOSIAP_STOREKIT_CHECK_VISIONOS
@available(*, unavailable)
#endif
@available(iOS 16.4, *)
@available(visionOS, unavailable)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
extension Product.PromotionInfo.Visibility: RawRepresentable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.PurchaseError: Equatable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.PurchaseError: Hashable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus: BitwiseCopyable {}

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
    #if IOSIAP_STOREKIT_CHECK_TVOS || IOSIAP_STOREKIT_CHECK_VISIONOS
    @available(*, unavailable)
    #endif
    @available(iOS 18.0, macOS 15.0, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @available(visionOS, unavailable)
    public let offer: Product.SubscriptionOffer?
    public var id: Product.ID { fatalError() }
    public static func == (a: PurchaseIntent, b: PurchaseIntent) -> Bool { fatalError() }
    #if IOSIAP_STOREKIT_CHECK_TVOS || IOSIAP_STOREKIT_CHECK_VISIONOS
    @available(*, unavailable)
    #endif
    @available(iOS 16.4, macOS 14.4, macCatalyst 16.4, *)
    @available(tvOS, unavailable, introduced: 13.0)
    @available(watchOS, unavailable, introduced: 6.0)
    @available(visionOS, unavailable)
    public typealias ID = Product.ID
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
            #if IOSIAP_STOREKIT_CHECK_TVOS || IOSIAP_STOREKIT_CHECK_VISIONOS
            @available(*, unavailable)
            #endif
            @available(iOS 16.4, macOS 14.4, macCatalyst 16.4, *)
            @available(tvOS, unavailable, introduced: 13.0)
            @available(watchOS, unavailable, introduced: 6.0)
            @available(visionOS, unavailable)
            public typealias Element = PurchaseIntent.PurchaseIntents.Element
        }
        public func makeAsyncIterator() -> PurchaseIntent.PurchaseIntents.AsyncIterator { fatalError() }
    }
    public static var intents: PurchaseIntent.PurchaseIntents { fatalError() }
}

// MARK: - Message (iOS, visionOS and Mac Catalyst: unavailable on macOS, tvOS and watchOS)

#if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
@available(*, unavailable)
#endif
@available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public struct Message: Sendable {
    public let reason: Message.Reason
    #if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
    @available(*, unavailable)
    #endif
    @available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    public struct Reason: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { fatalError() }
        public static let generic: Message.Reason = unimplemented()
        public static let priceIncreaseConsent: Message.Reason = unimplemented()
        #if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
        @available(*, unavailable)
        #endif
        @available(iOS 16.4, macCatalyst 16.4, visionOS 1.0, *)
        @available(macOS, unavailable)
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
        public static let billingIssue: Message.Reason = unimplemented()
        #if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
        @available(*, unavailable)
        #endif
        @available(iOS 18.0, macCatalyst 18.0, visionOS 2.0, *)
        @available(macOS, unavailable)
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
        public static let winBackOffer: Message.Reason = unimplemented()
        #if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
        @available(*, unavailable)
        #endif
        @available(iOS 16.0, visionOS 1.0, macCatalyst 16.0, *)
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
        @available(macOS, unavailable)
        public typealias RawValue = Int
    }
}

#if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
@available(*, unavailable)
#endif
@available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
extension Message: Equatable {
    public static func == (lhs: Message, rhs: Message) -> Bool { fatalError() }
}

#if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
@available(*, unavailable)
#endif
@available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
extension Message: Hashable {
    public func hash(into hasher: inout Hasher) { fatalError() }
    public var hashValue: Int { fatalError() }
}

#if !IOSIAP_STOREKIT_CHECK_MACOS
// iOS interface only (names UIKit).
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
            #if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
            @available(*, unavailable)
            #endif
            @available(iOS 16.0, visionOS 1.0, macCatalyst 16.0, *)
            @available(tvOS, unavailable, introduced: 13.0)
            @available(watchOS, unavailable, introduced: 6.0)
            @available(macOS, unavailable, introduced: 10.15)
            public typealias Element = Message.Messages.Element
        }
        public func makeAsyncIterator() -> Message.Messages.AsyncIterator { fatalError() }
    }
    public static var messages: Message.Messages { fatalError() }
}

#if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
@available(*, unavailable)
#endif
@available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
extension Message.Reason {
    public var localizedDescription: String { fatalError() }
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

@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
extension AppTransaction: Equatable {
    public static func == (lhs: AppTransaction, rhs: AppTransaction) -> Bool { fatalError() }
}

@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
extension AppTransaction: Hashable {
    public func hash(into hasher: inout Hasher) { fatalError() }
    public var hashValue: Int { fatalError() }
}

@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
extension AppTransaction: CustomDebugStringConvertible {
    public var debugDescription: String { fatalError() }
}

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
        public static func == (a: VerificationResult<SignedType>.VerificationError, b: VerificationResult<SignedType>.VerificationError) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult: Equatable where SignedType: Equatable {
    public static func == (a: VerificationResult<SignedType>, b: VerificationResult<SignedType>) -> Bool { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult: Hashable where SignedType: Hashable {
    public func hash(into hasher: inout Hasher) { fatalError() }
    public var hashValue: Int { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult: CustomDebugStringConvertible where SignedType: CustomDebugStringConvertible {
    public var debugDescription: String { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult: Sendable where SignedType: Sendable {}

@available(iOS 15.4, macOS 12.3, tvOS 15.4, watchOS 8.5, visionOS 1.0, *)
extension VerificationResult.VerificationError: LocalizedError {
    public var errorDescription: String? { fatalError() }
    public var failureReason: String? { fatalError() }
    public var recoverySuggestion: String? { fatalError() }
}

// `signature: CryptoKit.P256.Signing.ECDSASignature` is left out of the three extensions below (CryptoKit).
@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
extension VerificationResult where SignedType == AppTransaction {
    public var jwsRepresentation: String { fatalError() }
    public var headerData: Data { fatalError() }
    public var payloadData: Data { fatalError() }
    public var signatureData: Data { fatalError() }
    public var signedData: Data { fatalError() }
    public var signedDate: Date { fatalError() }
    public var deviceVerification: Data { fatalError() }
    public var deviceVerificationNonce: UUID { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult where SignedType == Transaction {
    public var jwsRepresentation: String { fatalError() }
    public var headerData: Data { fatalError() }
    public var payloadData: Data { fatalError() }
    public var signatureData: Data { fatalError() }
    public var signedData: Data { fatalError() }
    public var signedDate: Date { fatalError() }
    public var deviceVerification: Data { fatalError() }
    public var deviceVerificationNonce: UUID { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult where SignedType == Product.SubscriptionInfo.RenewalInfo {
    public var jwsRepresentation: String { fatalError() }
    public var headerData: Data { fatalError() }
    public var payloadData: Data { fatalError() }
    public var signatureData: Data { fatalError() }
    public var signedData: Data { fatalError() }
    public var signedDate: Date { fatalError() }
    public var deviceVerification: Data { fatalError() }
    public var deviceVerificationNonce: UUID { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult.VerificationError: Equatable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult.VerificationError: Hashable {}

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
        // Back-deployed in the SDK (before iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0).
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
        public static func == (a: Transaction.Offer, b: Transaction.Offer) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
    public var jsonRepresentation: Data { fatalError() }
    public let id: UInt64
    public let originalID: UInt64
    public let webOrderLineItemID: String?
    public let productID: String
    public let subscriptionGroupID: String?
    public let appBundleID: String
    public let purchaseDate: Date
    public let originalPurchaseDate: Date
    public let expirationDate: Date?
    public let purchasedQuantity: Int
    public let isUpgraded: Bool
    @available(iOS 17.2, macOS 14.2, tvOS 17.2, watchOS 10.2, visionOS 1.1, *)
    public let offer: Transaction.Offer?
    @available(iOS, introduced: 15.0, deprecated: 17.2, renamed: "offer.type", message: "Use the offer property instead")
    @available(macOS, introduced: 12.0, deprecated: 14.2, renamed: "offer.type", message: "Use the offer property instead")
    @available(tvOS, introduced: 15.0, deprecated: 17.2, renamed: "offer.type", message: "Use the offer property instead")
    @available(watchOS, introduced: 8.0, deprecated: 10.2, renamed: "offer.type", message: "Use the offer property instead")
    @available(visionOS, introduced: 1.0, deprecated: 1.1, renamed: "offer.type", message: "Use the offer property instead")
    public var offerType: Transaction.OfferType? { fatalError() }
    @available(iOS, introduced: 15.0, deprecated: 17.2, renamed: "offer.id", message: "Use the offer property instead")
    @available(macOS, introduced: 12.0, deprecated: 14.2, renamed: "offer.id", message: "Use the offer property instead")
    @available(tvOS, introduced: 15.0, deprecated: 17.2, renamed: "offer.id", message: "Use the offer property instead")
    @available(watchOS, introduced: 8.0, deprecated: 10.2, renamed: "offer.id", message: "Use the offer property instead")
    @available(visionOS, introduced: 1.0, deprecated: 1.1, renamed: "offer.id", message: "Use the offer property instead")
    public var offerID: String? { fatalError() }
    @available(iOS, introduced: 15.0, deprecated: 17.2, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead")
    @available(macOS, introduced: 12.0, deprecated: 14.2, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead")
    @available(tvOS, introduced: 15.0, deprecated: 17.2, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead")
    @available(watchOS, introduced: 8.0, deprecated: 10.2, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead")
    @available(visionOS, introduced: 1.0, deprecated: 1.1, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead")
    public var offerPaymentModeStringRepresentation: String? { fatalError() }
    public let revocationDate: Date?
    public let revocationReason: Transaction.RevocationReason?
    public let productType: Product.ProductType
    public let appAccountToken: UUID?
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
    public let environment: AppStore.Environment
    #if IOSIAP_STOREKIT_CHECK_VISIONOS
    @available(*, unavailable)
    #endif
    @available(iOS, introduced: 15.0, deprecated: 16.0, message: "Use the environment property instead")
    @available(macOS, introduced: 12.0, deprecated: 13.0, message: "Use the environment property instead")
    @available(tvOS, introduced: 15.0, deprecated: 16.0, message: "Use the environment property instead")
    @available(watchOS, introduced: 8.0, deprecated: 9.0, message: "Use the environment property instead")
    @available(macCatalyst, introduced: 15.0, deprecated: 16.0, message: "Use the environment property instead")
    @available(visionOS, unavailable)
    public var environmentStringRepresentation: String { fatalError() }
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    public let reason: Transaction.Reason
    #if IOSIAP_STOREKIT_CHECK_VISIONOS
    @available(*, unavailable)
    #endif
    @available(iOS, introduced: 15.0, deprecated: 17.0, message: "Use the reason property instead")
    @available(macOS, introduced: 12.0, deprecated: 14.0, message: "Use the reason property instead")
    @available(tvOS, introduced: 15.0, deprecated: 17.0, message: "Use the reason property instead")
    @available(watchOS, introduced: 8.0, deprecated: 10.0, message: "Use the reason property instead")
    @available(macCatalyst, introduced: 15.0, deprecated: 17.0, message: "Use the reason property instead")
    @available(visionOS, unavailable)
    public var reasonStringRepresentation: String { fatalError() }
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    public let storefront: Storefront
    #if IOSIAP_STOREKIT_CHECK_VISIONOS
    @available(*, unavailable)
    #endif
    @available(iOS, introduced: 15.0, deprecated: 17.0, message: "Use the storefront property instead")
    @available(macOS, introduced: 12.0, deprecated: 14.0, message: "Use the storefront property instead")
    @available(tvOS, introduced: 15.0, deprecated: 17.0, message: "Use the storefront property instead")
    @available(watchOS, introduced: 8.0, deprecated: 10.0, message: "Use the storefront property instead")
    @available(macCatalyst, introduced: 15.0, deprecated: 17.0, message: "Use the storefront property instead")
    @available(visionOS, unavailable)
    public var storefrontCountryCode: String { fatalError() }
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
    public var price: Decimal? { fatalError() }
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
    public var currency: Locale.Currency? { fatalError() }
    @available(iOS, introduced: 15.0, deprecated: 16.0, renamed: "currency.identifier", message: "Use the currency property instead")
    @available(macOS, introduced: 12.0, deprecated: 13.0, renamed: "currency.identifier", message: "Use the currency property instead")
    @available(tvOS, introduced: 15.0, deprecated: 16.0, renamed: "currency.identifier", message: "Use the currency property instead")
    @available(watchOS, introduced: 8.0, deprecated: 9.0, renamed: "currency.identifier", message: "Use the currency property instead")
    @available(visionOS, introduced: 1.0, deprecated: 1.1, renamed: "currency.identifier", message: "Use the currency property instead")
    public var currencyCode: String? { fatalError() }
    public let deviceVerification: Data
    public let deviceVerificationNonce: UUID
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
    public var hashValue: Int { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Transaction: CustomDebugStringConvertible {
    public var debugDescription: String { fatalError() }
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
    public static func currentEntitlement(for productID: String) async -> VerificationResult<Transaction>? { fatalError() }
    public static func latest(for productID: String) async -> VerificationResult<Transaction>? { fatalError() }
    public static var unfinished: Transaction.Transactions { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Transaction {
    public static var updates: Transaction.Transactions { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction {
    @available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    public enum RefundRequestError: Error {
        case duplicateRequest
        case failed
        public static func == (a: Transaction.RefundRequestError, b: Transaction.RefundRequestError) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
    @available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    public enum RefundRequestStatus {
        case success
        case userCancelled
        public static func == (a: Transaction.RefundRequestStatus, b: Transaction.RefundRequestStatus) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
    #if !IOSIAP_STOREKIT_CHECK_MACOS
    // iOS interface: the sheet takes a UIWindowScene; the static form is `@MainActor`, the instance form is not.
    #if IOSIAP_STOREKIT_CHECK_TVOS
    @available(*, unavailable)
    #endif
    @available(iOS 15.0, macCatalyst 15.0, visionOS 1.0, *)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    public func beginRefundRequest(in scene: UIWindowScene) async throws -> Transaction.RefundRequestStatus { fatalError() }
    #if IOSIAP_STOREKIT_CHECK_TVOS
    @available(*, unavailable)
    #endif
    @available(iOS 15.0, macCatalyst 15.0, visionOS 1.0, *)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    @MainActor public static func beginRefundRequest(for transactionID: UInt64, in scene: UIWindowScene) async throws -> Transaction.RefundRequestStatus { fatalError() }
    #else
    // macOS interface: the sheet takes an NSViewController; neither form is `@MainActor`.
    @available(macOS 12.0, *)
    @available(visionOS, unavailable)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    public func beginRefundRequest(in controller: NSViewController) async throws -> Transaction.RefundRequestStatus { fatalError() }
    @available(macOS 12.0, *)
    @available(visionOS, unavailable)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    public static func beginRefundRequest(for transactionID: UInt64, in controller: NSViewController) async throws -> Transaction.RefundRequestStatus { fatalError() }
    #endif
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Transaction {
    // Back-deployed in the SDK (before iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0).
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
    public var subscriptionStatus: Product.SubscriptionInfo.Status? { get async { fatalError() } }
}

@available(iOS 15.0, macCatalyst 15.0, tvOS 17.0, macOS 12.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestError: Sendable {}

@available(iOS 15.0, macCatalyst 15.0, tvOS 17.0, macOS 12.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestStatus: Sendable {}

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

@available(iOS 15.4, macCatalyst 15.4, macOS 12.3, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestError: LocalizedError {
    public var errorDescription: String? { fatalError() }
    public var failureReason: String? { fatalError() }
    public var recoverySuggestion: String? { fatalError() }
}

@available(iOS 15.4, macOS 12.3, tvOS 15.4, watchOS 8.5, visionOS 1.0, *)
extension Transaction.OfferType {
    public var localizedDescription: String { fatalError() }
}

@available(iOS 15.4, macOS 12.3, tvOS 15.4, watchOS 8.5, visionOS 1.0, *)
extension Transaction.RevocationReason {
    public var localizedDescription: String { fatalError() }
}

@available(iOS 15.4, macOS 12.3, tvOS 15.4, watchOS 8.5, visionOS 1.0, *)
extension Transaction.OwnershipType {
    public var localizedDescription: String { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestError: Equatable {}

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestError: Hashable {}

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestStatus: Equatable {}

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestStatus: Hashable {}

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
            @available(iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, macOS 12.0, *)
            public typealias Element = Storefront
        }
        public func makeAsyncIterator() -> Storefront.Storefronts.AsyncIterator { fatalError() }
    }
    public static var updates: Storefront.Storefronts { fatalError() }
}

// MARK: - AppStore

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public enum AppStore {
    public static var canMakePayments: Bool { fatalError() }
    public static var deviceVerificationID: UUID? { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension AppStore {
    public static func sync() async throws { fatalError() }
}

#if !IOSIAP_STOREKIT_CHECK_MACOS
// iOS interface only (names UIKit).
#if IOSIAP_STOREKIT_CHECK_TVOS
@available(*, unavailable)
#endif
@available(iOS 15.0, macCatalyst 15.0, visionOS 1.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@available(tvOS, unavailable)
extension AppStore {
    #if IOSIAP_STOREKIT_CHECK_TVOS
    @available(*, unavailable)
    #endif
    @available(iOS 15.0, macCatalyst 15.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    @MainActor public static func showManageSubscriptions(in scene: UIWindowScene) async throws { fatalError() }
    #if IOSIAP_STOREKIT_CHECK_TVOS
    @available(*, unavailable)
    #endif
    @available(iOS 17.0, macCatalyst 17.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    @MainActor public static func showManageSubscriptions(in scene: UIWindowScene, subscriptionGroupID: String) async throws { fatalError() }
}

extension AppStore {
    #if IOSIAP_STOREKIT_CHECK_TVOS
    @available(*, unavailable)
    #endif
    @available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    @MainActor public static func presentOfferCodeRedeemSheet(in scene: UIWindowScene) async throws { fatalError() }
}

extension AppStore {
    #if IOSIAP_STOREKIT_CHECK_TVOS
    @available(*, unavailable)
    #endif
    @available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    @MainActor public static func requestReview(in scene: UIWindowScene) { fatalError() }
}
#else
// macOS interface only (names AppKit).
extension AppStore {
    @available(macOS 13.0, *)
    @available(iOS, unavailable)
    @available(visionOS, unavailable)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    @MainActor public static func requestReview(in controller: NSViewController) { fatalError() }
}

extension AppStore {
    @available(macOS 15.0, *)
    @available(iOS, unavailable)
    @available(visionOS, unavailable)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    @MainActor public static func presentOfferCodeRedeemSheet(from controller: NSViewController) async throws { fatalError() }
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

// Six cases in the 18.0 / macOS 15.0 SDKs; `unsupported` came with iOS 18.4 / macOS 15.4 and is not here.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public enum StoreKitError: Error {
    case unknown
    case userCancelled
    case networkError(URLError)
    case systemError(any Error)
    case notAvailableInStorefront
    @available(iOS 15.4, macOS 12.3, tvOS 15.4, watchOS 8.5, visionOS 1.0, *)
    case notEntitled
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension StoreKitError: Sendable {}

@available(iOS 15.4, macOS 12.3, tvOS 15.4, watchOS 8.5, visionOS 1.0, *)
extension StoreKitError: LocalizedError {
    public var errorDescription: String? { fatalError() }
    public var failureReason: String? { fatalError() }
    public var recoverySuggestion: String? { fatalError() }
}

// MARK: - ExternalPurchaseLink

@available(iOS 15.4, macOS 14.4, macCatalyst 15.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
public enum ExternalPurchaseLink: Sendable {
    public static var canOpen: Bool { get async { fatalError() } }
    @available(iOS 17.5, macOS 14.5, macCatalyst 17.5, tvOS 17.5, watchOS 10.5, visionOS 1.2, *)
    public static var eligibleURLs: [URL]? { get async { fatalError() } }
    public static func open() async throws { fatalError() }
    @available(iOS 17.5, macOS 14.5, macCatalyst 17.5, tvOS 17.5, watchOS 10.5, visionOS 1.2, *)
    public static func open(url: URL) async throws { fatalError() }
}

// MARK: - ExternalLinkAccount

#if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_VISIONOS
@available(*, unavailable)
#endif
@available(iOS 16.0, macCatalyst 16.0, tvOS 16.4, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
public enum ExternalLinkAccount: Sendable {
    public static var canOpen: Bool { get async { fatalError() } }
    public static func open() async throws { fatalError() }
}

// MARK: - ExternalPurchase

@available(iOS 15.4, macOS 14.4, macCatalyst 15.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
public enum ExternalPurchase: Sendable {
    public enum NoticeResult: Hashable, Sendable {
        // Unavailable on every platform (iOS, macCatalyst, macOS, tvOS, watchOS, visionOS), hence in every configuration.
        @available(*, unavailable)
        @available(iOS, introduced: 15.4, obsoleted: 17.4, renamed: "continuedWithExternalPurchaseToken")
        @available(macOS, unavailable)
        @available(macCatalyst, introduced: 15.4, obsoleted: 17.4, renamed: "continuedWithExternalPurchaseToken")
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
        @available(visionOS, unavailable)
        @available(iOS, unavailable)
        @available(macCatalyst, unavailable)
        case continued
        case cancelled
        @available(iOS 17.4, macOS 14.4, macCatalyst 17.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
        case continuedWithExternalPurchaseToken(token: String)
        public func hash(into hasher: inout Hasher) { fatalError() }
        public static func == (a: ExternalPurchase.NoticeResult, b: ExternalPurchase.NoticeResult) -> Bool { fatalError() }
        public var hashValue: Int { fatalError() }
    }
    @available(iOS 17.4, macOS 14.4, macCatalyst 17.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
    public static var canPresent: Bool { get async { fatalError() } }
    public static func presentNoticeSheet() async throws -> ExternalPurchase.NoticeResult { fatalError() }
}

// MARK: - PaymentMethodBinding

#if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
@available(*, unavailable)
#endif
@available(iOS 16.4, visionOS 1.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@available(tvOS, unavailable)
public struct PaymentMethodBinding: Sendable, Hashable, Identifiable {
    #if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
    @available(*, unavailable)
    #endif
    @available(iOS 16.4, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    public enum PaymentMethodBindingError: LocalizedError {
        case notEligible
        case invalidPinningID
        case failed
        public var errorDescription: String? { fatalError() }
        public var failureReason: String? { fatalError() }
        public var recoverySuggestion: String? { fatalError() }
        public static func == (a: PaymentMethodBinding.PaymentMethodBindingError, b: PaymentMethodBinding.PaymentMethodBindingError) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
    public let id: String
    public init(id: String) async throws { fatalError() }
    public func bind() async throws { fatalError() }
    public func hash(into hasher: inout Hasher) { fatalError() }
    public static func == (a: PaymentMethodBinding, b: PaymentMethodBinding) -> Bool { fatalError() }
    #if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
    @available(*, unavailable)
    #endif
    @available(iOS 16.4, visionOS 1.0, *)
    @available(tvOS, unavailable, introduced: 13.0)
    @available(watchOS, unavailable, introduced: 6.0)
    @available(macOS, unavailable, introduced: 10.15)
    public typealias ID = String
    public var hashValue: Int { fatalError() }
}

#if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
@available(*, unavailable)
#endif
@available(iOS 16.4, visionOS 1.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@available(tvOS, unavailable)
extension PaymentMethodBinding.PaymentMethodBindingError: Equatable {}

#if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
@available(*, unavailable)
#endif
@available(iOS 16.4, visionOS 1.0, *)
@available(macOS, unavailable)
@available(watchOS, unavailable)
@available(tvOS, unavailable)
extension PaymentMethodBinding.PaymentMethodBindingError: Hashable {}

// MARK: - Extensions of Foundation types

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension DateComponents {
    public init(subscriptionPeriod period: Product.SubscriptionPeriod) { fatalError() }
}
