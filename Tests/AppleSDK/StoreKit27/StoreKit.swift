// A declarations-only `StoreKit` for Linux, transcribed from the newest public SDK interfaces (iOS 27.0 and
// macOS 27.0): every top-level name StoreKit's Swift overlay declares, and every public member of the types
// Sources/IOSiAPStoreKit/Live touches (Product, Transaction, AppTransaction, AppStore, Storefront, StoreKitError,
// PurchaseIntent, Message, VerificationResult and everything nested in them), so that scripts/check-storekit.sh
// type-checks LiveStoreKit.swift against what Apple's current SDKs really declare, name clashes included
// (StoreKit's top-level typealiases SubscriptionPeriod, SubscriptionInfo, SubscriptionStatus, ...).
// Nothing here runs: every body is `fatalError()`. It must never be built where the real StoreKit exists (a
// module named `StoreKit` would shadow Apple's framework); it is built only into a temporary directory.
//
// Sources (transcribed by us, declarations only; no Apple code bodies or comments are copied):
// - iOS: GitHub repository xybp888/iOS-SDKs, commit ad607cb07fe4ad1c9b91cf970bd228c2a9253207, path
//   iPhoneOS27.0.sdk/System/Library/Frameworks/StoreKit.framework/Modules/StoreKit.swiftmodule/arm64e-apple-ios.swiftinterface
//   swift-compiler-version: Apple Swift version 6.4 effective-5.10 (swiftlang-6.4.0.31.4 clang-2100.3.31.1),
//   -user-module-version 816.0.47.2.3, -target arm64e-apple-ios27.0
// - macOS: GitHub repository xchacha20-poly1305/macos-sdk, commit 268a231e87c98ecdf0cdf9ef20d37c94d89aae2b, path
//   MacOSX27.0.sdk/System/Library/Frameworks/StoreKit.framework/Versions/A/Modules/StoreKit.swiftmodule/arm64e-apple-macos.swiftinterface
//   swift-compiler-version: Apple Swift version 6.4 effective-5.10 (swiftlang-6.4.0.31.4 clang-2100.3.31.1),
//   -user-module-version 816.0.47.1.3, -target arm64e-apple-macos27.0
//   (An earlier macOS 27.0 build, evrett-k/sdks @ f0bf5423dd5d545da3814c8326a774aecda1aea7, user-module-version
//   816.0.38 from swiftlang-6.4.0.25.4, was not used. No public macOS SDK newer than 27.0 was found.)
// user-module-version: ios 816.0.47.2.3 macos 816.0.47.1.3
//
// What 27.0 changes against the iOS 26.2 / macOS 26.0 transcription this file was made from (Tests/AppleSDK/StoreKit26
// now holds 26.5; the iOS 26.4 and 26.5 additions are listed too, as 26.2 lacks them; versions are the interfaces'
// `introduced:` ones):
// - New top-level name: `RedeemOption` (anyAppleOS 27.0; unavailable on watchOS, tvOS).
// - AppStore: `presentOfferCodeRedeemSheet(in:)` (iOS) and `presentOfferCodeRedeemSheet(from: NSViewController)`
//   (macOS) deprecated in 27.0 ("Use `presentOfferCodeRedeemSheet(from:options:)` instead."); new
//   `presentOfferCodeRedeemSheet(from: UIViewController, options:)` (iOS/macCatalyst/visionOS 27.0) and
//   `presentOfferCodeRedeemSheet(from: NSWindow, options:)` (macOS 27.0), both returning
//   `VerificationResult<Transaction>`; the iOS sheet now sits after RedeemOption, where the interface declares it.
//   New to the macOS interface: `presentMerchandising(_:from: NSWindow)` (macOS 26.2).
//   `AppStore.Platform.managed` (back-deployed; no own @available).
// - AppStoreMerchandisingKind: the macOS interface now has the iOS form (iOS 26.0, tvOS 26.0, macOS 26.2), so the
//   macOS 26.0 form (unavailable on macOS, two overloads unavailable everywhere) is gone, and so is the
//   macOS-only `AppStoreOfferKind`, which the macOS 27.0 interface no longer declares.
// - The 26.2 additions the macOS 26.0 interface lacked (`AppStore.ageRatingCode`,
//   `RenewalInfo.AdvancedCommerceInfo.Item.priceIncreaseInfo`, `…Item.PriceIncreaseInfo`) are in both interfaces
//   now: no longer behind `#if !IOSIAP_STOREKIT_CHECK_MACOS`.
// - Product: `ProductType.subscriptionBundle` and `.subscriptionSuite` (27.0); `PurchaseOption.billingPlanType(_:)`
//   (26.4); `PurchaseError.paymentMethodBindingConfigurationRequired` (26.5); `PurchaseResult` declares `Sendable`
//   in its declaration (its separate `extension Product.PurchaseResult: Sendable {}` is gone).
// - Product.SubscriptionInfo: `pricingTerms` (26.4), `bundledSubscriptions` (27.0); the 26.4 extension with
//   `BillingPeriod`, `BillingPlanType`, `CommitmentInfo`, `PricingTerms`; `BundledSubscription` (27.0).
// - RenewalInfo: `ExpirationReason.unbundled` (back-deployed, iOS 15.0); `CommitmentInfo` (26.4); `bundleProductID`,
//   `bundleSubscriptionGroupID`, `bundleOriginalTransactionID`, `willUnbundle` (back-deployed, iOS 15.0);
//   `commitmentInfo`, `renewalBillingPlanType` (26.4).
// - Transaction: `RevocationReason.upgradedToBundle`, `OwnershipType.assigned` (back-deployed, iOS 15.0);
//   `RevocationType` (26.4, with `assignmentRevocation`, back-deployed, iOS 26.4); `CommitmentInfo` (26.4);
//   `revocationType` (26.4), `revocationTypeStringRepresentation` (deprecated in 26.4), `revocationPercentage`
//   (back-deployed, iOS 15.0); `bundleProductID`, `bundleSubscriptionGroupID`, `previousOriginalTransactionID`,
//   `bundleTransactionID`, `bundleOriginalTransactionID` (back-deployed, iOS 15.0); `billingPlanType`,
//   `commitmentInfo` (26.4); `RefundRequestError.ineligible` (27.0); `AdvancedCommerceInfo.Partner` and
//   `…Item.Details.partners` (27.0).
// - AppTransaction: `StoreType` (27.0), `revocationDate` (back-deployed, iOS 16.0), `storeType` (27.0),
//   `storeTypeStringRepresentation` (deprecated in 27.0), `all` and `AppTransactions` (27.0).
// - StoreKitError: `invalidPresentationContext` (27.0).
// - The `@available` lines the compiler writes on synthesized typealiases (RawValue, ID, Element, FormatInput,
//   FormatOutput) list macOS first now (`@available(macOS 12.0, iOS 15.0, ...)`), and those with `unavailable` lines
//   list them macOS, tvOS, watchOS(, visionOS): same versions, order as the 27.0 interfaces write it.
// - Transaction.storefrontCountryCode: neither 27.0 interface has an `@available(iOS, ...)` deprecation line (the
//   macOS 26.0 one had); the two 27.0 interfaces also agree on every deprecation message's wording.
// Removed from the 26.2 transcription's scope: only AppStoreOfferKind and the macOS 26.0 AppStoreMerchandisingKind's
// two everywhere-unavailable `subscriptionBundle(_: [Product.ID])` / `(_: [Product])` overloads (macOS).
//
// How it is written:
// - Order follows the iOS interface; a declaration only the macOS interface has sits next to its iOS counterpart.
// - Kinds are kept (struct / non-frozen enum / `@frozen` enum / protocol / typealias), with generic parameters,
//   conformances and every `@available` line (deprecations, messages, renames). The module is built with
//   -enable-library-evolution, so switching over a non-frozen enum needs `@unknown default` as against Apple's.
// - `@inlinable`, `@backDeployed(...)`, `@_alwaysEmitIntoClient` bodies are dropped with the attribute; the public
//   declaration stays, with its `@available` lines. A `static let` the interface declares without value is
//   `= unimplemented()`.
// - `@available(anyAppleOS 27.0, *)` (RedeemOption) needs a compiler with the AnyAppleOSAvailability feature; it is
//   written under `#if hasFeature(AnyAppleOSAvailability)`, with `@available(iOS 27.0, macOS 27.0, tvOS 27.0,
//   watchOS 27.0, visionOS 27.0, *)` (the same versions, per platform) in the `#else` branch that Swift 6.3 takes.
// - Platforms: Linux ignores platform versions and platform-specific `unavailable`, so scripts/check-storekit.sh
//   passes IOSIAP_STOREKIT_CHECK_MACOS / _TVOS / _VISIONOS (none for iOS), and a declaration marked
//   `@available(<P>, unavailable)` is preceded by `#if IOSIAP_STOREKIT_CHECK_<P>` `@available(*, unavailable)`.
//   tvOS and visionOS facts are the iOS interface's attributes. Declarations only the iOS interface has (UIKit
//   forms) are in `#if !IOSIAP_STOREKIT_CHECK_MACOS`, those only the macOS interface has (AppKit forms) in
//   `#if IOSIAP_STOREKIT_CHECK_MACOS` / `#else` of it; inside those blocks the other side's `unavailable` markers
//   would be dead and are not written. Transaction.storefrontCountryCode has no `@available(iOS, ...)` line in
//   either interface, and none here.
// - Versions (`introduced:`) are NOT checked on Linux: an API newer than the deployment target used without
//   `#available` is not caught here.
//
// Left out, and why (one block):
// - Needs a module that does not exist here:
//   * `VerificationResult.signature` in the three `where SignedType == Transaction / AppTransaction /
//     Product.SubscriptionInfo.RenewalInfo` extensions: its type is `CryptoKit.P256.Signing.ECDSASignature`
//     (CryptoKit). The other members of those extensions are here.
//   * `StoreDownloaderExtension`'s refinement `: BackgroundAssets.ManagedDownloaderExtension` (BackgroundAssets):
//     the protocol itself is declared (it is a top-level name), without that refinement.
//   * `extension Foundation.NSXPCConnection: @unchecked @retroactive Sendable` (new in both 27.0 interfaces): a
//     conformance of a Foundation class, not a StoreKit name, and swift-corelibs-foundation on Linux has no
//     NSXPCConnection.
//   No member was left out for a missing UIKit/AppKit class: the UIKit stub's UIScene, UIWindowScene,
//   UIViewController and the AppKit stub's NSWindow, NSViewController cover every UI parameter (none was added).
// - Not public: the `@usableFromInline internal enum BackingValue` with its extensions (its `Decodable`,
//   `Encodable`, `CustomStringConvertible`, `CustomDebugStringConvertible`, `Sendable` conformances and subscripts
//   belong to an internal type), every `backing` / `…Storage` stored property (BundledSubscription's `backing` and
//   `priceLocaleStorage` included), the internal
//   `init?(_ value: BackingValue)` extensions of Swift/Foundation/StoreKit types, `Foundation.Date.init(unixEpochMS:)`,
//   `Product.SubscriptionPeriod.init(from8601String:)` / `init(unit:value:)`, `Unit.calendarComponent` /
//   `dynamicCalendarComponent`, `Product.priceLocaleInternal`, `PurchaseOption.custom(key:value: BackingValue)`,
//   `Storefront.init(iso3ACountryCode:id:locale:)`, `AppStore.canMakePaymentsAsyncUsableFromInline`.
// - `@_implements(AsyncSequence / AsyncIteratorProtocol, Failure)` typealiases (`= Never`): the compiler infers
//   `Failure == Never` from the non-throwing `next()`.

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

