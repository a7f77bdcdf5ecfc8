// The only file that calls StoreKit: thin wrappers from StoreKit 2 to `StoreKitAPI`. Everything it feeds is
// decided, and tested on Linux, in StoreKitBackend.
//
// What has been checked: scripts/check-storekit.sh type-checks this file on Linux (Swift 6, warnings as errors)
// against three declarations-only `StoreKit`s we transcribed from the SDKs' interface text, the iOS 18.0 + macOS
// 15.0 SDKs (Tests/AppleSDK/StoreKit18, the deployment targets), the iOS 26.5 + macOS 26.5 SDKs
// (Tests/AppleSDK/StoreKit26) and the iOS 27.0 + macOS 27.0 SDKs (Tests/AppleSDK/StoreKit27), with the few UIKit
// and AppKit classes it names, each as iOS, macOS, tvOS and visionOS with that platform's unavailable APIs made
// unavailable. What has not: it has never been compiled by Apple's compiler against the real SDK, and never run on
// Apple hardware. An API the oldest SDK lacks is used only behind `#if canImport(StoreKit, _version: …)`
// (StoreKit's user-module-version: 814.2 is the iOS 18.2 / macOS 15.2 SDK, 814.4 the 18.4 / 15.4 one, 815.5 the
// 26.5 one, 816 the 27 one) and `#available`; Linux ignores `introduced:` versions, so scripts/check-availability.py
// holds every use of a newer API to a gate at least that new.
//
// The check cannot set `os(tvOS)` or `os(visionOS)` on Linux, so the platform branches below also honour the
// IOSIAP_STOREKIT_CHECK_<PLATFORM> condition the check sets; nothing else defines it.
//
// Inside `LiveStoreKit` the bare names `Product`, `Transaction` and `Message` are `StoreKitAPI`'s associated types
// (`LiveProduct`, `LiveTransaction`, `LiveMessage`), so StoreKit's types are always written `StoreKit.Product`,
// `StoreKit.Transaction` and `StoreKit.Message` in this file.
#if canImport(StoreKit)
import Foundation  // StoreKit's errors are NSErrors, described by localizedDescription; only Apple platforms ship this file
import IOSiAPCore
import StoreKit
#if os(macOS) || IOSIAP_STOREKIT_CHECK_MACOS
import AppKit  // NSWindow and NSViewController, the UI context of a purchase or a sheet
#else
import UIKit  // UIViewController and UIWindowScene, the UI context of a purchase
#endif

/// `StoreKitAPI` over the real StoreKit 2: `StoreKitBackend(api: LiveStoreKit())` on Apple platforms.
public struct LiveStoreKit: StoreKitAPI {
    /// Creates the live StoreKit wrapper.
    public init() {}

    public func products(for ids: [String]) async throws(StoreKitFailure) -> [LiveProduct] {
        do { return try await StoreKit.Product.products(for: ids).map(LiveProduct.init) } catch { throw Self.failure(error) }
    }

    public func purchase(_ product: LiveProduct, quantity: Int, appAccountToken: UUID?, promotionalOffer: SignedPromotionalOffer?,
                         promotionalOfferJWS: PromotionalOfferJWS?, introductoryOfferEligibilityJWS: String?,
                         winBackOfferID: String?, uiContext: UIContext?) async throws(StoreKitFailure) -> StoreKitPurchaseResult<LiveTransaction> {
        let confirmation = try Self.confirmation(uiContext)
        var options: Set<StoreKit.Product.PurchaseOption> = [.quantity(quantity)]
        if let appAccountToken { options.insert(.appAccountToken(appAccountToken)) }
        if let offer = promotionalOffer {
            // iOS 17.4+ (below every deployment target), so the deprecated five-argument form is never needed.
            let signature = StoreKit.Product.SubscriptionOffer.Signature(keyID: offer.keyID, nonce: offer.nonce,
                                                                         timestamp: Int(offer.timestamp), signature: offer.signature)
            options.insert(.promotionalOffer(offerID: offer.offerID, signature: signature))
        }
        // Both JWS forms are back-deployed (@backDeployed) to every OS this library runs on, so no #available; an
        // SDK declares them from StoreKit user-module-version 815 (iOS/macOS 26 SDK; promotionalOffer(_:compactJWS:))
        // and 814.4 (iOS 18.4 / macOS 15.4 SDK; introductoryOfferEligibility(compactJWS:)).
        #if canImport(StoreKit, _version: 815)  // back-deployed: no #available
        if let offer = promotionalOfferJWS {
            options.formUnion(StoreKit.Product.PurchaseOption.promotionalOffer(offer.offerID, compactJWS: offer.compactJWS))
        }
        #else
        if promotionalOfferJWS != nil {
            throw .unsupportedOption("a JWS-signed promotional offer needs a library built with the iOS 26 / macOS 26 SDK "
                + "(StoreKit's promotionalOffer(_:compactJWS:)); this one was built with an older SDK, whose StoreKit takes "
                + "only the older offer signature")
        }
        #endif
        #if canImport(StoreKit, _version: 814.4)  // back-deployed: no #available
        if let jws = introductoryOfferEligibilityJWS { options.insert(.introductoryOfferEligibility(compactJWS: jws)) }
        #else
        if introductoryOfferEligibilityJWS != nil {
            throw .unsupportedOption("an introductory offer eligibility JWS needs a library built with the iOS 18.4 / "
                + "macOS 15.4 SDK or later (StoreKit's introductoryOfferEligibility(compactJWS:))")
        }
        #endif
        if let winBackOfferID {
            // .winBackOffer(_:) takes the product's offer itself (iOS 18, macOS 15, tvOS 18, visionOS 2: the
            // deployment targets).
            guard let offer = product.product.subscription?.winBackOffers.first(where: { $0.id == winBackOfferID }) else {
                throw .invalidOfferIdentifier
            }
            options.insert(.winBackOffer(offer))
        }
        let result: StoreKit.Product.PurchaseResult
        do { result = try await Self.purchase(product.product, options: options, confirmation) } catch { throw Self.failure(error) }
        switch result {
        case .success(let verification): return .success(Self.verified(verification))
        case .userCancelled: return .userCancelled
        case .pending: return .pending
        @unknown default: throw .other("an unknown purchase result")
        }
    }

