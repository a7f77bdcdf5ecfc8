import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPStoreKit
import IOSiAPTestSupport
import StoreKit
import Testing
@testable import UIKit

/// LiveStoreKit, the code that calls StoreKit on iPhone, run unchanged on the behavioural StoreKit of
/// Tests/StoreKitStandIn (backed by a local store): what a player does, seen by the game through the core.
/// StoreKit is one per process, so these tests run one at a time.
@Suite(.serialized) final class StandInTests {
    static let prefix = "com.iosiap.example."
    static let pro = prefix + "pro_upgrade"
    static let coins = prefix + "coins_100"
    static let gold = prefix + "club_gold_monthly"
    static let silver = prefix + "club_silver_monthly"
    /// The App Store's side: the local store's state (what `iosiap-store --state` changes).
    let appStore = TemporaryDirectory()
    /// The device's side: the game's journal, gone with a reinstall.
    var device = TemporaryDirectory()
    let clock = TestClock()

    init() async throws {
        let clock = self.clock
        try StoreKitStandIn.open(configuration: Fixtures.exampleCatalog, stateDirectory: appStore.url, now: { clock.now })
        // The game's window, in the foreground: where a purchase without a UI context confirms.
        await MainActor.run {
            let scene = UIWindowScene()
            scene.activationState = .foregroundActive
            UIApplication.shared.connectedScenes = [scene]
        }
    }

    deinit {
        StoreKitStandIn.close()
        StoreKitStandIn.stopForging()
    }

    /// The game's store over StoreKit, as `iosiap_store_open_storekit` opens it (with `serverVerifier` after
    /// StoreKit's verdict, as `StoreKitPurchaseStore.open`); on the test's clock if given (as the App Store's is).
    func openGame(now clock: TestClock? = nil, serverVerifier: (any TransactionVerifier)? = nil) throws -> PurchaseStore {
        guard let clock else {
            return try StoreKitPurchaseStore.open(api: LiveStoreKit(), stateDirectory: device.state, serverVerifier: serverVerifier)
        }
        let backend = StoreKitBackend(api: LiveStoreKit())
        let verifiers: [any TransactionVerifier] = [backend.verifier] + (serverVerifier.map { [$0] } ?? [])
        return try PurchaseStore(backend: backend, stateDirectory: device.state, verifier: VerifierChain(verifiers), now: { clock.now })
    }