// MARK: - InvalidRequestError

@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
public struct InvalidRequestError: Error {
    public let code: Int64
    public let message: String
}

// MARK: - SubscriptionPeriod (top-level typealias) and Product.SubscriptionPeriod

@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
public typealias SubscriptionPeriod = Product.SubscriptionPeriod

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
extension DateComponents {
    public init(subscriptionPeriod period: Product.SubscriptionPeriod) { fatalError() }
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
        public static func == (a: Product.SubscriptionPeriod.Unit.FormatStyle, b: Product.SubscriptionPeriod.Unit.FormatStyle) -> Bool { fatalError() }
        @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
        public typealias FormatInput = Product.SubscriptionPeriod.Unit
        @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
        public typealias FormatOutput = String
        public func hash(into hasher: inout Hasher) { fatalError() }
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

// MARK: - PurchaseIntent (unavailable on tvOS, watchOS, visionOS)

#if IOSIAP_STOREKIT_CHECK_TVOS || IOSIAP_STOREKIT_CHECK_VISIONOS
@available(*, unavailable)
#endif
@available(iOS 16.4, macOS 14.4, macCatalyst 16.4, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
public struct PurchaseIntent: Equatable, Sendable {
    public let product: Product
    #if IOSIAP_STOREKIT_CHECK_TVOS || IOSIAP_STOREKIT_CHECK_VISIONOS
    @available(*, unavailable)
    #endif
    @available(iOS 18.0, macOS 15.0, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @available(visionOS, unavailable)
    public let offer: Product.SubscriptionOffer?
    #if IOSIAP_STOREKIT_CHECK_TVOS || IOSIAP_STOREKIT_CHECK_VISIONOS
    @available(*, unavailable)
    #endif
    @available(iOS 16.4, macOS 14.4, macCatalyst 16.4, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @available(visionOS, unavailable)
    public var id: Product.ID { fatalError() }
    public static func == (a: PurchaseIntent, b: PurchaseIntent) -> Bool { fatalError() }
}

#if IOSIAP_STOREKIT_CHECK_TVOS || IOSIAP_STOREKIT_CHECK_VISIONOS
@available(*, unavailable)
#endif
@available(iOS 18.0, macOS 15.0, macCatalyst 18.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
extension PurchaseIntent: Identifiable {
    #if IOSIAP_STOREKIT_CHECK_TVOS || IOSIAP_STOREKIT_CHECK_VISIONOS
    @available(*, unavailable)
    #endif
    @available(macOS 15.0, iOS 18.0, macCatalyst 18.0, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
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
            @available(macOS 14.4, iOS 16.4, macCatalyst 16.4, *)
            @available(tvOS, unavailable)
            @available(watchOS, unavailable)
            @available(visionOS, unavailable)
            public typealias Element = PurchaseIntent.PurchaseIntents.Element
        }
        public func makeAsyncIterator() -> PurchaseIntent.PurchaseIntents.AsyncIterator { fatalError() }
    }
    public static var intents: PurchaseIntent.PurchaseIntents { fatalError() }
}

// MARK: - RedeemOption and the offer-code redeem sheet (27.0; RedeemOption unavailable on watchOS, tvOS)

// The interface writes `@available(anyAppleOS 27.0, *)`, which a compiler accepts only with the
// AnyAppleOSAvailability feature (Swift 6.3 asks for -enable-experimental-feature): without it, the same versions
// spelled per platform.
#if hasFeature(AnyAppleOSAvailability)
@available(anyAppleOS 27.0, *)
#else
@available(iOS 27.0, macOS 27.0, tvOS 27.0, watchOS 27.0, visionOS 27.0, *)
#endif
#if IOSIAP_STOREKIT_CHECK_TVOS
@available(*, unavailable)
#endif
@available(watchOS, unavailable)
@available(tvOS, unavailable)
public struct RedeemOption: Equatable, Hashable, Sendable {
    public static func == (a: RedeemOption, b: RedeemOption) -> Bool { fatalError() }
    public func hash(into hasher: inout Hasher) { fatalError() }
    public var hashValue: Int { fatalError() }
}

#if !IOSIAP_STOREKIT_CHECK_MACOS
// iOS interface: the `(in:)` scene form, deprecated in 27.0, and the `(from:options:)` view-controller form.
extension AppStore {
    #if IOSIAP_STOREKIT_CHECK_TVOS
    @available(*, unavailable)
    #endif
    @available(iOS, introduced: 16.0, deprecated: 27.0, message: "Use `presentOfferCodeRedeemSheet(from:options:)` instead.")
    @available(macCatalyst, introduced: 16.0, deprecated: 27.0, message: "Use `presentOfferCodeRedeemSheet(from:options:)` instead.")
    @available(visionOS, introduced: 1.0, deprecated: 27.0, message: "Use `presentOfferCodeRedeemSheet(from:options:)` instead.")
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    @MainActor public static func presentOfferCodeRedeemSheet(in scene: UIWindowScene) async throws { fatalError() }
    #if IOSIAP_STOREKIT_CHECK_TVOS
    @available(*, unavailable)
    #endif
    @available(iOS 27.0, macCatalyst 27.0, visionOS 27.0, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    @MainActor public static func presentOfferCodeRedeemSheet(from viewController: UIViewController, options: Set<RedeemOption> = []) async throws -> VerificationResult<Transaction> { fatalError() }
}
#else
// macOS interface: the `(from:)` view-controller form, deprecated in 27.0, and the `(from:options:)` window form.
extension AppStore {
    @available(iOS, unavailable)
    @available(macOS, introduced: 15.0, deprecated: 27.0, message: "Use `presentOfferCodeRedeemSheet(from:options:)` instead.")
    @available(visionOS, unavailable)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    @MainActor public static func presentOfferCodeRedeemSheet(from controller: NSViewController) async throws { fatalError() }
    @available(macOS 27.0, *)
    @available(iOS, unavailable)
    @available(visionOS, unavailable)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    @MainActor public static func presentOfferCodeRedeemSheet(from window: NSWindow, options: Set<RedeemOption> = []) async throws -> VerificationResult<Transaction> { fatalError() }
}
#endif

// MARK: - Message (unavailable on macOS, tvOS, watchOS)

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
        @available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
        @available(macOS, unavailable)
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
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

// iOS interface only (it takes a UIKit scene); the macOS 27.0 interface declares Message without it.
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
            #if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
            @available(*, unavailable)
            #endif
            @available(iOS 16.0, macCatalyst 16.0, visionOS 1.0, *)
            @available(macOS, unavailable)
            @available(tvOS, unavailable)
            @available(watchOS, unavailable)
            public typealias Element = Message.Messages.Element
        }
        public func makeAsyncIterator() -> Message.Messages.AsyncIterator { fatalError() }
    }
    public static var messages: Message.Messages { fatalError() }
}

// MARK: - VerificationResult: JWS accessors (their `signature: CryptoKit.P256.Signing.ECDSASignature` left out)

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

// MARK: - Product.SubscriptionInfo.RenewalInfo.AdvancedCommerceInfo

@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
extension Product.SubscriptionInfo.RenewalInfo {
    @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
    public struct AdvancedCommerceInfo: Equatable, Hashable, Sendable {
        public struct Item: Equatable, Hashable, Sendable {
            public typealias Details = Transaction.AdvancedCommerceInfo.Item.Details
            public let details: Product.SubscriptionInfo.RenewalInfo.AdvancedCommerceInfo.Item.Details
            @available(iOS 26.2, macOS 26.2, tvOS 26.2, watchOS 26.2, visionOS 26.2, *)
            public let priceIncreaseInfo: Product.SubscriptionInfo.RenewalInfo.AdvancedCommerceInfo.Item.PriceIncreaseInfo?
            public static func == (a: Product.SubscriptionInfo.RenewalInfo.AdvancedCommerceInfo.Item, b: Product.SubscriptionInfo.RenewalInfo.AdvancedCommerceInfo.Item) -> Bool { fatalError() }
            public func hash(into hasher: inout Hasher) { fatalError() }
            public var hashValue: Int { fatalError() }
        }
        public let consistencyToken: String
        public let requestReferenceID: String
        public let taxCode: String
        public let description: String
        public let displayName: String
        public let period: SubscriptionPeriod
        public let items: [Product.SubscriptionInfo.RenewalInfo.AdvancedCommerceInfo.Item]
        public static func == (a: Product.SubscriptionInfo.RenewalInfo.AdvancedCommerceInfo, b: Product.SubscriptionInfo.RenewalInfo.AdvancedCommerceInfo) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
}

@available(iOS 26.2, macOS 26.2, tvOS 26.2, watchOS 26.2, visionOS 26.2, *)
extension Product.SubscriptionInfo.RenewalInfo.AdvancedCommerceInfo.Item {
    public struct PriceIncreaseInfo: Equatable, Hashable, Sendable {
        public struct Status: RawRepresentable, Equatable, Hashable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { fatalError() }
            public static let pending: Product.SubscriptionInfo.RenewalInfo.AdvancedCommerceInfo.Item.PriceIncreaseInfo.Status = unimplemented()
            public static let accepted: Product.SubscriptionInfo.RenewalInfo.AdvancedCommerceInfo.Item.PriceIncreaseInfo.Status = unimplemented()
            public static let scheduled: Product.SubscriptionInfo.RenewalInfo.AdvancedCommerceInfo.Item.PriceIncreaseInfo.Status = unimplemented()
            @available(macOS 26.2, iOS 26.2, tvOS 26.2, watchOS 26.2, visionOS 26.2, *)
            public typealias RawValue = String
        }
        public let status: Product.SubscriptionInfo.RenewalInfo.AdvancedCommerceInfo.Item.PriceIncreaseInfo.Status
        public let price: Decimal
        public let dependentSKUs: [String]
        public static func == (a: Product.SubscriptionInfo.RenewalInfo.AdvancedCommerceInfo.Item.PriceIncreaseInfo, b: Product.SubscriptionInfo.RenewalInfo.AdvancedCommerceInfo.Item.PriceIncreaseInfo) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
}

// MARK: - ExternalLinkAccount (members transcribed; unavailable on macOS, watchOS, visionOS)

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

// MARK: - StoreDownloaderExtension (its refinement of BackgroundAssets.ManagedDownloaderExtension left out)

@available(iOS 26.0, macOS 26.0, tvOS 26.0, visionOS 26.0, *)
@available(watchOS, unavailable)
public protocol StoreDownloaderExtension {
}

// MARK: - Product.PromotionInfo (iOS only: unavailable on visionOS, macOS, tvOS, watchOS)

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
            @available(macOS, unavailable, introduced: 12.0)
            @available(tvOS, unavailable, introduced: 15.0)
            @available(watchOS, unavailable, introduced: 8.0)
            @available(visionOS, unavailable)
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

// MARK: - SubscriptionInfo (top-level typealias) and Product.SubscriptionInfo

@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
public typealias SubscriptionInfo = Product.SubscriptionInfo

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    public struct SubscriptionInfo: Equatable, Hashable {
        public let introductoryOffer: Product.SubscriptionOffer?
        public let promotionalOffers: [Product.SubscriptionOffer]
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public let winBackOffers: [Product.SubscriptionOffer]
        public let subscriptionGroupID: String
        public let subscriptionPeriod: Product.SubscriptionPeriod
        @available(iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
        public let pricingTerms: [Product.SubscriptionInfo.PricingTerms]
        @available(iOS 27.0, macOS 27.0, tvOS 27.0, watchOS 27.0, visionOS 27.0, *)
        public let bundledSubscriptions: [Product.SubscriptionInfo.BundledSubscription]
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

@available(iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
extension Product.SubscriptionInfo {
    @available(iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
    public typealias BillingPeriod = SubscriptionPeriod
    @available(iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
    public struct BillingPlanType: Equatable, Hashable, RawRepresentable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { fatalError() }
        public static let monthly: Product.SubscriptionInfo.BillingPlanType = unimplemented()
        public static let upFront: Product.SubscriptionInfo.BillingPlanType = unimplemented()
        @available(macOS 26.4, iOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
        public typealias RawValue = String
    }
    @available(iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
    public struct CommitmentInfo: Hashable, Sendable {
        public let price: Decimal
        public let displayPrice: String
        public let period: SubscriptionPeriod
        public static func == (a: Product.SubscriptionInfo.CommitmentInfo, b: Product.SubscriptionInfo.CommitmentInfo) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
    @available(iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
    public struct PricingTerms: Hashable, Sendable {
        public let billingPrice: Decimal
        public let billingDisplayPrice: String
        public let billingPeriod: Product.SubscriptionInfo.BillingPeriod
        public let billingPlanType: Product.SubscriptionInfo.BillingPlanType
        public let commitmentInfo: Product.SubscriptionInfo.CommitmentInfo
        public let subscriptionOffers: [Product.SubscriptionOffer]
        public subscript(offers type: Product.SubscriptionOffer.OfferType) -> [Product.SubscriptionOffer] { fatalError() }
        public static func == (a: Product.SubscriptionInfo.PricingTerms, b: Product.SubscriptionInfo.PricingTerms) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
}

// MARK: - Transaction.AdvancedCommerceInfo

extension Transaction {
    @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
    public struct AdvancedCommerceInfo: Equatable, Hashable, Sendable {
        public struct Item: Equatable, Hashable, Sendable {
            public struct Details: Equatable, Hashable, Sendable {
                public let sku: String
                public let displayName: String
                public let description: String
                public let offer: Transaction.AdvancedCommerceInfo.Offer?
                public let price: Decimal
                @available(iOS 27.0, macOS 27.0, tvOS 27.0, watchOS 27.0, visionOS 27.0, *)
                public let partners: [Transaction.AdvancedCommerceInfo.Partner]
                public static func == (a: Transaction.AdvancedCommerceInfo.Item.Details, b: Transaction.AdvancedCommerceInfo.Item.Details) -> Bool { fatalError() }
                public func hash(into hasher: inout Hasher) { fatalError() }
                public var hashValue: Int { fatalError() }
            }
            public let details: Transaction.AdvancedCommerceInfo.Item.Details
            public let refunds: [Transaction.AdvancedCommerceInfo.Refund]?
            public let revocationDate: Date?
            public static func == (a: Transaction.AdvancedCommerceInfo.Item, b: Transaction.AdvancedCommerceInfo.Item) -> Bool { fatalError() }
            public func hash(into hasher: inout Hasher) { fatalError() }
            public var hashValue: Int { fatalError() }
        }
        @available(iOS 27.0, macOS 27.0, tvOS 27.0, watchOS 27.0, visionOS 27.0, *)
        public struct Partner: Equatable, Hashable, Sendable {
            public let id: String
            public let name: String?
            public static func == (a: Transaction.AdvancedCommerceInfo.Partner, b: Transaction.AdvancedCommerceInfo.Partner) -> Bool { fatalError() }
            public func hash(into hasher: inout Hasher) { fatalError() }
            public var hashValue: Int { fatalError() }
        }
        public struct Offer: Equatable, Hashable, Sendable {
            public struct Reason: Equatable, Hashable, RawRepresentable, Sendable {
                public let rawValue: String
                public init(rawValue: String) { fatalError() }
                public static let acquisition: Transaction.AdvancedCommerceInfo.Offer.Reason = unimplemented()
                public static let retention: Transaction.AdvancedCommerceInfo.Offer.Reason = unimplemented()
                public static let winBack: Transaction.AdvancedCommerceInfo.Offer.Reason = unimplemented()
                @available(macOS 15.4, iOS 18.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
                public typealias RawValue = String
            }
            public let price: Decimal
            public let period: SubscriptionPeriod
            public let periodCount: Int
            public let reason: Transaction.AdvancedCommerceInfo.Offer.Reason
            public static func == (a: Transaction.AdvancedCommerceInfo.Offer, b: Transaction.AdvancedCommerceInfo.Offer) -> Bool { fatalError() }
            public func hash(into hasher: inout Hasher) { fatalError() }
            public var hashValue: Int { fatalError() }
        }
        public struct Refund: Equatable, Hashable, Sendable {
            public struct Reason: Equatable, Hashable, RawRepresentable, Sendable {
                public let rawValue: String
                public init(rawValue: String) { fatalError() }
                public static let legal: Transaction.AdvancedCommerceInfo.Refund.Reason = unimplemented()
                public static let modifyItems: Transaction.AdvancedCommerceInfo.Refund.Reason = unimplemented()
                public static let unintended: Transaction.AdvancedCommerceInfo.Refund.Reason = unimplemented()
                public static let unfulfilled: Transaction.AdvancedCommerceInfo.Refund.Reason = unimplemented()
                public static let unsatisfied: Transaction.AdvancedCommerceInfo.Refund.Reason = unimplemented()
                public static let other: Transaction.AdvancedCommerceInfo.Refund.Reason = unimplemented()
                @available(macOS 15.4, iOS 18.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
                public typealias RawValue = String
            }
            public struct RefundType: Equatable, Hashable, RawRepresentable, Sendable {
                public let rawValue: String
                public init(rawValue: String) { fatalError() }
                public static let custom: Transaction.AdvancedCommerceInfo.Refund.RefundType = unimplemented()
                public static let proRated: Transaction.AdvancedCommerceInfo.Refund.RefundType = unimplemented()
                public static let full: Transaction.AdvancedCommerceInfo.Refund.RefundType = unimplemented()
                @available(macOS 15.4, iOS 18.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
                public typealias RawValue = String
            }
            public let reason: Transaction.AdvancedCommerceInfo.Refund.Reason
            public let type: Transaction.AdvancedCommerceInfo.Refund.RefundType
            public let date: Date
            public let amount: Decimal
            public static func == (a: Transaction.AdvancedCommerceInfo.Refund, b: Transaction.AdvancedCommerceInfo.Refund) -> Bool { fatalError() }
            public func hash(into hasher: inout Hasher) { fatalError() }
            public var hashValue: Int { fatalError() }
        }
        public let requestReferenceID: String
        public let estimatedTax: Decimal
        public let taxRate: Decimal
        public let taxCode: String
        public let taxExclusivePrice: Decimal
        public let description: String?
        public let displayName: String?
        public let period: SubscriptionPeriod?
        public let items: [Transaction.AdvancedCommerceInfo.Item]
        public static func == (a: Transaction.AdvancedCommerceInfo, b: Transaction.AdvancedCommerceInfo) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
}

// MARK: - AppTransaction

@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
public struct AppTransaction: Sendable {
    @available(iOS 27.0, macOS 27.0, tvOS 27.0, watchOS 27.0, visionOS 27.0, *)
    public struct StoreType: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { fatalError() }
        public static let consumer: AppTransaction.StoreType = unimplemented()
        public static let education: AppTransaction.StoreType = unimplemented()
        public static let enterprise: AppTransaction.StoreType = unimplemented()
        @available(macOS 27.0, iOS 27.0, tvOS 27.0, watchOS 27.0, visionOS 27.0, *)
        public typealias RawValue = String
    }
    public var jsonRepresentation: Data { fatalError() }
    public let appID: UInt64?
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
    public var appTransactionID: String { fatalError() }
    public let appVersion: String
    public let appVersionID: UInt64?
    public let bundleID: String
    public let environment: AppStore.Environment
    public let originalAppVersion: String
    public let originalPurchaseDate: Date
    @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
    public let originalPlatform: AppStore.Platform
    @available(iOS, introduced: 16.0, deprecated: 18.4, message: "Use the originalPlatform property instead.")
    @available(macOS, introduced: 13.0, deprecated: 15.4, message: "Use the originalPlatform property instead.")
    @available(tvOS, introduced: 16.0, deprecated: 18.4, message: "Use the originalPlatform property instead.")
    @available(watchOS, introduced: 9.0, deprecated: 11.4, message: "Use the originalPlatform property instead.")
    @available(visionOS, introduced: 1.0, deprecated: 2.4, message: "Use the originalPlatform property instead.")
    public var originalPlatformStringRepresentation: String { fatalError() }
    public let preorderDate: Date?
    public let deviceVerification: Data
    public let deviceVerificationNonce: UUID
    // Back-deployed in the SDK (`@backDeployed(before: iOS 27.0, macOS 27.0, ...)`), hence usable from iOS 16.
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
    public var revocationDate: Date? { fatalError() }
    public let signedDate: Date
    @available(iOS 27.0, macOS 27.0, tvOS 27.0, watchOS 27.0, visionOS 27.0, *)
    public let storeType: AppTransaction.StoreType
    @available(iOS, introduced: 16.0, deprecated: 27.0, message: "Use the storeType property instead.")
    @available(macOS, introduced: 13.0, deprecated: 27.0, message: "Use the storeType property instead.")
    @available(tvOS, introduced: 16.0, deprecated: 27.0, message: "Use the storeType property instead.")
    @available(watchOS, introduced: 9.0, deprecated: 27.0, message: "Use the storeType property instead.")
    @available(visionOS, introduced: 1.0, deprecated: 27.0, message: "Use the storeType property instead.")
    public var storeTypeStringRepresentation: String { fatalError() }
    @available(iOS 27.0, macOS 27.0, tvOS 27.0, watchOS 27.0, visionOS 27.0, *)
    public static var all: AppTransaction.AppTransactions { fatalError() }
    public static var shared: VerificationResult<AppTransaction> { get async throws { fatalError() } }
    public static func refresh() async throws -> VerificationResult<AppTransaction> { fatalError() }
}

extension AppTransaction {
    @available(iOS 27.0, macOS 27.0, tvOS 27.0, watchOS 27.0, visionOS 27.0, *)
    public struct AppTransactions: AsyncSequence, Sendable {
        public typealias Element = VerificationResult<AppTransaction>
        public struct AsyncIterator: AsyncIteratorProtocol {
            public mutating func next() async -> VerificationResult<AppTransaction>? { fatalError() }
            @available(macOS 27.0, iOS 27.0, tvOS 27.0, watchOS 27.0, visionOS 27.0, *)
            public typealias Element = VerificationResult<AppTransaction>
        }
        public func makeAsyncIterator() -> AppTransaction.AppTransactions.AsyncIterator { fatalError() }
    }
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

// MARK: - Transaction

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public struct Transaction: Identifiable {
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    public struct Reason: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { fatalError() }
        public static let purchase: Transaction.Reason = unimplemented()
        public static let renewal: Transaction.Reason = unimplemented()
        @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
        public typealias RawValue = String
    }
    public struct RevocationReason: RawRepresentable, Equatable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { fatalError() }
        public static let developerIssue: Transaction.RevocationReason = unimplemented()
        public static let other: Transaction.RevocationReason = unimplemented()
        // Back-deployed in the SDK (`@backDeployed(before: iOS 27.0, macOS 27.0, ...)`), hence usable from iOS 15.
        @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
        public static var upgradedToBundle: Transaction.RevocationReason { fatalError() }
        @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
        public typealias RawValue = Int
    }
    @available(iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
    public struct RevocationType: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { fatalError() }
        public static let familyRevocation: Transaction.RevocationType = unimplemented()
        public static let fullRefund: Transaction.RevocationType = unimplemented()
        public static let proratedRefund: Transaction.RevocationType = unimplemented()
        // Back-deployed in the SDK (`@backDeployed(before: iOS 27.0, macOS 27.0, ...)`), hence usable from iOS 26.4.
        @available(iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
        public static var assignmentRevocation: Transaction.RevocationType { fatalError() }
        @available(macOS 26.4, iOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
        public typealias RawValue = String
    }
    public struct OfferType: RawRepresentable, Equatable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { fatalError() }
        public static let introductory: Transaction.OfferType = unimplemented()
        public static let promotional: Transaction.OfferType = unimplemented()
        public static let code: Transaction.OfferType = unimplemented()
        // Back-deployed in the SDK (`@backDeployed(before: iOS 18.0, macOS 15.0, ...)`), hence usable from iOS 15.
        @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
        public static var winBack: Transaction.OfferType { fatalError() }
        @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
        public typealias RawValue = Int
    }
    public struct OwnershipType: RawRepresentable, Equatable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { fatalError() }
        public static let purchased: Transaction.OwnershipType = unimplemented()
        public static let familyShared: Transaction.OwnershipType = unimplemented()
        // Back-deployed in the SDK (`@backDeployed(before: iOS 27.0, macOS 27.0, ...)`), hence usable from iOS 15.
        @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
        public static var assigned: Transaction.OwnershipType { fatalError() }
        @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
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
            // Back-deployed in the SDK (`@backDeployed(before: iOS 26.0, macOS 26.0, ...)`); no own @available.
            public static var oneTime: Transaction.Offer.PaymentMode { fatalError() }
            @available(macOS 14.2, iOS 17.2, tvOS 17.2, watchOS 10.2, visionOS 1.1, *)
            public typealias RawValue = String
        }
        public let id: String?
        public let type: Transaction.OfferType
        public let paymentMode: Transaction.Offer.PaymentMode?
        @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
        public let period: Product.SubscriptionPeriod?
        public static func == (a: Transaction.Offer, b: Transaction.Offer) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
    @available(iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
    public struct CommitmentInfo: Equatable, Hashable, Sendable {
        public let billingPeriodNumber: UInt64
        public let totalBillingPeriods: UInt64
        public let expirationDate: Date
        public let price: Decimal
        public static func == (a: Transaction.CommitmentInfo, b: Transaction.CommitmentInfo) -> Bool { fatalError() }
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
    @available(iOS, introduced: 15.0, deprecated: 17.2, renamed: "offer.type", message: "Use the offer property instead.")
    @available(macOS, introduced: 12.0, deprecated: 14.2, renamed: "offer.type", message: "Use the offer property instead.")
    @available(tvOS, introduced: 15.0, deprecated: 17.2, renamed: "offer.type", message: "Use the offer property instead.")
    @available(watchOS, introduced: 8.0, deprecated: 10.2, renamed: "offer.type", message: "Use the offer property instead.")
    @available(visionOS, introduced: 1.0, deprecated: 1.1, renamed: "offer.type", message: "Use the offer property instead.")
    public var offerType: Transaction.OfferType? { fatalError() }
    @available(iOS, introduced: 15.0, deprecated: 17.2, renamed: "offer.id", message: "Use the offer property instead.")
    @available(macOS, introduced: 12.0, deprecated: 14.2, renamed: "offer.id", message: "Use the offer property instead.")
    @available(tvOS, introduced: 15.0, deprecated: 17.2, renamed: "offer.id", message: "Use the offer property instead.")
    @available(watchOS, introduced: 8.0, deprecated: 10.2, renamed: "offer.id", message: "Use the offer property instead.")
    @available(visionOS, introduced: 1.0, deprecated: 1.1, renamed: "offer.id", message: "Use the offer property instead.")
    public var offerID: String? { fatalError() }
    @available(iOS, introduced: 15.0, deprecated: 17.2, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead.")
    @available(macOS, introduced: 12.0, deprecated: 14.2, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead.")
    @available(tvOS, introduced: 15.0, deprecated: 17.2, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead.")
    @available(watchOS, introduced: 8.0, deprecated: 10.2, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead.")
    @available(visionOS, introduced: 1.0, deprecated: 1.1, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead.")
    public var offerPaymentModeStringRepresentation: String? { fatalError() }
    @available(iOS, introduced: 15.0, deprecated: 18.4, message: "Use the offer property instead.")
    @available(macOS, introduced: 12.0, deprecated: 15.4, message: "Use the offer property instead.")
    @available(tvOS, introduced: 15.0, deprecated: 18.4, message: "Use the offer property instead.")
    @available(watchOS, introduced: 8.0, deprecated: 11.4, message: "Use the offer property instead.")
    @available(visionOS, introduced: 1.0, deprecated: 2.4, message: "Use the offer property instead.")
    public var offerPeriodStringRepresentation: String? { fatalError() }
    public let revocationDate: Date?
    public let revocationReason: Transaction.RevocationReason?
    @available(iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
    public let revocationType: Transaction.RevocationType?
    @available(iOS, introduced: 15.0, deprecated: 26.4, message: "Use the revocationType property instead")
    @available(macOS, introduced: 12.0, deprecated: 26.4, message: "Use the revocationType property instead")
    @available(tvOS, introduced: 15.0, deprecated: 26.4, message: "Use the revocationType property instead")
    @available(watchOS, introduced: 8.0, deprecated: 26.4, message: "Use the revocationType property instead")
    @available(visionOS, introduced: 1.0, deprecated: 26.4, message: "Use the revocationType property instead")
    public var revocationTypeStringRepresentation: String? { fatalError() }
    // Back-deployed in the SDK (`@backDeployed(before: iOS 26.4, macOS 26.4, ...)`), hence usable from iOS 15.
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
    public var revocationPercentage: Decimal? { fatalError() }
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
    // Neither 27.0 interface has an `@available(iOS, ...)` line here.
    #if IOSIAP_STOREKIT_CHECK_VISIONOS
    @available(*, unavailable)
    #endif
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
    // The five bundle accessors are back-deployed in the SDK (`@backDeployed(before: iOS 27.0, macOS 27.0, ...)`),
    // hence usable from iOS 15.
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
    public var bundleProductID: String? { fatalError() }
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
    public var bundleSubscriptionGroupID: String? { fatalError() }
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
    public var previousOriginalTransactionID: UInt64? { fatalError() }
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
    public var bundleTransactionID: String? { fatalError() }
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
    public var bundleOriginalTransactionID: String? { fatalError() }
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
    public var appTransactionID: String { fatalError() }
    public let deviceVerification: Data
    public let deviceVerificationNonce: UUID
    public let ownershipType: Transaction.OwnershipType
    public let signedDate: Date
    @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
    public let advancedCommerceInfo: Transaction.AdvancedCommerceInfo?
    @available(iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
    public let billingPlanType: SubscriptionInfo.BillingPlanType?
    @available(iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
    public let commitmentInfo: Transaction.CommitmentInfo?
    public func finish() async { fatalError() }
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
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
            @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
            public typealias Element = VerificationResult<Transaction>
        }
        public func makeAsyncIterator() -> Transaction.Transactions.AsyncIterator { fatalError() }
    }
    public static var all: Transaction.Transactions { fatalError() }
    public static var currentEntitlements: Transaction.Transactions { fatalError() }
    @available(iOS, introduced: 15.0, deprecated: 18.4, message: "Use the currentEntitlements(for:) method instead.")
    @available(macOS, introduced: 12.0, deprecated: 15.4, message: "Use the currentEntitlements(for:) method instead.")
    @available(tvOS, introduced: 15.0, deprecated: 18.4, message: "Use the currentEntitlements(for:) method instead.")
    @available(watchOS, introduced: 8.0, deprecated: 11.4, message: "Use the currentEntitlements(for:) method instead.")
    @available(visionOS, introduced: 1.0, deprecated: 2.4, message: "Use the currentEntitlements(for:) method instead.")
    public static func currentEntitlement(for productID: String) async -> VerificationResult<Transaction>? { fatalError() }
    public static func latest(for productID: String) async -> VerificationResult<Transaction>? { fatalError() }
    public static var unfinished: Transaction.Transactions { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Transaction {
    public static var updates: Transaction.Transactions { fatalError() }
}

extension Transaction {
    @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
    public static func all(for productID: String) -> Transaction.Transactions { fatalError() }
    @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
    public static func currentEntitlements(for productID: String) -> Transaction.Transactions { fatalError() }
}

// Refund requests: the two enums exist everywhere (tvOS from 17.0). The sheet differs per platform:
// iOS/visionOS take a UIWindowScene (the static form `@MainActor`), tvOS has none (unavailable),
// macOS takes an NSViewController (the static form NOT `@MainActor`).
@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction {
    @available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
    public enum RefundRequestError: Error {
        case duplicateRequest
        case failed
        @available(iOS 27.0, macOS 27.0, tvOS 27.0, watchOS 27.0, visionOS 27.0, *)
        case ineligible
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

// MARK: - Storefront

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public struct Storefront: Identifiable, Sendable {
    public let countryCode: String
    public let id: String
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, macCatalyst 17.0, visionOS 1.0, *)
    public var currency: Locale.Currency? { fatalError() }
    public static var current: Storefront? { get async { fatalError() } }
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
    public typealias ID = String
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Storefront {
    public struct Storefronts: AsyncSequence, Sendable {
        public typealias Element = Storefront
        public struct AsyncIterator: AsyncIteratorProtocol {
            public mutating func next() async -> Storefront? { fatalError() }
            @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
            public typealias Element = Storefront
        }
        public func makeAsyncIterator() -> Storefront.Storefronts.AsyncIterator { fatalError() }
    }
    public static var updates: Storefront.Storefronts { fatalError() }
}

// MARK: - Product.PurchaseOption

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    public struct PurchaseOption: Equatable, Hashable, Sendable {
        public static func appAccountToken(_ token: UUID) -> Product.PurchaseOption { fatalError() }
        @available(iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
        public static func billingPlanType(_ type: Product.SubscriptionInfo.BillingPlanType) -> Product.PurchaseOption { fatalError() }
        public static func custom(key: String, value: String) -> Product.PurchaseOption { fatalError() }
        public static func custom(key: String, value: Double) -> Product.PurchaseOption { fatalError() }
        public static func custom(key: String, value: Bool) -> Product.PurchaseOption { fatalError() }
        public static func custom(key: String, value: Data) -> Product.PurchaseOption { fatalError() }
        @preconcurrency public static func onStorefrontChange(shouldContinuePurchase: @escaping @Sendable (Storefront) -> Bool) -> Product.PurchaseOption { fatalError() }
        @available(iOS, introduced: 15.0, deprecated: 26.0, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
        @available(macOS, introduced: 12.0, deprecated: 26.0, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
        @available(tvOS, introduced: 15.0, deprecated: 26.0, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
        @available(watchOS, introduced: 8.0, deprecated: 26.0, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
        @available(visionOS, introduced: 1.0, deprecated: 26.0, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
        public static func promotionalOffer(offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int) -> Product.PurchaseOption { fatalError() }
        @available(iOS, introduced: 17.4, deprecated: 26.0, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
        @available(macOS, introduced: 14.4, deprecated: 26.0, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
        @available(tvOS, introduced: 17.4, deprecated: 26.0, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
        @available(watchOS, introduced: 10.4, deprecated: 26.0, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
        @available(visionOS, introduced: 1.1, deprecated: 26.0, message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead")
        public static func promotionalOffer(offerID: String, signature: Product.SubscriptionOffer.Signature) -> Product.PurchaseOption { fatalError() }
        // Back-deployed in the SDK (`@backDeployed(before: iOS 26.0, macOS 26.0, ...)`), hence usable from iOS 15.
        // Note: returns an ARRAY of options.
        @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
        public static func promotionalOffer(_ offerID: String, compactJWS: String) -> [Product.PurchaseOption] { fatalError() }
        public static func quantity(_ quantity: Int) -> Product.PurchaseOption { fatalError() }
        public static func simulatesAskToBuyInSandbox(_ simulateAskToBuy: Bool) -> Product.PurchaseOption { fatalError() }
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public static func winBackOffer(_ offer: Product.SubscriptionOffer) -> Product.PurchaseOption { fatalError() }
        // Back-deployed in the SDK (`@backDeployed(before: iOS 18.4, macOS 15.4, ...)`); no own @available, so it
        // takes the enclosing extension's (iOS 15.0, macOS 12.0, ...).
        public static func introductoryOfferEligibility(compactJWS: String) -> Product.PurchaseOption { fatalError() }
        public static func == (a: Product.PurchaseOption, b: Product.PurchaseOption) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.PurchaseOption: CustomDebugStringConvertible {
    public var debugDescription: String { fatalError() }
}

// MARK: - Product.PurchaseResult, Product.PurchaseError, purchasing

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    public enum PurchaseResult: Sendable {
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
        @available(iOS 26.5, macOS 26.5, tvOS 26.5, watchOS 26.5, visionOS 26.5, *)
        case paymentMethodBindingConfigurationRequired
        public static func == (a: Product.PurchaseError, b: Product.PurchaseError) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
    #if IOSIAP_STOREKIT_CHECK_VISIONOS
    @available(*, unavailable)
    #endif
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
    @available(visionOS, unavailable)
    @MainActor public func purchase(options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult { fatalError() }
    #if !IOSIAP_STOREKIT_CHECK_MACOS
    @available(iOS 17.0, tvOS 17.0, macCatalyst 17.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor public func purchase(confirmIn scene: some UIScene, options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult { fatalError() }
    @available(iOS 18.2, tvOS 18.2, macCatalyst 18.2, visionOS 2.2, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    public func purchase(confirmIn viewController: UIViewController, options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult { fatalError() }
    #else
    @available(macOS 15.2, *)
    @available(iOS, unavailable)
    @available(tvOS, unavailable)
    @available(macCatalyst, unavailable)
    @available(visionOS, unavailable)
    @available(watchOS, unavailable)
    public func purchase(confirmIn window: NSWindow, options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult { fatalError() }
    #endif
}

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
        @available(iOS 27.0, macOS 27.0, tvOS 27.0, watchOS 27.0, visionOS 27.0, *)
        public static let subscriptionBundle: Product.ProductType = unimplemented()
        @available(iOS 27.0, macOS 27.0, tvOS 27.0, watchOS 27.0, visionOS 27.0, *)
        public static let subscriptionSuite: Product.ProductType = unimplemented()
        @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
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
    @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
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
    public static func products<Identifiers>(for identifiers: Identifiers) async throws -> [Product]
        where Identifiers: Collection, Identifiers.Element == String { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    public var latestTransaction: VerificationResult<Transaction>? { get async { fatalError() } }
    @available(iOS, introduced: 15.0, deprecated: 18.4, message: "Use the currentEntitlements property instead.")
    @available(macOS, introduced: 12.0, deprecated: 15.4, message: "Use the currentEntitlements property instead.")
    @available(tvOS, introduced: 15.0, deprecated: 18.4, message: "Use the currentEntitlements property instead.")
    @available(watchOS, introduced: 8.0, deprecated: 11.4, message: "Use the currentEntitlements property instead.")
    @available(visionOS, introduced: 1.0, deprecated: 2.4, message: "Use the currentEntitlements property instead.")
    public var currentEntitlement: VerificationResult<Transaction>? { get async { fatalError() } }
}

extension Product {
    @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
    public var currentEntitlements: Transaction.Transactions { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.ProductType: Sendable {}

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
// iOS interface only (UIKit scenes and view controllers): manage subscriptions, merchandising, review. (The
// offer-code sheet sits after RedeemOption, where the 27.0 interface declares it.)
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
    #if IOSIAP_STOREKIT_CHECK_VISIONOS
    @available(*, unavailable)
    #endif
    @available(iOS 26.0, tvOS 26.0, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    @available(visionOS, unavailable)
    @MainActor public static func presentMerchandising(_ kind: AppStoreMerchandisingKind, from controller: UIViewController) async throws -> AppStoreMerchandisingKind.PresentationResult { fatalError() }
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
// macOS interface only (AppKit): merchandising (from a window) and review (in a view controller).
extension AppStore {
    @available(macOS 26.2, *)
    @available(iOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @available(visionOS, unavailable)
    @MainActor public static func presentMerchandising(_ kind: AppStoreMerchandisingKind, from window: NSWindow) async throws -> AppStoreMerchandisingKind.PresentationResult { fatalError() }
}

extension AppStore {
    @available(macOS 13.0, *)
    @available(iOS, unavailable)
    @available(visionOS, unavailable)
    @available(watchOS, unavailable)
    @available(tvOS, unavailable)
    @MainActor public static func requestReview(in controller: NSViewController) { fatalError() }
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
        @available(macOS 13.0, iOS 16.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
        public typealias RawValue = String
    }
}

@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
extension AppStore {
    public struct Platform: RawRepresentable, Equatable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { fatalError() }
        public static let iOS: AppStore.Platform = unimplemented()
        public static let macOS: AppStore.Platform = unimplemented()
        public static let tvOS: AppStore.Platform = unimplemented()
        public static let visionOS: AppStore.Platform = unimplemented()
        // Back-deployed in the SDK (`@backDeployed(before: iOS 27.0, macOS 27.0, ...)`); no own @available, so it
        // takes the enclosing extension's (iOS 18.4, macOS 15.4, ...).
        public static var managed: AppStore.Platform { fatalError() }
        @available(macOS 15.4, iOS 18.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
        public typealias RawValue = String
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension AppStore: Sendable {}

// MARK: - AppStoreMerchandisingKind (members transcribed; unavailable on watchOS, visionOS)

#if IOSIAP_STOREKIT_CHECK_VISIONOS
@available(*, unavailable)
#endif
@available(iOS 26.0, tvOS 26.0, macOS 26.2, *)
@available(watchOS, unavailable)
@available(visionOS, unavailable)
public struct AppStoreMerchandisingKind: Sendable {
    public enum PresentationResult: Sendable {
        case dismissed
        case purchaseCompleted(Product.PurchaseResult)
    }
    public static func subscriptionBundle(_ groupID: String) -> AppStoreMerchandisingKind { fatalError() }
}

extension AppStore {
    @available(iOS 26.2, macOS 26.2, tvOS 26.2, watchOS 26.2, visionOS 26.2, *)
    public static var ageRatingCode: Int? { get async { fatalError() } }
}

// MARK: - AdvancedCommerceProduct (all members transcribed)

@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
extension AdvancedCommerceProduct {
    @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
    public struct PurchaseOption: Equatable, Hashable, Sendable {
        public static func onStorefrontChange(shouldContinuePurchase: @escaping @Sendable (Storefront) -> Bool) -> AdvancedCommerceProduct.PurchaseOption { fatalError() }
        public static func == (a: AdvancedCommerceProduct.PurchaseOption, b: AdvancedCommerceProduct.PurchaseOption) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
}

@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
extension AdvancedCommerceProduct.PurchaseOption: CustomDebugStringConvertible {
    public var debugDescription: String { fatalError() }
}

@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
public struct AdvancedCommerceProduct: Identifiable {
    public typealias ProductType = Product.ProductType
    public let id: AdvancedCommerceProduct.ID
    public let type: AdvancedCommerceProduct.ProductType
    public typealias ID = String
    public init(id: AdvancedCommerceProduct.ID) async throws { fatalError() }
}

@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
extension AdvancedCommerceProduct {
    public typealias PurchaseResult = Product.PurchaseResult
    #if !IOSIAP_STOREKIT_CHECK_MACOS
    @available(iOS 18.4, tvOS 18.4, visionOS 2.4, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    public func purchase(compactJWS: String, confirmIn viewController: UIViewController, options: Set<AdvancedCommerceProduct.PurchaseOption> = []) async throws -> AdvancedCommerceProduct.PurchaseResult { fatalError() }
    #else
    @available(macOS 15.4, *)
    @available(iOS, unavailable)
    @available(tvOS, unavailable)
    @available(macCatalyst, unavailable)
    @available(visionOS, unavailable)
    @available(watchOS, unavailable)
    public func purchase(compactJWS: String, confirmIn window: NSWindow, options: Set<AdvancedCommerceProduct.PurchaseOption> = []) async throws -> AdvancedCommerceProduct.PurchaseResult { fatalError() }
    #endif
}

@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
extension AdvancedCommerceProduct {
    public var latestTransaction: VerificationResult<Transaction>? { get async { fatalError() } }
    public var allTransactions: Transaction.Transactions { fatalError() }
    public var currentEntitlements: Transaction.Transactions { fatalError() }
}

@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
extension AdvancedCommerceProduct: CustomDebugStringConvertible {
    public var debugDescription: String { fatalError() }
}

@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
extension AdvancedCommerceProduct: Equatable {
    public static func == (lhs: AdvancedCommerceProduct, rhs: AdvancedCommerceProduct) -> Bool { fatalError() }
}

@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
extension AdvancedCommerceProduct: Hashable {
    public func hash(into hasher: inout Hasher) { fatalError() }
    public var hashValue: Int { fatalError() }
}

@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
extension AdvancedCommerceProduct: Sendable {}

// MARK: - Product.SubscriptionInfo: RenewalState, RenewalInfo, Status

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
        @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
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
            // Back-deployed in the SDK (`@backDeployed(before: iOS 27.0, macOS 27.0, ...)`), hence usable from iOS 15.
            @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
            public static var unbundled: Product.SubscriptionInfo.RenewalInfo.ExpirationReason { fatalError() }
            @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
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
        @available(iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
        public struct CommitmentInfo: Sendable, Hashable {
            public let autoRenewPreference: String
            public let renewalBillingPlanType: SubscriptionInfo.BillingPlanType
            public let renewalDate: Date
            public let renewalPrice: Decimal
            public let willAutoRenew: Bool
            public static func == (a: Product.SubscriptionInfo.RenewalInfo.CommitmentInfo, b: Product.SubscriptionInfo.RenewalInfo.CommitmentInfo) -> Bool { fatalError() }
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
        @available(iOS, introduced: 15.0, deprecated: 18.0, renamed: "offer.id", message: "Use the offer property instead.")
        @available(macOS, introduced: 12.0, deprecated: 15.0, renamed: "offer.id", message: "Use the offer property instead.")
        @available(tvOS, introduced: 15.0, deprecated: 18.0, renamed: "offer.id", message: "Use the offer property instead.")
        @available(watchOS, introduced: 8.0, deprecated: 11.0, renamed: "offer.id", message: "Use the offer property instead.")
        @available(visionOS, introduced: 1.0, deprecated: 2.0, renamed: "offer.id", message: "Use the offer property instead.")
        public var offerID: String? { fatalError() }
        @available(iOS, introduced: 15.0, deprecated: 18.0, renamed: "offer.type", message: "Use the offer property instead.")
        @available(macOS, introduced: 12.0, deprecated: 15.0, renamed: "offer.type", message: "Use the offer property instead.")
        @available(tvOS, introduced: 15.0, deprecated: 18.0, renamed: "offer.type", message: "Use the offer property instead.")
        @available(watchOS, introduced: 8.0, deprecated: 11.0, renamed: "offer.type", message: "Use the offer property instead.")
        @available(visionOS, introduced: 1.0, deprecated: 2.0, renamed: "offer.type", message: "Use the offer property instead.")
        public var offerType: Transaction.OfferType? { fatalError() }
        @available(iOS, introduced: 15.0, deprecated: 18.0, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead.")
        @available(macOS, introduced: 12.0, deprecated: 15.0, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead.")
        @available(tvOS, introduced: 15.0, deprecated: 18.0, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead.")
        @available(watchOS, introduced: 8.0, deprecated: 11.0, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead.")
        @available(visionOS, introduced: 1.0, deprecated: 2.0, renamed: "offer.paymentMode.rawValue", message: "Use the offer property instead.")
        public var offerPaymentModeStringRepresentation: String? { fatalError() }
        @available(iOS, introduced: 15.0, deprecated: 18.4, message: "Use the offer property instead.")
        @available(macOS, introduced: 12.0, deprecated: 15.4, message: "Use the offer property instead.")
        @available(tvOS, introduced: 15.0, deprecated: 18.4, message: "Use the offer property instead.")
        @available(watchOS, introduced: 8.0, deprecated: 11.4, message: "Use the offer property instead.")
        @available(visionOS, introduced: 1.0, deprecated: 2.4, message: "Use the offer property instead.")
        public var offerPeriodStringRepresentation: String? { fatalError() }
        @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, visionOS 1.0, *)
        public let environment: AppStore.Environment
        #if IOSIAP_STOREKIT_CHECK_VISIONOS
        @available(*, unavailable)
        #endif
        @available(iOS, introduced: 15.0, deprecated: 16.0, message: "Use the environment property instead.")
        @available(macOS, introduced: 12.0, deprecated: 13.0, message: "Use the environment property instead.")
        @available(tvOS, introduced: 15.0, deprecated: 16.0, message: "Use the environment property instead.")
        @available(watchOS, introduced: 8.0, deprecated: 9.0, message: "Use the environment property instead.")
        @available(macCatalyst, introduced: 15.0, deprecated: 16.0, message: "Use the environment property instead.")
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
        @available(iOS, introduced: 15.0, deprecated: 16.0, renamed: "currency.identifier", message: "Use the currency property instead.")
        @available(macOS, introduced: 12.0, deprecated: 13.0, renamed: "currency.identifier", message: "Use the currency property instead.")
        @available(tvOS, introduced: 15.0, deprecated: 16.0, renamed: "currency.identifier", message: "Use the currency property instead.")
        @available(watchOS, introduced: 8.0, deprecated: 9.0, renamed: "currency.identifier", message: "Use the currency property instead.")
        @available(visionOS, unavailable)
        public var currencyCode: String? { fatalError() }
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public let eligibleWinBackOfferIDs: [String]
        // The four bundle accessors are back-deployed in the SDK (`@backDeployed(before: iOS 27.0, macOS 27.0, ...)`),
        // hence usable from iOS 15.
        @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
        public var bundleProductID: String? { fatalError() }
        @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
        public var bundleSubscriptionGroupID: String? { fatalError() }
        @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
        public var bundleOriginalTransactionID: String? { fatalError() }
        @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
        public var willUnbundle: Bool { fatalError() }
        public let deviceVerification: Data
        public let deviceVerificationNonce: UUID
        public let signedDate: Date
        @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
        public let advancedCommerceInfo: Product.SubscriptionInfo.RenewalInfo.AdvancedCommerceInfo?
        @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
        public var appAccountToken: UUID? { fatalError() }
        @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
        public var appTransactionID: String { fatalError() }
        @available(iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
        public let commitmentInfo: Product.SubscriptionInfo.RenewalInfo.CommitmentInfo?
        @available(iOS 26.4, macOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
        public let renewalBillingPlanType: SubscriptionInfo.BillingPlanType?
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
    @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
    public static func status(transactionID: UInt64) async throws -> SubscriptionStatus? { fatalError() }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo.Status {
    public struct Statuses: AsyncSequence {
        public typealias Element = Product.SubscriptionInfo.Status
        public struct AsyncIterator: AsyncIteratorProtocol {
            public mutating func next() async -> Product.SubscriptionInfo.Status.Statuses.Element? { fatalError() }
            @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
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

// MARK: - SubscriptionRenewalState, SubscriptionStatus, SubscriptionRenewalInfo (top-level typealiases)

@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
public typealias SubscriptionRenewalState = Product.SubscriptionInfo.RenewalState

@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
public typealias SubscriptionStatus = Product.SubscriptionInfo.Status

@available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
public typealias SubscriptionRenewalInfo = Product.SubscriptionInfo.RenewalInfo

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
    @available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *)
    case unsupported
    @available(iOS 27.0, macOS 27.0, tvOS 27.0, watchOS 27.0, visionOS 27.0, *)
    case invalidPresentationContext
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension StoreKitError: Sendable {}

// MARK: - LocalizedError conformances and localizedDescription

@available(iOS 15.4, macOS 12.3, tvOS 15.4, watchOS 8.5, visionOS 1.0, *)
extension StoreKitError: LocalizedError {
    public var errorDescription: String? { fatalError() }
    public var failureReason: String? { fatalError() }
    public var recoverySuggestion: String? { fatalError() }
}

@available(iOS 15.4, macOS 12.3, tvOS 15.4, watchOS 8.5, visionOS 1.0, *)
extension Product.PurchaseError: LocalizedError {
    public var errorDescription: String? { fatalError() }
    public var failureReason: String? { fatalError() }
    public var recoverySuggestion: String? { fatalError() }
}

@available(iOS 15.4, macCatalyst 15.4, macOS 12.3, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestError: LocalizedError {
    public var errorDescription: String? { fatalError() }
    public var failureReason: String? { fatalError() }
    public var recoverySuggestion: String? { fatalError() }
}

@available(iOS 15.4, macOS 12.3, tvOS 15.4, watchOS 8.5, visionOS 1.0, *)
extension VerificationResult.VerificationError: LocalizedError {
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
extension Transaction.OfferType {
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

@available(iOS 15.4, macOS 12.3, tvOS 15.4, watchOS 8.5, visionOS 1.0, *)
extension Transaction.RevocationReason {
    public var localizedDescription: String { fatalError() }
}

@available(iOS 15.4, macOS 12.3, tvOS 15.4, watchOS 8.5, visionOS 1.0, *)
extension Transaction.OwnershipType {
    public var localizedDescription: String { fatalError() }
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

// MARK: - ExternalPurchaseCustomLink (members transcribed)

@available(iOS 18.1, macOS 15.1, tvOS 18.1, watchOS 11.1, visionOS 2.1, *)
public enum ExternalPurchaseCustomLink: Sendable {
    public enum NoticeResult: Hashable, Sendable {
        case cancelled
        case continued
        public static func == (a: ExternalPurchaseCustomLink.NoticeResult, b: ExternalPurchaseCustomLink.NoticeResult) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
    public enum NoticeType: Int, Hashable, Sendable {
        case withinApp
        case browser
        public init?(rawValue: Int) { fatalError() }
        @available(macOS 15.1, iOS 18.1, tvOS 18.1, watchOS 11.1, visionOS 2.1, *)
        public typealias RawValue = Int
        public var rawValue: Int { fatalError() }
    }
    public struct Token: Hashable, Sendable {
        public let value: String
        public static func == (a: ExternalPurchaseCustomLink.Token, b: ExternalPurchaseCustomLink.Token) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
    public static var isEligible: Bool { get async { fatalError() } }
    public static func showNotice(type: ExternalPurchaseCustomLink.NoticeType) async throws -> ExternalPurchaseCustomLink.NoticeResult { fatalError() }
    public static func token(for tokenType: String) async throws -> ExternalPurchaseCustomLink.Token? { fatalError() }
}

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
            @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
            public typealias RawValue = String
        }
        public struct PaymentMode: RawRepresentable, Equatable, Hashable {
            public let rawValue: String
            public init(rawValue: String) { fatalError() }
            public static let payAsYouGo: Product.SubscriptionOffer.PaymentMode = unimplemented()
            public static let payUpFront: Product.SubscriptionOffer.PaymentMode = unimplemented()
            public static let freeTrial: Product.SubscriptionOffer.PaymentMode = unimplemented()
            @available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
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
    @available(iOS, introduced: 17.4, deprecated: 26.0, message: "Sign promotional offers with JWS and use PurchaseOption.promotionalOffer(_:compactJWS:) instead.")
    @available(macOS, introduced: 14.4, deprecated: 26.0, message: "Sign promotional offers with JWS and use PurchaseOption.promotionalOffer(_:compactJWS:) instead.")
    @available(tvOS, introduced: 17.4, deprecated: 26.0, message: "Sign promotional offers with JWS and use PurchaseOption.promotionalOffer(_:compactJWS:) instead.")
    @available(watchOS, introduced: 10.4, deprecated: 26.0, message: "Sign promotional offers with JWS and use PurchaseOption.promotionalOffer(_:compactJWS:) instead.")
    @available(visionOS, introduced: 1.1, deprecated: 26.0, message: "Sign promotional offers with JWS and use PurchaseOption.promotionalOffer(_:compactJWS:) instead.")
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

// MARK: - ExternalPurchaseLink (members transcribed)

@available(iOS 15.4, macOS 14.4, macCatalyst 15.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
public enum ExternalPurchaseLink: Sendable {
    public static var canOpen: Bool { get async { fatalError() } }
    @available(iOS 17.5, macOS 14.5, macCatalyst 17.5, tvOS 17.5, watchOS 10.5, visionOS 1.2, *)
    public static var eligibleURLs: [URL]? { get async { fatalError() } }
    public static func open() async throws { fatalError() }
    @available(iOS 17.5, macOS 14.5, macCatalyst 17.5, tvOS 17.5, watchOS 10.5, visionOS 1.2, *)
    public static func open(url: URL) async throws { fatalError() }
}

// MARK: - Product.SubscriptionInfo.BundledSubscription (27.0)

@available(iOS 27.0, macOS 27.0, tvOS 27.0, watchOS 27.0, visionOS 27.0, *)
extension Product.SubscriptionInfo {
    public struct BundledSubscription: Equatable, Hashable, Sendable {
        public let id: Product.ID
        public let displayName: String
        public let description: String
        public let price: Decimal
        public let displayPrice: String
        public let isFamilyShareable: Bool
        public let subscriptionGroupID: String
        public let subscriptionGroupLevel: Int
        public let subscriptionGroupDisplayName: String
        public static func == (a: Product.SubscriptionInfo.BundledSubscription, b: Product.SubscriptionInfo.BundledSubscription) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
}

// MARK: - ExternalPurchase (members transcribed)

@available(iOS 15.4, macOS 14.4, macCatalyst 15.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
public enum ExternalPurchase: Sendable {
    public enum NoticeResult: Hashable, Sendable {
        // Unavailable on every platform (iOS, macOS, tvOS, visionOS, watchOS, macCatalyst): so in every configuration.
        @available(*, unavailable)
        @available(macOS, unavailable)
        @available(tvOS, unavailable)
        @available(watchOS, unavailable)
        @available(visionOS, unavailable)
        @available(iOS, unavailable)
        @available(macCatalyst, unavailable)
        case continued
        case cancelled
        @available(iOS 17.4, macOS 14.4, macCatalyst 17.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
        case continuedWithExternalPurchaseToken(token: String)
        public static func == (a: ExternalPurchase.NoticeResult, b: ExternalPurchase.NoticeResult) -> Bool { fatalError() }
        public func hash(into hasher: inout Hasher) { fatalError() }
        public var hashValue: Int { fatalError() }
    }
    @available(iOS 17.4, macOS 14.4, macCatalyst 17.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
    public static var canPresent: Bool { get async { fatalError() } }
    public static func presentNoticeSheet() async throws -> ExternalPurchase.NoticeResult { fatalError() }
}

// MARK: - PaymentMethodBinding (members transcribed; unavailable on macOS, watchOS, tvOS)

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
    public static func == (a: PaymentMethodBinding, b: PaymentMethodBinding) -> Bool { fatalError() }
    #if IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
    @available(*, unavailable)
    #endif
    @available(iOS 16.4, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    public typealias ID = String
    public func hash(into hasher: inout Hasher) { fatalError() }
    public var hashValue: Int { fatalError() }
}

// MARK: - Conformances the interfaces declare last

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
extension VerificationResult.VerificationError: Equatable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult.VerificationError: Hashable {}

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestError: Equatable {}

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestError: Hashable {}

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestStatus: Equatable {}

@available(iOS 15.0, macOS 12.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
extension Transaction.RefundRequestStatus: Hashable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.PurchaseError: Equatable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.PurchaseError: Hashable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product.SubscriptionInfo.RenewalInfo.PriceIncreaseStatus: BitwiseCopyable {}

@available(iOS 18.1, macOS 15.1, tvOS 18.1, watchOS 11.1, visionOS 2.1, *)
extension ExternalPurchaseCustomLink.NoticeType: RawRepresentable {}

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