    /// Where StoreKit shows a purchase's confirmation: the game's UI object, of a class this platform's
    /// StoreKit takes; on macOS without one (`automatic`) wherever StoreKit chooses, on iOS and tvOS the app's
    /// foreground window scene (`foregroundScene`).
    private enum Confirmation {
        #if os(macOS) || IOSIAP_STOREKIT_CHECK_MACOS
        case automatic
        case macUI(MacUIObject)
        #else
        #if !(os(visionOS) || IOSIAP_STOREKIT_CHECK_VISIONOS)
        case foregroundScene  // none given: the app's foreground window scene (visionOS needs one given)
        #endif
        case scene(UIScene)
        case viewController(UIViewController)
        #endif
    }

    /// The object `context` points to, as a `Confirmation`. The caller promised an Objective-C object
    /// (iosiap.h); its class is checked here.
    private static func confirmation(_ context: UIContext?) throws(StoreKitFailure) -> Confirmation {
        #if os(macOS) || IOSIAP_STOREKIT_CHECK_MACOS
        guard let context else { return .automatic }
        return .macUI(try macUIObject(context))
        #else
        guard let context else {
            #if os(visionOS) || IOSIAP_STOREKIT_CHECK_VISIONOS
            throw .uiContextRequired("a purchase on visionOS needs the game's UIWindowScene (or, from visionOS 2.2, "
                + "a UIViewController) as its UI context (iosiap_payment_options.ui_context)")
            #else
            return .foregroundScene
            #endif
        }
        let object = Unmanaged<AnyObject>.fromOpaque(context.pointer).takeUnretainedValue()
        if let scene = object as? UIScene { return .scene(scene) }
        if let viewController = object as? UIViewController { return .viewController(viewController) }
        throw .invalidUIContext("the UI context is neither a UIViewController nor a UIWindowScene")
        #endif
    }