    /// The App Store as `iosiap-store` changes it from outside.
    func outside() throws -> LocalStore {
        let clock = self.clock
        return try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: appStore.state, now: { clock.now })
    }

    /// A launch that buys the pro upgrade, finishes it (the finish reaching StoreKit) and closes.
    @discardableResult
    func buyProFinishAndClose() async throws -> StoreTransaction {
        let store = try openGame()
        defer { store.close() }
        let bought = try await buyAndFinish(store, Self.pro)
        return bought
    }

    func buy(_ store: PurchaseStore, _ productID: String) async throws -> StoreTransaction? {
        _ = try await store.pollUntilTerminal(of: try store.requestProducts([productID]))
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: productID))
        guard case .purchased(_, let transaction) = events.last else { Issue.record("\(events)"); return nil }
        return transaction
    }

    /// Buys `productID`, finishes the purchase and waits until the finish reached StoreKit.
    func buyAndFinish(_ store: PurchaseStore, _ productID: String) async throws -> StoreTransaction {
        let bought = try #require(try await buy(store, productID))
        try store.finish(transactionID: bought.id)
        _ = await store.pollSettled()
        return bought
    }

    /// Waits until `condition` holds, at most 10 seconds (a busy machine may take long; a pass takes milliseconds).
    static func waitUntil(_ condition: () -> Bool) async {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition(), ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
    }

    @Test func aPurchaseIsVerifiedByStoreKitAndEntitles() async throws {
        let store = try openGame()
        defer { store.close() }
        let bought = try #require(try await buy(store, Self.pro))
        #expect(bought.productID == Self.pro && bought.environment == .sandbox)
        try store.finish(transactionID: bought.id)
        _ = await store.pollSettled()  // the finish reached StoreKit
        #expect(try store.isEntitled(to: Self.pro))
        #expect(await Transaction.unfinished.reduce(into: 0) { count, _ in count += 1 } == 0)
    }

    /// Issue 34, item 1: a reinstall (or a new phone) starts with an empty journal, while StoreKit's
    /// `currentEntitlements` still lists what the user owns, without any sign-in. The game is entitled at launch.
    @Test func aReinstallIsEntitledAtLaunch() async throws {
        try await buyProFinishAndClose()
        device = TemporaryDirectory()  // the app deleted and installed again
        let store = try openGame()
        defer { store.close() }
        // Nothing is told: the launch records what StoreKit lists, beside the game.
        await Self.waitUntil { (try? store.isEntitled(to: Self.pro)) == true }
        #expect(try store.isEntitled(to: Self.pro))
        #expect(await store.pollSettled().isEmpty)
        #expect(try store.currentEntitlements().map(\.productID) == [Self.pro])
    }

    /// Issue 34, item 1: a restore whose sign-in the user dismisses (`AppStore.sync()` throws `userCancelled`) still
    /// gives what StoreKit holds on the device.
    @Test func aRestoreWhoseSignInIsDismissedGivesTheDevicesEntitlements() async throws {
        try await buyProFinishAndClose()
        device = TemporaryDirectory()
        try StoreKitStandIn.setSyncCancelled(true)
        let store = try openGame()
        defer { store.close() }
        let events = try await store.pollUntilTerminal(of: try store.requestRestore())
        let restored = events.compactMap { if case .restored(_, let transaction) = $0 { transaction.productID } else { nil } }
        #expect(restored == [Self.pro], "\(events)")
        #expect(try store.isEntitled(to: Self.pro))
    }

    /// Issue 34, item 2: a subscriber whose renewal failed keeps the subscription through the billing grace period,
    /// where StoreKit keeps it among the current entitlements; the transaction carries only its expiration date. At
    /// the next launch the game is entitled until the grace period ends, and a restore gives it.
    @Test func aSubscriptionInItsGracePeriodEntitles() async throws {
        let outside = try outside()
        defer { outside.close() }
        try outside.setBillingIssuesEnabled(true)
        try outside.setBillingGracePeriodEnabled(true)
        let end: Date
        do {
            let store = try openGame(now: clock)
            let bought = try #require(try await buy(store, Self.gold))
            end = try #require(bought.expirationDate)
            try store.finish(transactionID: bought.id)
            _ = await store.pollSettled()
            store.close()
        }
        clock.advance(by: end.timeIntervalSince(clock.now) + 86_400)  // a day after the renewal failed
        _ = try await outside.restore()  // the App Store's clock moves on: billing retry, in the grace period
        let group = try #require(try outside.allTransactions().first?.subscriptionGroupID)
        let status = try await outside.subscriptionStatus(groupID: group)
        #expect(status?.state == .inGracePeriod)
        let store = try openGame(now: clock)
        defer { store.close() }
        await Self.waitUntil { (try? store.isEntitled(to: Self.gold)) == true }
        #expect(try store.isEntitled(to: Self.gold))
        let events = try await store.pollUntilTerminal(of: try store.requestRestore())
        let restored = events.compactMap { if case .restored(_, let transaction) = $0 { transaction.productID } else { nil } }
        #expect(restored == [Self.gold], "\(events)")
    }

    /// Issue 34, item 3: StoreKit lists one status per subscription the user has in a group, a family member's
    /// shared one beside their own ("Product.SubscriptionInfo.status": "The array can have more than one
    /// subscription status if your subscription supports Family Sharing. Provide the customer with service for the
    /// subscription based on the highest level of service where the state is subscribed."). The game is told the
    /// shared gold (level 1) over its own silver (level 2), and its own silver once the sharing ends.
    @Test func aGroupsStatusIsItsHighestLevelSubscribed() async throws {
        // The example catalog with its club family-shareable.
        var catalog = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.exampleCatalog)) as? [String: Any])
        var groups = try #require(catalog["subscriptionGroups"] as? [[String: Any]])
        let subscriptions = try #require(groups.first?["subscriptions"] as? [[String: Any]])
        groups[0]["subscriptions"] = subscriptions.map { $0.merging(["familyShareable": true]) { $1 } }
        catalog["subscriptionGroups"] = groups
        let shareable = appStore.url.appendingPathComponent("shareable.storekit")
        try JSONSerialization.data(withJSONObject: catalog).write(to: shareable)
        let clock = self.clock
        try StoreKitStandIn.open(configuration: shareable, stateDirectory: appStore.url, now: { clock.now })
        let outside = try LocalStore(catalog: Catalog.load(contentsOf: shareable), stateDirectory: appStore.state, now: { clock.now })
        defer { outside.close() }
        let store = try openGame(now: clock)
        defer { store.close() }
        let shared = try outside.buyFamilySharedProduct(Self.gold)
        let own = try #require(try await buy(store, Self.silver))
        #expect(own.ownershipType == .purchased)
        let group = try #require(own.subscriptionGroupID)
        #expect(try await Product.SubscriptionInfo.status(for: group).count == 2)  // the stand-in lists both
        let status = try #require(try await store.subscriptionStatus(groupID: group))
        #expect(status.state == .subscribed && status.transaction.productID == Self.gold)

        try outside.stopFamilySharing(transactionID: shared.id)
        let after = try #require(try await store.subscriptionStatus(groupID: group))
        #expect(after.state == .subscribed && after.transaction.id == own.id)
    }

    /// Issue 34, item 2, while the game runs: a renewal that fails into the grace period changes no transaction, so
    /// `Transaction.updates` says nothing; the subscription's status changes ("Product.SubscriptionInfo.Status.updates"),
    /// and the game stays entitled past the expiration date, through the grace period.
    @Test func aGracePeriodThatStartsWhileTheGameRunsKeepsTheEntitlement() async throws {
        let outside = try outside()
        defer { outside.close() }
        try outside.setBillingIssuesEnabled(true)
        try outside.setBillingGracePeriodEnabled(true)
        let store = try openGame(now: clock)
        defer { store.close() }
        let bought = try await buyAndFinish(store, Self.gold)
        let end = try #require(bought.expirationDate)
        clock.advance(by: end.timeIntervalSince(clock.now) + 86_400)  // a day after the renewal failed
        let group = try #require(bought.subscriptionGroupID)
        // The App Store's clock moves on as StoreKit asks it: billing retry, in the grace period.
        #expect(try await Product.SubscriptionInfo.status(for: group).first?.state == .inGracePeriod)
        await Self.waitUntil { (try? store.isEntitled(to: Self.gold)) == true }
        #expect(try store.isEntitled(to: Self.gold))
        let entitlement = try #require(try store.currentEntitlements().first)
        #expect(entitlement.id == bought.id && (entitlement.gracePeriodExpirationDate ?? .distantPast) > clock.now)
    }

    /// A grace period that ends before the end the game's record holds (here the App Store expires the
    /// subscription in billing retry): the status leaves grace ("Product.SubscriptionInfo.Status.updates" emits;
    /// `.expired` does not entitle, "Product.SubscriptionInfo.RenewalState"), and the game is no longer entitled
    /// then, not at the grace end it learnt, and is told `expired`.
    @Test func aGracePeriodThatEndsEarlyEndsTheEntitlement() async throws {
        let outside = try outside()
        defer { outside.close() }
        try outside.setBillingIssuesEnabled(true)
        try outside.setBillingGracePeriodEnabled(true)
        let store = try openGame(now: clock)
        defer { store.close() }
        let bought = try await buyAndFinish(store, Self.gold)
        let end = try #require(bought.expirationDate)
        clock.advance(by: end.timeIntervalSince(clock.now) + 86_400)
        let group = try #require(bought.subscriptionGroupID)
        #expect(try await Product.SubscriptionInfo.status(for: group).first?.state == .inGracePeriod)
        await Self.waitUntil { (try? store.isEntitled(to: Self.gold)) == true }
        #expect(try store.isEntitled(to: Self.gold))

        try outside.expireSubscription(productID: Self.gold)
        let events = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        #expect(events.contains { if case .expired(let transaction) = $0 { transaction.id == bought.id } else { false } })
        #expect(try !store.isEntitled(to: Self.gold))
    }

    /// A grace period that ends early while the game is closed (the App Store expires the subscription in billing
    /// retry): at the next launch StoreKit no longer lists it among the current entitlements ("Transaction.
    /// currentEntitlements": subscribed or in grace only), and the entitlement ends then, not at the grace end the
    /// game's record holds.
    @Test func aGracePeriodThatEndsWhileTheGameIsClosedEndsAtLaunch() async throws {
        let outside = try outside()
        defer { outside.close() }
        try outside.setBillingIssuesEnabled(true)
        try outside.setBillingGracePeriodEnabled(true)
        do {
            let store = try openGame(now: clock)
            defer { store.close() }
            let bought = try await buyAndFinish(store, Self.gold)
            clock.advance(by: try #require(bought.expirationDate).timeIntervalSince(clock.now) + 86_400)
            #expect(try await Product.SubscriptionInfo.status(for: try #require(bought.subscriptionGroupID)).first?.state == .inGracePeriod)
            await Self.waitUntil { (try? store.isEntitled(to: Self.gold)) == true }
            try #require(try store.isEntitled(to: Self.gold), "entitled in the grace period")
        }
        // A launch while the grace period runs keeps the entitlement: the launch's report ends only what it must.
        try relaunchStoreKit()
        do {
            let store = try openGame(now: clock)
            defer { store.close() }
            _ = try await settled(store) { Self.read { $0.currentEntitlements >= 1 && $0.all >= 1 } }
            #expect(try store.isEntitled(to: Self.gold))
        }
        try outside.expireSubscription(productID: Self.gold)
        try relaunchStoreKit()
        let store = try openGame(now: clock)
        defer { store.close() }
        let events = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        #expect(events.contains { if case .expired(let transaction) = $0 { transaction.productID == Self.gold } else { false } })
        #expect(try !store.isEntitled(to: Self.gold))
    }

    /// Issue 34, item 4: a purchase without a UI context confirms in the app's foreground-active window scene; with
    /// none it is refused with IOSIAP_E_INVALID_PRESENTATION_CONTEXT and nothing is charged (StoreKit's
    /// `purchase(options:)` fails from iOS 18.2 when it finds no scene, so it is never called on iOS).
    @Test func aPurchaseWithoutAUIContextConfirmsInTheForegroundSceneOrIsRefused() async throws {
        let store = try openGame()
        defer { store.close() }
        _ = try await store.pollUntilTerminal(of: try store.requestProducts([Self.coins]))
        await MainActor.run { UIApplication.shared.connectedScenes = [] }
        let refused = try await store.pollUntilTerminal(of: try store.requestPayment(productID: Self.coins)).last
        guard case .failed(_, _, let error) = refused else { Issue.record("not refused: \(String(describing: refused))"); return }
        #expect(error.code == .invalidPresentationContext)
        #expect(try await outside().transactionHistory().isEmpty)

        let foreground = await MainActor.run {
            let background = UIWindowScene()
            background.activationState = .background
            let foreground = UIWindowScene()
            foreground.activationState = .foregroundActive
            UIApplication.shared.connectedScenes = [background, foreground]
            return ObjectIdentifier(foreground)
        }
        guard case .purchased(_, let transaction) = try await store.pollUntilTerminal(of: try store.requestPayment(productID: Self.coins)).last
        else { Issue.record("not purchased"); return }
        #expect(transaction.productID == Self.coins)
        #expect(try StoreKitStandIn.lastConfirmationScene() == foreground, "confirmed in the foreground scene")

        // A view controller given as the UI context: the confirmation shows by it, in its window's scene, not in
        // the foreground scene (iOS 18.2's `purchase(confirmIn: UIViewController)`).
        let (viewController, itsScene) = await MainActor.run {
            let scene = UIWindowScene()
            scene.activationState = .foregroundInactive
            let window = UIWindow()
            window.windowScene = scene
            let view = UIView()
            view.window = window
            let viewController = UIViewController()
            viewController.viewIfLoaded = view
            return (viewController, scene)
        }
        let request = PaymentRequest(productID: Self.coins, uiContext: UIContext(viewController))
        guard case .purchased = try await store.pollUntilTerminal(of: try store.requestPayment(request)).last
        else { Issue.record("not purchased with a view controller"); return }
        let expected = await MainActor.run { ObjectIdentifier(itsScene) }
        #expect(try StoreKitStandIn.lastConfirmationScene() == expected, "confirmed in the view controller's scene")
        withExtendedLifetime(viewController) {}
    }

    /// A refund made while the game was closed (iosiap-store refund) reaches the journal at the next launch: StoreKit's
    /// updates need not report it again, so the backend looks for refunds in `Transaction.all` at launch. A
    /// reinstall is not told refunds of what it never granted.
    @Test func aRefundMadeWhileClosedEndsTheEntitlementAtTheNextLaunch() async throws {
        let bought = try await buyProFinishAndClose()
        do {
            let outside = try outside()
            _ = try outside.refund(transactionID: bought.id)
            outside.close()
        }
        StoreKitStandIn.close()  // the app's next launch: StoreKit starts again
        let clock = self.clock
        try StoreKitStandIn.open(configuration: Fixtures.exampleCatalog, stateDirectory: appStore.url, now: { clock.now })
        do {
            let store = try openGame()
            let events = try await store.pollUntil { if case .revoked = $0 { true } else { false } }
            #expect(events.last.map { if case .revoked(let transaction) = $0 { transaction.id == bought.id } else { false } } == true)
            #expect(try !store.isEntitled(to: Self.pro))
            store.close()
        }
        device = TemporaryDirectory()  // a reinstall: nothing to take back, nothing told
        let store = try openGame()
        defer { store.close() }
        #expect(try await settled(store) { Self.read { $0.currentEntitlements >= 1 && $0.all >= 1 } }.isEmpty)
        #expect(try !store.isEntitled(to: Self.pro))
    }
}