    /// `purchase(confirmIn:options:)` with the confirmation's object where this OS has that form. The
    /// UIViewController form is iOS/tvOS 18.2 and visionOS 2.2, the NSWindow form macOS 15.2, newer than the
    /// deployment targets and first declared by the SDKs whose StoreKit is user-module-version 814.2 (Xcode 16.2),
    /// hence the `canImport` version check beside `#available`; the UIScene form (iOS/tvOS 17, visionOS 1) is older.
    /// On iOS and tvOS `purchase(options:)` is never used: from iOS 18.2 it fails without a scene it can find
    /// ("Could not get confirmation scene ID", reported against RevenueCat purchases-ios #4611 and Adapty #105).
    /// Without a UI context, or with a view controller before iOS 18.2, the purchase confirms in a window scene
    /// looked up (`scene(for:)`), or is refused with `invalidPresentationContext`; never guessed silently.
    private static func purchase(_ product: StoreKit.Product, options: Set<StoreKit.Product.PurchaseOption>,
                                 _ confirmation: Confirmation) async throws -> StoreKit.Product.PurchaseResult {
        switch confirmation {
        #if os(macOS) || IOSIAP_STOREKIT_CHECK_MACOS
        case .automatic:
            return try await product.purchase(options: options)
        case .macUI(let object):
            #if canImport(StoreKit, _version: 814.2)
            if #available(macOS 15.2, *), let window = await MainActor.run(body: { Self.window(of: object) }) {
                return try await product.purchase(confirmIn: window, options: options)
            }
            #endif
            return try await product.purchase(options: options)
        #else
        #if !(os(visionOS) || IOSIAP_STOREKIT_CHECK_VISIONOS)
        case .foregroundScene:
            return try await product.purchase(confirmIn: try await scene(for: nil), options: options)
        #endif
        case .scene(let scene):
            return try await product.purchase(confirmIn: scene, options: options)
        case .viewController(let viewController):
            #if canImport(StoreKit, _version: 814.2)
            if #available(iOS 18.2, tvOS 18.2, visionOS 2.2, *) {
                return try await product.purchase(confirmIn: viewController, options: options)
            }
            #endif
            #if os(visionOS) || IOSIAP_STOREKIT_CHECK_VISIONOS
            throw StoreKitFailure.uiContextRequired("before visionOS 2.2 a purchase needs the game's UIWindowScene, "
                + "not a UIViewController, as its UI context")
            #else
            return try await product.purchase(confirmIn: try await scene(for: viewController), options: options)
            #endif
        #endif
        }
    }

    #if !(os(macOS) || os(visionOS) || IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_VISIONOS)
    /// The window scene a purchase confirms in: the view controller's window's scene, else the app's one
    /// foreground-active window scene (`UIApplication.connectedScenes`, `UIScene.activationState`), else its one
    /// foreground-inactive one. None, or several (an iPad with two windows of the game: which one the user looks at
    /// cannot be told), is `invalidPresentationContext`: the game must pass its UI context.
    private static func scene(for viewController: UIViewController?) async throws(StoreKitFailure) -> UIWindowScene {
        let found: UIWindowScene? = await MainActor.run {
            if let scene = viewController?.viewIfLoaded?.window?.windowScene { return scene }
            let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
            let active = scenes.filter { $0.activationState == .foregroundActive }
            if active.count == 1 { return active.first }
            // None active (a system alert over the game, a purchase intent at a cold launch): the one in the foreground.
            let foreground = scenes.filter { $0.activationState == .foregroundInactive }
            return active.isEmpty && foreground.count == 1 ? foreground.first : nil
        }
        guard let found else { throw .invalidPresentationContext }
        return found
    }
    #endif

    public func presentOfferCodeRedeemSheet(uiContext: UIContext?) throws(StoreKitFailure) {
        #if os(tvOS) || IOSIAP_STOREKIT_CHECK_TVOS
        throw .unsupported  // StoreKit has no offer code sheet on tvOS
        #elseif os(macOS) || IOSIAP_STOREKIT_CHECK_MACOS
        let object = try Self.macUIObject(uiContext, for: "the offer code sheet")
        // AppStore.presentOfferCodeRedeemSheet(from: NSViewController), macOS 15 (the deployment target). Not
        // awaited, as on iOS. The task holds the view controller (one made for a window without one) meanwhile.
        Task { @MainActor in
            guard let controller = Self.viewController(of: object) else { return }  // a window with no content at all
            try? await AppStore.presentOfferCodeRedeemSheet(from: controller)
        }
        #else
        let scene = try Self.windowScene(uiContext, for: "the offer code sheet")
        // The sheet is UI: on the main actor, not awaited by the caller (the game's thread must not block on
        // it). Its errors are shown to the user by the sheet itself; a redeemed code arrives as an update.
        Task { @MainActor in try? await AppStore.presentOfferCodeRedeemSheet(in: scene) }
        #endif
    }

    public func beginRefundRequest(transactionID: UInt64, uiContext: UIContext?) async throws(StoreKitFailure) -> StoreKitRefundRequestStatus {
        #if os(tvOS) || IOSIAP_STOREKIT_CHECK_TVOS
        throw .unsupported  // StoreKit has no refund request sheet on tvOS
        #else
        #if os(macOS) || IOSIAP_STOREKIT_CHECK_MACOS
        let object = try Self.macUIObject(uiContext, for: "the refund request sheet")
        guard let controller = await MainActor.run(body: { Self.viewController(of: object) }) else {
            throw .invalidUIContext("the refund request sheet shows from an NSViewController; the NSWindow given has no content view")
        }
        // Transaction.beginRefundRequest(for:in: NSViewController), macOS 12; run on the main actor like iOS's.
        let sheet = Task { @MainActor in try await StoreKit.Transaction.beginRefundRequest(for: transactionID, in: controller) }
        #else
        let scene = try Self.windowScene(uiContext, for: "the refund request sheet")
        // On the main actor, where StoreKit runs its sheets; awaited here, beside the store's jobs (never on the
        // game's thread), until the sheet closes.
        let sheet = Task { @MainActor in try await StoreKit.Transaction.beginRefundRequest(for: transactionID, in: scene) }
        #endif
        let status: StoreKit.Transaction.RefundRequestStatus
        do { status = try await sheet.value } catch { throw Self.failure(error) }
        switch status {
        case .success: return .success
        case .userCancelled: return .userCancelled
        @unknown default: throw .other("an unknown refund request status")
        }
        #endif
    }

    public func showManageSubscriptions(uiContext: UIContext?) async throws(StoreKitFailure) {
        #if os(macOS) || os(tvOS) || IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
        throw .unsupported  // AppStore.showManageSubscriptions(in:) is unavailable on macOS and tvOS
        #else
        let scene = try Self.windowScene(uiContext, for: "the manage subscriptions sheet")
        let sheet = Task { @MainActor in try await AppStore.showManageSubscriptions(in: scene) }
        do { try await sheet.value } catch { throw Self.failure(error) }
        #endif
    }

    #if os(macOS) || IOSIAP_STOREKIT_CHECK_MACOS
    /// What a macOS UI context points to (an Objective-C object, as iosiap.h asks), of a class checked here.
    private enum MacUIObject {
        case window(NSWindow)
        case viewController(NSViewController)
    }

    private static func macUIObject(_ context: UIContext) throws(StoreKitFailure) -> MacUIObject {
        let object = Unmanaged<AnyObject>.fromOpaque(context.pointer).takeUnretainedValue()
        if let window = object as? NSWindow { return .window(window) }
        if let viewController = object as? NSViewController { return .viewController(viewController) }
        throw .invalidUIContext("the UI context is neither an NSWindow nor an NSViewController")
    }

    private static func macUIObject(_ context: UIContext?, for sheet: String) throws(StoreKitFailure) -> MacUIObject {
        guard let context else {
            throw .uiContextRequired("\(sheet) needs the game's NSViewController or NSWindow as its UI context")
        }
        return try macUIObject(context)
    }

    /// The view controller a sheet shows from: the context itself, its window's content view controller, or,
    /// for a window without one (SDL's and GLFW's windows have a content view only), a view controller made to
    /// host the window's content view. `nil` only for a window without content.
    @MainActor private static func viewController(of object: MacUIObject) -> NSViewController? {
        switch object {
        case .viewController(let viewController): return viewController
        case .window(let window):
            if let controller = window.contentViewController { return controller }
            guard let contentView = window.contentView else { return nil }
            let host = NSViewController(nibName: nil, bundle: nil)
            host.view = contentView  // set, so the controller loads no view of its own
            return host
        }
    }

    /// The window a purchase's confirmation shows in: the context itself, or its view controller's window.
    @MainActor private static func window(of object: MacUIObject) -> NSWindow? {
        switch object {
        case .window(let window): window
        case .viewController(let viewController): viewController.viewIfLoaded?.window  // never loads a view (macOS 14+)
        }
    }
    #endif

    #if !(os(macOS) || os(tvOS) || IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS)
    /// The game's UIWindowScene a sheet shows in: the object `context` points to (an Objective-C object, as
    /// iosiap.h asks), of that class.
    private static func windowScene(_ context: UIContext?, for sheet: String) throws(StoreKitFailure) -> UIWindowScene {
        guard let context else { throw .uiContextRequired("\(sheet) needs the game's UIWindowScene as its UI context") }
        guard let scene = Unmanaged<AnyObject>.fromOpaque(context.pointer).takeUnretainedValue() as? UIWindowScene else {
            throw .invalidUIContext("\(sheet)'s UI context is not a UIWindowScene")
        }
        return scene
    }
    #endif

    public func transactionUpdates() -> AsyncStream<StoreKitVerified<LiveTransaction>> {
        AsyncStream { continuation in
            let listener = Task {
                for await update in StoreKit.Transaction.updates { continuation.yield(Self.verified(update)) }
                continuation.finish()
            }
            continuation.onTermination = { _ in listener.cancel() }
        }
    }

    public func unfinishedTransactions() async -> [StoreKitVerified<LiveTransaction>] {
        var all: [StoreKitVerified<LiveTransaction>] = []
        for await transaction in StoreKit.Transaction.unfinished { all.append(Self.verified(transaction)) }
        return all
    }

    public func currentEntitlements() async -> [StoreKitVerified<LiveTransaction>] {
        var all: [StoreKitVerified<LiveTransaction>] = []
        for await transaction in StoreKit.Transaction.currentEntitlements { all.append(Self.verified(transaction)) }
        return all
    }

    public func sync() async throws(StoreKitFailure) {
        do { try await AppStore.sync() } catch { throw Self.failure(error) }
    }

    public func finish(transactionID: UInt64) async {
        for await result in StoreKit.Transaction.unfinished where result.unsafePayloadValue.id == transactionID {
            await result.unsafePayloadValue.finish()
        }
    }

    public var canMakePayments: Bool { AppStore.canMakePayments }

    public func storefrontCountryCode() async -> String? {
        await StoreKit.Storefront.current?.countryCode
    }

    public func subscriptionStatuses(groupID: String) async throws(StoreKitFailure) -> [StoreKitSubscriptionStatus<LiveTransaction>] {
        let statuses: [StoreKit.Product.SubscriptionInfo.Status]
        do { statuses = try await StoreKit.Product.SubscriptionInfo.status(for: groupID) } catch { throw Self.failure(error) }
        return statuses.map(Self.status)
    }

    public func subscriptionStatusUpdates() -> AsyncStream<StoreKitSubscriptionStatus<LiveTransaction>> {
        AsyncStream { continuation in
            let listener = Task {
                for await status in StoreKit.Product.SubscriptionInfo.Status.updates { continuation.yield(Self.status(status)) }
                continuation.finish()
            }
            continuation.onTermination = { _ in listener.cancel() }
        }
    }

    private static func status(_ status: StoreKit.Product.SubscriptionInfo.Status) -> StoreKitSubscriptionStatus<LiveTransaction> {
        let state: StoreSubscriptionStatus.State = switch status.state {
        case .subscribed: .subscribed
        case .expired: .expired
        case .inBillingRetryPeriod: .inBillingRetryPeriod
        case .inGracePeriod: .inGracePeriod
        case .revoked: .revoked
        default: .expired  // a state added later entitles to nothing until this library knows it
        }
        let renewal = status.renewalInfo.unsafePayloadValue
        return StoreKitSubscriptionStatus(state: state, transaction: verified(status.transaction),
                                          willAutoRenew: renewal.willAutoRenew, autoRenewProductID: renewal.autoRenewPreference,
                                          expirationReason: renewal.expirationReason.map(expirationReason),
                                          isInBillingRetry: renewal.isInBillingRetry,
                                          gracePeriodExpirationDate: renewal.gracePeriodExpirationDate,
                                          renewalInfoJWS: status.renewalInfo.jwsRepresentation,
                                          renewalInfoVerified: { if case .verified = status.renewalInfo { true } else { false } }())
    }

    private static func expirationReason(_ reason: StoreKit.Product.SubscriptionInfo.RenewalInfo.ExpirationReason) -> StoreSubscriptionStatus.ExpirationReason {
        switch reason {
        case .autoRenewDisabled: .autoRenewDisabled
        case .billingError: .billingError
        case .didNotConsentToPriceIncrease: .didNotConsentToPriceIncrease
        case .productUnavailable: .productUnavailable
        default: .unknown  // `unknown`, or a reason added later
        }
    }

    public func isEligibleForIntroOffer(groupID: String) async -> Bool {
        await StoreKit.Product.SubscriptionInfo.isEligibleForIntroOffer(for: groupID)
    }

    public func allTransactions() async -> [StoreKitVerified<LiveTransaction>] {
        var all: [StoreKitVerified<LiveTransaction>] = []
        for await transaction in StoreKit.Transaction.all { all.append(Self.verified(transaction)) }
        return all
    }

    public func purchaseIntents() -> AsyncStream<StoreKitPurchaseIntent<LiveProduct>> {
        #if os(tvOS) || os(visionOS) || IOSIAP_STOREKIT_CHECK_TVOS || IOSIAP_STOREKIT_CHECK_VISIONOS
        AsyncStream { $0.finish() }  // PurchaseIntent is unavailable here: the App Store cannot start purchases
        #else
        AsyncStream { continuation in
            let listener = Task {
                for await intent in PurchaseIntent.intents {
                    // `intent.offer` is iOS 18.0 and macOS 15.0: the deployment targets.
                    continuation.yield(StoreKitPurchaseIntent(product: LiveProduct(product: intent.product),
                                                              offer: intent.offer.flatMap(Self.intentOffer)))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in listener.cancel() }
        }
        #endif
    }

    /// The offer a purchase intent carries, by type and id; one of a type added after this library is left out
    /// (the intent still reaches the game, which pays the regular price unless it offers something itself).
    private static func intentOffer(_ offer: StoreKit.Product.SubscriptionOffer) -> TransactionOffer? {
        let type: OfferType
        switch offer.type {
        case .introductory: type = .introductory
        case .promotional: type = .promotional
        case .winBack: type = .winBack
        default: return nil
        }
        return TransactionOffer(type: type, id: offer.id)
    }

    public func messages() -> AsyncStream<LiveMessage> {
        #if os(macOS) || os(tvOS) || IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
        AsyncStream { $0.finish() }  // Message is unavailable here: StoreKit sends no messages
        #else
        AsyncStream { continuation in
            let listener = Task {
                for await message in StoreKit.Message.messages { continuation.yield(LiveMessage(message: message)) }
                continuation.finish()
            }
            continuation.onTermination = { _ in listener.cancel() }
        }
        #endif
    }

    public var hasMessages: Bool {
        #if os(macOS) || os(tvOS) || IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
        false
        #else
        true
        #endif
    }

    public func display(_ message: LiveMessage, uiContext: UIContext?) throws(StoreKitFailure) {
        #if os(macOS) || os(tvOS) || IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
        switch message {}  // no message exists here to display
        #else
        guard let uiContext else {
            throw .uiContextRequired("an App Store message needs the game's UIWindowScene as its UI context")
        }
        let object = Unmanaged<AnyObject>.fromOpaque(uiContext.pointer).takeUnretainedValue()
        guard let scene = object as? UIWindowScene else {
            throw .invalidUIContext("an App Store message's UI context is not a UIWindowScene")
        }
        // UI: on the main actor, not awaited by the caller (the game's thread must not block on it). What the
        // user does in the sheet is StoreKit's business (a consent, a fixed payment, a redeemed offer arrives
        // as transaction updates).
        let storeKitMessage = message.message
        Task { @MainActor in try? storeKitMessage.display(in: scene) }
        #endif
    }

    public func storefrontUpdates() -> AsyncStream<String> {
        AsyncStream { continuation in
            let listener = Task {
                for await storefront in StoreKit.Storefront.updates { continuation.yield(storefront.countryCode) }
                continuation.finish()
            }
            continuation.onTermination = { _ in listener.cancel() }
        }
    }

    private static func verified(_ result: VerificationResult<StoreKit.Transaction>) -> StoreKitVerified<LiveTransaction> {
        switch result {
        case .verified(let transaction):
            return .verified(LiveTransaction(transaction, jws: result.jwsRepresentation))
        case .unverified(let transaction, let error):
            return .unverified(LiveTransaction(transaction, jws: result.jwsRepresentation), verificationFailure(error))
        }
    }

    private static func verificationFailure<Signed>(_ error: VerificationResult<Signed>.VerificationError) -> StoreKitVerificationFailure {
        switch error {
        case .invalidCertificateChain: .invalidCertificateChain
        case .invalidDeviceVerification: .invalidDeviceVerification
        case .invalidEncoding: .invalidEncoding
        case .invalidSignature: .invalidSignature
        case .missingRequiredProperties: .missingRequiredProperties
        case .revokedCertificate: .revokedCertificate
        @unknown default: .invalidSignature
        }
    }

    public func appTransaction() async throws(StoreKitFailure) -> StoreKitVerified<StoreKitAppTransaction> {
        let result: VerificationResult<StoreKit.AppTransaction>
        do { result = try await StoreKit.AppTransaction.shared } catch { throw Self.failure(error) }
        let jws = result.jwsRepresentation
        func read(_ app: StoreKit.AppTransaction) -> StoreKitAppTransaction {
            // appTransactionID and originalPlatform are declared from the iOS 18.4 / macOS 15.4 SDK on (back-deployed),
            // which the deployment targets' SDK lacks: read from the record's JSON, which carries them wherever the
            // App Store signs them.
            let json = (try? JSONSerialization.jsonObject(with: app.jsonRepresentation)) as? [String: Any]
            return StoreKitAppTransaction(
                appID: app.appID, appVersion: app.appVersion, appVersionID: app.appVersionID, bundleID: app.bundleID,
                environment: app.environment.rawValue, originalAppVersion: app.originalAppVersion,
                originalPurchaseDate: app.originalPurchaseDate, preorderDate: app.preorderDate,
                deviceVerification: app.deviceVerification, deviceVerificationNonce: app.deviceVerificationNonce,
                signedDate: app.signedDate, appTransactionID: json?["appTransactionId"] as? String,
                originalPlatform: json?["originalPlatform"] as? String, jwsRepresentation: jws)
        }
        switch result {
        case .verified(let app): return .verified(read(app))
        case .unverified(let app, let error): return .unverified(read(app), Self.verificationFailure(error))
        }
    }

    private static func failure(_ error: any Error) -> StoreKitFailure {
        if let failure = error as? StoreKitFailure { return failure }
        if let error = error as? StoreKitError {
            switch error {
            case .userCancelled: return .userCancelled
            case .networkError(let detail): return .networkError(detail.localizedDescription)
            case .systemError(let detail): return .systemError(detail.localizedDescription)
            case .notAvailableInStorefront: return .notAvailableInStorefront
            case .notEntitled: return .notEntitled
            case .unknown: return .unknown
            default:
                // Cases newer than the deployment targets, each first declared by the SDK whose StoreKit has that
                // user-module-version: `unsupported` (814.4, Xcode 16.3; iOS 18.4), `invalidPresentationContext`
                // (816, Xcode 27; iOS 27). `default`, not `@unknown default`: a later case must not stop a build.
                #if canImport(StoreKit, _version: 814.4)
                if #available(iOS 18.4, macOS 15.4, tvOS 18.4, visionOS 2.4, *), case .unsupported = error { return .unsupported }
                #endif
                #if canImport(StoreKit, _version: 816)
                if #available(iOS 27.0, macOS 27.0, tvOS 27.0, visionOS 27.0, *), case .invalidPresentationContext = error {
                    return .invalidPresentationContext
                }
                #endif
                return .other(String(describing: error))
            }
        }
        // The two enums below are switched with `default`: every SDK adds cases (26.5, 27.0), and a missing case
        // under `@unknown default` is a warning, an error for a game that builds with warnings as errors.
        if let error = error as? StoreKit.Transaction.RefundRequestError {
            switch error {
            case .duplicateRequest: return .refundRequestDuplicate
            case .failed: return .refundRequestFailed
            default:
                #if canImport(StoreKit, _version: 816)
                if #available(iOS 27.0, macOS 27.0, tvOS 27.0, visionOS 27.0, *), case .ineligible = error { return .refundRequestIneligible }
                #endif
                return .other(String(describing: error))
            }
        }
        if let error = error as? StoreKit.Product.PurchaseError {
            switch error {
            case .invalidQuantity: return .invalidQuantity
            case .productUnavailable: return .productUnavailable
            case .purchaseNotAllowed: return .purchaseNotAllowed
            case .ineligibleForOffer: return .ineligibleForOffer
            case .invalidOfferIdentifier: return .invalidOfferIdentifier
            case .invalidOfferPrice: return .invalidOfferPrice
            case .invalidOfferSignature: return .invalidOfferSignature
            case .missingOfferParameters: return .missingOfferParameters
            default:
                // iOS 26.5 (macOS, tvOS, visionOS 26.5), first declared by the SDK whose StoreKit is 815.5.
                #if canImport(StoreKit, _version: 815.5)
                if #available(iOS 26.5, macOS 26.5, tvOS 26.5, visionOS 26.5, *), case .paymentMethodBindingConfigurationRequired = error {
                    return .paymentMethodBindingConfigurationRequired
                }
                #endif
                return .other(String(describing: error))
            }
        }
        return .other(String(describing: error))
    }
}

/// A StoreKit `Product` as `StoreKitProduct`.
public struct LiveProduct: StoreKitProduct {
    let product: StoreKit.Product

    public var id: String { product.id }
    public var type: ProductType { Self.productType(product.type, isSubscription: product.subscription != nil) }

    /// StoreKit's product type as IOSiAP's. Subscription bundles and suites (StoreKit 816, iOS 27) are
    /// subscriptions sold together: Apple gives them a subscription group, a period and renewal info
    /// (`Product.SubscriptionInfo.bundledSubscriptions`), so they entitle as auto-renewable subscriptions do,
    /// until they expire. A type this library does not know fails closed: an auto-renewable subscription if it is
    /// a subscription, else a consumable, which entitles to nothing; never a type owned for good.
    static func productType(_ type: StoreKit.Product.ProductType, isSubscription: Bool) -> ProductType {
        switch type {
        case .consumable: return .consumable
        case .nonConsumable: return .nonConsumable
        case .autoRenewable: return .autoRenewable
        case .nonRenewable: return .nonRenewing
        default:
            #if canImport(StoreKit, _version: 816)
            if #available(iOS 27.0, macOS 27.0, tvOS 27.0, visionOS 27.0, *),
               type == .subscriptionBundle || type == .subscriptionSuite {
                return .autoRenewable
            }
            #endif
            return isSubscription ? .autoRenewable : .consumable
        }
    }
    public var displayName: String { product.displayName }
    public var description: String { product.description }
    public var price: Decimal { product.price }
    public var displayPrice: String { product.displayPrice }
    public var currencyCode: String { product.priceFormatStyle.currencyCode }

    /// The subscription's period, group and offers: introductory, promotional and win-back (`winBackOffers` is
    /// iOS 18.0, macOS 15.0, tvOS 18.0, visionOS 2.0: the deployment targets). An offer StoreKit describes in a
    /// way this library does not know (a new payment mode or period unit) is left out rather than guessed.
    public var subscription: StoreSubscriptionInfo? {
        guard let info = product.subscription, let period = Self.period(info.subscriptionPeriod) else { return nil }
        return StoreSubscriptionInfo(groupID: info.subscriptionGroupID, groupName: info.groupDisplayName, level: info.groupLevel,
                                period: period, introductoryOffer: info.introductoryOffer.flatMap(Self.offer),
                                promotionalOffers: info.promotionalOffers.compactMap(Self.offer),
                                winBackOffers: info.winBackOffers.compactMap(Self.offer))
    }

    private static func offer(_ offer: StoreKit.Product.SubscriptionOffer) -> SubscriptionOffer? {
        let mode: OfferPaymentMode
        switch offer.paymentMode {
        case .freeTrial: mode = .freeTrial
        case .payAsYouGo: mode = .payAsYouGo
        case .payUpFront: mode = .payUpFront
        default: return nil
        }
        guard let period = period(offer.period), offer.periodCount > 0 else { return nil }
        return SubscriptionOffer(id: offer.id, paymentMode: mode, period: period, periodCount: offer.periodCount,
                                 price: offer.price, displayPrice: offer.displayPrice)
    }

    private static func period(_ period: StoreKit.Product.SubscriptionPeriod) -> StoreSubscriptionPeriod? {
        let unit: StoreSubscriptionPeriod.Unit
        switch period.unit {
        case .day: unit = .day
        case .week: unit = .week
        case .month: unit = .month
        case .year: unit = .year
        @unknown default: return nil
        }
        return period.value > 0 ? StoreSubscriptionPeriod(value: period.value, unit: unit) : nil  // its init traps on 0
    }
}

#if os(macOS) || os(tvOS) || IOSIAP_STOREKIT_CHECK_MACOS || IOSIAP_STOREKIT_CHECK_TVOS
/// No StoreKit `Message` exists on macOS and tvOS: a type without values.
public enum LiveMessage: StoreKitMessage {
    public var reason: StoreMessage.Reason {
        switch self {}
    }
}
#else
/// A StoreKit `Message` as `StoreKitMessage`, kept to be displayed.
public struct LiveMessage: StoreKitMessage {
    let message: StoreKit.Message

    /// Its reason; `billingIssue` is iOS 16.4 and `winBackOffer` iOS 18 / visionOS 2, within the deployment
    /// targets. A reason added later is `generic`.
    public var reason: StoreMessage.Reason {
        switch message.reason {
        case .priceIncreaseConsent: .priceIncreaseConsent
        case .billingIssue: .billingIssue
        case .winBackOffer: .winBackOffer
        default: .generic
        }
    }
}
#endif

/// A StoreKit `Transaction` and its signed JWS as `StoreKitTransaction`.
public struct LiveTransaction: StoreKitTransaction {
    let transaction: StoreKit.Transaction
    public let jwsRepresentation: String

    init(_ transaction: StoreKit.Transaction, jws: String) {
        self.transaction = transaction
        jwsRepresentation = jws
    }

    public var id: UInt64 { transaction.id }
    public var originalID: UInt64 { transaction.originalID }
    public var productID: String { transaction.productID }
    public var productType: ProductType {
        LiveProduct.productType(transaction.productType,
                                isSubscription: transaction.expirationDate != nil || transaction.subscriptionGroupID != nil)
    }
    public var purchasedQuantity: Int { transaction.purchasedQuantity }
    public var purchaseDate: Date { transaction.purchaseDate }
    public var originalPurchaseDate: Date { transaction.originalPurchaseDate }
    public var expirationDate: Date? { transaction.expirationDate }
    public var revocationDate: Date? { transaction.revocationDate }
    public var revocationReason: RevocationReason? {
        guard let reason = transaction.revocationReason else { return nil }
        if reason == .developerIssue { return .refundedDueToIssue }
        #if canImport(StoreKit, _version: 816)  // back-deployed: no #available
        if reason == .upgradedToBundle { return .upgradedToBundle }
        #endif
        return .refundedForOtherReason
    }
    public var appAccountToken: UUID? { transaction.appAccountToken }
    public var environment: String { transaction.environment.rawValue }
    public var storefrontCountryCode: String { transaction.storefront.countryCode }
    public var ownershipType: OwnershipType {
        if transaction.ownershipType == .familyShared { return .familyShared }
        #if canImport(StoreKit, _version: 816)  // back-deployed: no #available
        if transaction.ownershipType == .assigned { return .assigned }
        #endif
        return .purchased
    }
    public var reason: TransactionReason { transaction.reason == .renewal ? .renewal : .purchase }
    public var subscriptionGroupID: String? { transaction.subscriptionGroupID }
    public var offer: TransactionOffer? {
        guard let offer = transaction.offer else { return nil }
        let type: OfferType
        switch offer.type {
        case .introductory: type = .introductory
        case .promotional: type = .promotional
        case .code: type = .offerCode
        case .winBack: type = .winBack
        default: return nil
        }
        return TransactionOffer(type: type, id: offer.id)
    }
}
#endif
