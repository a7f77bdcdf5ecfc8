import Foundation
import IOSiAPCore
import IOSiAPStoreKit
import IOSiAPTestSupport
import Testing

@Suite struct StoreKitBackendTests {
    let folder = TemporaryDirectory()
    let storeKit = ScriptedStoreKit()

    func open() throws -> PurchaseStore {
        let backend = StoreKitBackend(api: storeKit)
        return try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: backend.verifier)
    }

    func openLoaded() async throws -> PurchaseStore {
        let store = try open()
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins", "pro"]))
        return store
    }

    func buy(_ store: PurchaseStore, _ product: String, quantity: Int = 1) async throws -> StoreEvent? {
        try await store.pollUntilTerminal(of: try store.requestPayment(productID: product, quantity: quantity)).last
    }

    @Test func productsComeFromStoreKitAndUnknownIDsAreInvalid() async throws {
        let store = try open()
        let request = try store.requestProducts(["pro", "nope", "coins"])
        let events = try await store.pollUntilTerminal(of: request)
        guard case .productsReceived(_, let products, let invalid) = events.last else { Issue.record("\(events)"); return }
        #expect(products.map(\.id) == ["pro", "coins"])
        #expect(products.first?.displayPrice == "$0.99")
        #expect(invalid == ["nope"])
    }

    @Test func aVerifiedPurchaseIsPurchasedWithItsJWS() async throws {
        storeKit.script.withLock { $0.purchases = [.success(.success(.verified(ScriptedStoreKit.transaction(5, "coins"))))] }
        let store = try await openLoaded()
        let token = UUID()
        let request = try store.requestPayment(productID: "coins", quantity: 4, appAccountToken: token)
        let events = try await store.pollUntilTerminal(of: request)
        guard case .purchased(request, let transaction) = events.last else { Issue.record("\(events)"); return }
        #expect(transaction.signedJWS == "header.payload-of-5.signature")
        let asked = storeKit.script.withLock { $0.purchaseRequests.first }
        #expect(asked == PaymentRequest(productID: "coins", quantity: 4, appAccountToken: token))
        try store.finish(transactionID: 5)
        _ = await store.pollSettled()
        #expect(storeKit.script.withLock { $0.finished } == [5])
    }

    @Test func anUnverifiedPurchaseIsAVerificationFailure() async throws {
        storeKit.script.withLock {
            $0.purchases = [.success(.success(.unverified(ScriptedStoreKit.transaction(6, "coins"), .invalidSignature)))]
        }
        let store = try await openLoaded()
        guard case .verificationFailed(_, let transaction, let error) = try await buy(store, "coins") else { Issue.record("not failed"); return }
        #expect(transaction.id == 6)
        #expect(error.code == .verificationInvalidSignature)
        #expect(try store.unfinishedTransactions().map(\.id) == [6])
    }

    @Test func cancelledIsNotFailedWhetherReturnedOrThrown() async throws {
        storeKit.script.withLock { $0.purchases = [.success(.userCancelled), .failure(.userCancelled)] }
        let store = try await openLoaded()
        for _ in 0..<2 {
            guard case .cancelled = try await buy(store, "pro") else { Issue.record("not cancelled"); return }
        }
    }

    @Test func pendingIsDeferredAndTheApprovalArrivesThroughUpdates() async throws {
        storeKit.script.withLock { $0.purchases = [.success(.pending)] }
        let store = try await openLoaded()
        guard case .deferred = try await buy(store, "pro") else { Issue.record("not deferred"); return }
        let approved = ScriptedStoreKit.transaction(9, "pro", .nonConsumable)
        storeKit.sendUpdate(.verified(approved))
        let events = try await store.pollUntil { _ in true }
        guard case .purchased(nil, let transaction) = events.first else { Issue.record("\(events)"); return }
        #expect(transaction.id == 9)
    }

    /// StoreKit answers a purchase of something owned with the transaction that grants it; a pending one ends when
    /// that transaction arrives in the updates again, unchanged. The game, told it was deferred, hears how it
    /// ended; the same transaction arriving once more, with no purchase waiting, is told nothing.
    @Test func aPendingPurchaseOfSomethingOwnedEndsWithTheTransactionToldBefore() async throws {
        let owned = ScriptedStoreKit.transaction(9, "pro", .nonConsumable)
        storeKit.script.withLock { $0.purchases = [.success(.success(.verified(owned))), .success(.pending)] }
        let store = try await openLoaded()
        guard case .purchased(_, let bought) = try await buy(store, "pro"), bought.id == 9 else { Issue.record("not purchased"); return }
        guard case .deferred = try await buy(store, "pro") else { Issue.record("not deferred"); return }
        storeKit.sendUpdate(.verified(owned))
        let events = try await store.pollUntil { _ in true }
        guard case .purchased(nil, let transaction) = events.first else { Issue.record("\(events)"); return }
        #expect(transaction.id == 9)
        storeKit.sendUpdate(.verified(owned))
        await SerialThreadExecutor.libraryTasks.waitUntilIdle()  // the backend's listener has passed it on
        #expect(await store.pollSettled().isEmpty)
    }

    /// A purchase StoreKit answers while a deferral of its product waits ends that deferral: when StoreKit also
    /// brings its transaction through the updates, the game is told it once, as the payment's answer.
    @Test func aPurchaseAnsweredWhileADeferralWaitsIsToldOnce() async throws {
        let bought = ScriptedStoreKit.transaction(10, "pro", .nonConsumable)
        storeKit.script.withLock { $0.purchases = [.success(.pending), .success(.success(.verified(bought)))] }
        let store = try await openLoaded()
        guard case .deferred = try await buy(store, "pro") else { Issue.record("not deferred"); return }
        guard case .purchased(.some, let answered) = try await buy(store, "pro"), answered.id == 10 else { Issue.record("not purchased"); return }
        storeKit.sendUpdate(.verified(bought))
        await SerialThreadExecutor.libraryTasks.waitUntilIdle()  // the backend's listener has passed it on
        #expect(await store.pollSettled().isEmpty)
    }

    /// A check left to retry is judged with the verdict the journal holds, as the launch's first check is: a
    /// purchase verified and told in an earlier launch, finished since on another device (StoreKit hands it over no
    /// more: a consumable is not in `Transaction.all`), whose server check must be tried again, stays verified and
    /// is told again, never failed.
    @Test func aRetriedCheckKeepsTheVerdictTheJournalHolds() async throws {
        let coins = ScriptedStoreKit.transaction(70, "coins")
        storeKit.script.withLock { $0.purchases = [.success(.success(.verified(coins)))] }
        let fast = VerificationRetryPolicy(initial: .milliseconds(10), maximum: .milliseconds(20))
        func open(_ server: ScriptedVerifier) throws -> PurchaseStore {
            let backend = StoreKitBackend(api: storeKit)
            return try PurchaseStore(backend: backend, stateDirectory: folder.state,
                                     verifier: VerifierChain([backend.verifier, server]), retryPolicy: fast)
        }
        do {
            let store = try open(ScriptedVerifier())
            _ = try await store.pollUntilTerminal(of: try store.requestProducts(["coins"]))
            guard case .purchased(_, let told) = try await buy(store, "coins"), told.id == 70 else { Issue.record("not purchased"); return }
            store.close()  // not finished here
        }
        let server = ScriptedVerifier([.retryLater(StoreError(.verificationRetryable, "the server cannot be reached"))])
        let store = try open(server)
        defer { store.close() }
        let events = try await store.pollUntil { if case .purchased(nil, let transaction) = $0 { transaction.id == 70 } else { false } }
        let failures = events.compactMap { if case .verificationFailed(_, _, let error) = $0 { error.code } else { nil } }
        #expect(failures == [.verificationRetryable])
    }

    /// A reinstall whose server check of what StoreKit says the user owns cannot complete at launch: the check is
    /// tried again in this launch, once per transaction however many reports meet, and the user is entitled as soon
    /// as it passes, not only at the next launch.
    @Test func anEntitlementWhoseCheckCannotCompleteAtLaunchIsCheckedAgainInThatLaunch() async throws {
        storeKit.script.withLock { $0.entitlements = [.verified(ScriptedStoreKit.transaction(33, "pro", .nonConsumable))] }
        let unreachable = VerificationOutcome.retryLater(StoreError(.verificationRetryable, "the server cannot be reached"))
        let server = ScriptedVerifier([unreachable, unreachable])
        let backend = StoreKitBackend(api: storeKit)
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: VerifierChain([backend.verifier, server]),
                                      retryPolicy: VerificationRetryPolicy(initial: .milliseconds(10), maximum: .milliseconds(20)))
        defer { store.close() }
        let deadline = ContinuousClock.now + .seconds(10)
        while try !store.isEntitled(to: "pro"), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(try store.isEntitled(to: "pro"))
        #expect(server.verifiedIDs == [33, 33, 33], "checked once at launch, then until it passed: \(server.verifiedIDs)")
        #expect(await store.pollSettled().isEmpty, "a launch's entitlement report tells the game nothing")
    }

    /// A subscription that ended while the app was closed (an upgrade on another device replaced it) is no longer
    /// among StoreKit's current entitlements, and no update reports it: its newest copy in `Transaction.all` brings
    /// the journal's copy up to date at launch, and it stops entitling then, not at the end its old copy stated.
    /// With a server whose check of that end cannot complete in the first launch after it (the game then closes),
    /// the end is not lost with the launch's retry timer: StoreKit lists the ended chain again at the next launch,
    /// whose check passes, and the subscription stops entitling then.
    @Test(arguments: [false, true])
    func aSubscriptionThatEndedWhileClosedStopsEntitlingAtLaunch(checkWaitsFirst: Bool) async throws {
        var bought = ScriptedStoreKit.transaction(60, "monthly", .autoRenewable)
        bought.expirationDate = Date().addingTimeInterval(30 * 86_400)
        storeKit.script.withLock {
            $0.products = [ScriptedStoreKit.FakeProduct(id: "monthly", type: .autoRenewable)]
            $0.purchases = [.success(.success(.verified(bought)))]
        }
        do {
            let store = try open()
            _ = try await store.pollUntilTerminal(of: try store.requestProducts(["monthly"]))
            _ = try await buy(store, "monthly")
            try store.finish(transactionID: 60)
            #expect(try store.isEntitled(to: "monthly"))
            store.close()
        }
        var replaced = bought
        replaced.expirationDate = Date().addingTimeInterval(-60)
        replaced.signedCopy = ScriptedStoreKit.signedCopy(of: 60, at: 5_000)
        if checkWaitsFirst {
            let relaunched = ScriptedStoreKit()
            relaunched.script.withLock { $0.all = [.verified(replaced)] }
            let backend = StoreKitBackend(api: relaunched)
            let down = VerificationOutcome.retryLater(StoreError(.verificationRetryable, "the server cannot be reached"))
            let server = ScriptedVerifier([down])
            let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: VerifierChain([backend.verifier, server]),
                                          retryPolicy: VerificationRetryPolicy(initial: .seconds(3600)))
            try await waitUntil { server.verifiedIDs == [60] }
            await SerialThreadExecutor.libraryTasks.waitUntilIdle()
            #expect(try store.isEntitled(to: "monthly"), "an end no verifier passed yet changes nothing")
            store.close()
        }
        let relaunched = ScriptedStoreKit()  // the app's next launch: StoreKit starts again
        relaunched.script.withLock { $0.all = [.verified(replaced)] }
        let backend = StoreKitBackend(api: relaunched)
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: VerifierChain([backend.verifier, ScriptedVerifier()]))
        defer { store.close() }
        try await waitUntil { (try? store.isEntitled(to: "monthly")) == false }
        #expect(try !store.isEntitled(to: "monthly"))
    }

    @Test func updatesThatArriveBeforeTheGameAskedAreKept() async throws {
        let backend = StoreKitBackend(api: storeKit)
        storeKit.sendUpdate(.verified(ScriptedStoreKit.transaction(11, "coins")))  // a renewal, say, at launch
        await SerialThreadExecutor.libraryTasks.waitUntilIdle()  // the backend's listener has taken it: the store opens after
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: backend.verifier)
        let events = try await store.pollUntil { _ in true }
        guard case .purchased(nil, let transaction) = events.first else { Issue.record("\(events)"); return }
        #expect(transaction.id == 11)
    }

    @Test func aRefundArrivesAsRevoked() async throws {
        let store = try await openLoaded()
        var refunded = ScriptedStoreKit.transaction(12, "pro", .nonConsumable)
        refunded.revocationDate = Date()
        refunded.revocationReason = .refundedDueToIssue
        storeKit.sendUpdate(.verified(refunded))
        let events = try await store.pollUntil { _ in true }
        guard case .revoked(let transaction) = events.first else { Issue.record("\(events)"); return }
        #expect(transaction.revocationReason == .refundedDueToIssue)
    }

    @Test func restoreSyncsThenReportsTheEntitlements() async throws {
        var store = try open()
        var request = try store.requestRestore()
        #expect(try await store.pollUntilTerminal(of: request) == [.restoreFinished(requestID: request, result: .success(0))])
        store.close()

        storeKit.script.withLock {
            $0.entitlements = [.verified(ScriptedStoreKit.transaction(20, "pro", .nonConsumable)),
                               .unverified(ScriptedStoreKit.transaction(21, "pro2", .nonConsumable), .revokedCertificate)]
        }
        store = try open()
        request = try store.requestRestore()
        let events = try await store.pollUntilTerminal(of: request)
        #expect(events.contains { if case .restored(_, let t) = $0 { t.id == 20 } else { false } })
        #expect(events.contains { if case .verificationFailed(nil, let t, let e) = $0 { t.id == 21 && e.code == .verificationUntrustedChain } else { false } })
        #expect(events.last == .restoreFinished(requestID: request, result: .success(1)))
        store.close()

        storeKit.script.withLock { $0.syncFailure = .networkError("offline") }
        store = try open()
        request = try store.requestRestore()
        guard case .restoreFinished(_, .failure(let error)) = try await store.pollUntilTerminal(of: request).last else {
            Issue.record("restore did not fail"); return
        }
        #expect(error.code == .storeUnreachable)
    }

    /// A user who dismisses the sign-in AppStore.sync() asks for (it throws `userCancelled`, Apple's documentation of
    /// `sync()`) still gets what StoreKit holds on the device: `currentEntitlements` needs no sign-in.
    @Test func aRestoreWhoseSignInTheUserDismissesGivesTheDevicesEntitlements() async throws {
        storeKit.script.withLock {
            $0.syncFailure = .userCancelled
            $0.entitlements = [.verified(ScriptedStoreKit.transaction(30, "pro", .nonConsumable))]
        }
        let store = try open()
        defer { store.close() }
        let request = try store.requestRestore()
        let events = try await store.pollUntilTerminal(of: request)
        #expect(events.contains { if case .restored(_, let t) = $0 { t.id == 30 } else { false } })
        #expect(events.last == .restoreFinished(requestID: request, result: .success(1)))
        #expect(try store.isEntitled(to: "pro"))
    }

    /// A transaction StoreKit called unverified at a restore is recorded finished and failed: a launch, which has no
    /// verdict of StoreKit on that copy, leaves it so and tells nothing; a later restore whose copy StoreKit
    /// verifies restores it.
    @Test func aRestoreCopyStoreKitCalledUnverifiedIsPassedByALaterRestoreNotByALaunch() async throws {
        var unverified = ScriptedStoreKit.transaction(21, "pro", .nonConsumable)
        unverified.signedCopy = "header.first-copy-of-21.signature"
        storeKit.script.withLock { $0.entitlements = [.unverified(unverified, .invalidSignature)] }
        var store = try open()
        var request = try store.requestRestore()
        var events = try await store.pollUntilTerminal(of: request)
        #expect(events.contains { if case .verificationFailed(nil, let t, _) = $0 { t.id == 21 } else { false } })
        #expect(events.last == .restoreFinished(requestID: request, result: .success(0)))
        store.close()

        store = try open()
        #expect(await store.pollSettled().isEmpty)
        #expect(try !store.isEntitled(to: "pro"))
        store.close()

        var verified = unverified
        verified.signedCopy = "header.second-copy-of-21.signature"
        storeKit.script.withLock { $0.entitlements = [.verified(verified)] }
        store = try open()
        defer { store.close() }
        request = try store.requestRestore()
        events = try await store.pollUntilTerminal(of: request)
        #expect(events.contains { if case .restored(_, let t) = $0 { t.id == 21 } else { false } })
        #expect(events.last == .restoreFinished(requestID: request, result: .success(1)))
        #expect(try store.isEntitled(to: "pro"))
    }

    @Test func unfinishedTransactionsAreDeliveredAtLaunch() async throws {
        storeKit.script.withLock { $0.unfinished = [.verified(ScriptedStoreKit.transaction(30, "coins"))] }
        let store = try open()
        let events = try await store.pollUntil { _ in true }
        guard case .purchased(nil, let transaction) = events.first else { Issue.record("\(events)"); return }
        #expect(transaction.id == 30)
    }

    @Test func aTransactionStoreKitCalledUnverifiedStaysUnverifiedAfterARelaunch() async throws {
        storeKit.script.withLock {
            $0.purchases = [.success(.success(.unverified(ScriptedStoreKit.transaction(6, "pro", .nonConsumable), .invalidSignature)))]
        }
        var store = try await openLoaded()
        guard case .verificationFailed = try await buy(store, "pro") else { Issue.record("not failed"); return }
        store.close()
        // The next launch: StoreKit has not (yet) reported it again. Its old verdict stands; nothing passes.
        store = try open()
        let events = try await store.pollUntil { _ in true } + store.pollSettled()
        guard events.count == 1, case .verificationFailed(nil, let transaction, let error) = events[0] else { Issue.record("\(events)"); return }
        #expect(transaction.id == 6 && error.code == .verificationInvalidSignature)
        #expect(try !store.isEntitled(to: "pro") && store.currentEntitlements().isEmpty)
        store.close()
        // A launch in which StoreKit reports it unverified again: said once, still no entitlement.
        storeKit.script.withLock { $0.unfinished = [.unverified(ScriptedStoreKit.transaction(6, "pro", .nonConsumable), .invalidSignature)] }
        store = try open()
        let again = try await store.pollUntil { _ in true } + store.pollSettled()
        #expect(again.count == 1, "\(again)")
        #expect(try !store.isEntitled(to: "pro"))
        store.close()
        // StoreKit verifies it at last: now it is purchased and entitles.
        storeKit.script.withLock { $0.unfinished = [.verified(ScriptedStoreKit.transaction(6, "pro", .nonConsumable))] }
        store = try open()
        let verified = try await store.pollUntil { _ in true } + store.pollSettled()
        guard verified.count == 1, case .purchased(nil, let purchased) = verified[0] else { Issue.record("\(verified)"); return }
        #expect(purchased.id == 6)
        #expect(try store.isEntitled(to: "pro"))
    }

    @Test func aVerdictThatTurnsBadIsKeptForTheNextLaunch() async throws {
        storeKit.script.withLock { $0.purchases = [.success(.success(.verified(ScriptedStoreKit.transaction(9, "pro", .nonConsumable))))] }
        var store = try await openLoaded()
        guard case .purchased = try await buy(store, "pro") else { Issue.record("not purchased"); return }
        store.close()  // not finished
        storeKit.script.withLock { $0.unfinished = [.unverified(ScriptedStoreKit.transaction(9, "pro", .nonConsumable), .revokedCertificate)] }
        store = try open()
        guard case .verificationFailed = try await store.pollUntil({ _ in true }).first else { Issue.record("not failed"); return }
        store.close()
        storeKit.script.withLock { $0.unfinished = [] }  // StoreKit has not reported it yet in this launch
        store = try open()
        let events = try await store.pollUntil { _ in true } + store.pollSettled()
        guard events.count == 1, case .verificationFailed(nil, let transaction, _) = events[0] else { Issue.record("\(events)"); return }
        #expect(transaction.id == 9)
    }

    @Test func aTransactionStoreKitVerifiedInAnEarlierLaunchIsDeliveredAgainAsVerified() async throws {
        storeKit.script.withLock { $0.purchases = [.success(.success(.verified(ScriptedStoreKit.transaction(8, "pro", .nonConsumable))))] }
        var store = try await openLoaded()
        guard case .purchased = try await buy(store, "pro") else { Issue.record("not purchased"); return }
        store.close()  // not finished
        store = try open()
        let events = try await store.pollUntil { _ in true } + store.pollSettled()
        guard events.count == 1, case .purchased(nil, let transaction) = events[0] else { Issue.record("\(events)"); return }
        #expect(transaction.id == 8)
    }

    @Test(arguments: [("Production", StoreEnvironment.production), ("Sandbox", .sandbox), ("Xcode", .xcode)])
    func storeKitEnvironmentsAreKept(name: String, environment: StoreEnvironment) async throws {
        var transaction = ScriptedStoreKit.transaction(60, "coins")
        transaction.environment = name
        storeKit.script.withLock { $0.purchases = [.success(.success(.verified(transaction)))] }
        let store = try await openLoaded()
        guard case .purchased(_, let purchased) = try await buy(store, "coins") else { Issue.record("not purchased"); return }
        #expect(purchased.environment == environment)
    }

    @Test func anUnknownEnvironmentIsNotProductionAndFailsVerification() async throws {
        var transaction = ScriptedStoreKit.transaction(61, "coins")
        transaction.environment = "Staging"
        storeKit.script.withLock { $0.purchases = [.success(.success(.verified(transaction)))] }
        let store = try await openLoaded()
        guard case .verificationFailed(_, let failed, let error) = try await buy(store, "coins") else {
            Issue.record("an unknown environment was not refused"); return
        }
        #expect(error.code == .verificationInvalidEnvironment)
        #expect(failed.environment == .xcode)
        #expect(failed.environment != .production)
    }

    @Test func aWinBackOfferReachesTheGame() async throws {
        var transaction = ScriptedStoreKit.transaction(62, "monthly", .autoRenewable)
        transaction.offer = TransactionOffer(type: .winBack, id: "come_back")
        storeKit.sendUpdate(.verified(transaction))
        let store = try open()
        let events = try await store.pollUntil { _ in true }
        guard case .purchased(_, let purchased) = events.first else { Issue.record("\(events)"); return }
        #expect(purchased.offer == TransactionOffer(type: .winBack, id: "come_back"))
    }

    @Test func aSubscriptionsWinBackOffersReachTheGameWithItsProduct() async throws {
        let winBack = SubscriptionOffer(id: "come_back", paymentMode: .payUpFront, period: StoreSubscriptionPeriod(value: 3, unit: .month),
                                        periodCount: 1, price: 4.99, displayPrice: "$4.99")
        let info = StoreSubscriptionInfo(groupID: "G1", groupName: "Club", level: 1, period: StoreSubscriptionPeriod(value: 1, unit: .month),
                                    introductoryOffer: nil, promotionalOffers: [], winBackOffers: [winBack])
        storeKit.script.withLock { $0.products = [ScriptedStoreKit.FakeProduct(id: "monthly", type: .autoRenewable, subscription: info)] }
        let store = try open()
        let events = try await store.pollUntilTerminal(of: try store.requestProducts(["monthly"]))
        guard case .productsReceived(_, let products, _) = events.last else { Issue.record("\(events)"); return }
        #expect(products.first?.subscription?.winBackOffers == [winBack])
        #expect(products.first?.subscription?.promotionalOffers == [])
    }

    @Test(arguments: [
        (StoreKitFailure.purchaseNotAllowed, StoreErrorCode.paymentNotAllowed),
        (.networkError("down"), .storeUnreachable),
        (.productUnavailable, .storeProductNotAvailable),
        (.notAvailableInStorefront, .storeProductNotAvailable),
        (.invalidQuantity, .quantityOutOfRange),
        (.ineligibleForOffer, .ineligibleForOffer),
        (.invalidOfferSignature, .invalidSignature),
        (.systemError("disk"), .systemError),
        (.unsupported, .unsupportedPlatform),
        (.uiContextRequired("visionOS needs a UIWindowScene"), .unsupportedPlatform),
        (.unsupportedOption("a JWS-signed offer needs the iOS 26 SDK"), .unsupportedPlatform),
        (.invalidUIContext("not a UIViewController"), .invalidArgument),
        // Added by the iOS 26.5 and 27 SDKs: each reaches the game as what it is.
        (.invalidPresentationContext, .invalidPresentationContext),
        (.paymentMethodBindingConfigurationRequired, .paymentMethodBindingConfigurationRequired),
        (.unknown, .unknown),
        (.other("new"), .unknown),
    ])
    func errorsMapToOurCodes(failure: StoreKitFailure, code: StoreErrorCode) async throws {
        storeKit.script.withLock { $0.purchases = [.failure(failure)] }
        let store = try await openLoaded()
        guard case .failed(_, _, let error) = try await buy(store, "coins") else { Issue.record("not failed"); return }
        #expect(error.code == code)
    }

    @Test func theGamesUIContextReachesStoreKitsPurchase() async throws {
        storeKit.script.withLock {
            $0.purchases = [.success(.success(.verified(ScriptedStoreKit.transaction(8, "coins")))),
                            .success(.success(.verified(ScriptedStoreKit.transaction(9, "coins"))))]
        }
        let store = try await openLoaded()
        let scene = NSObject()  // stands for the game's UIWindowScene
        let context = UIContext(scene)
        let request = try store.requestPayment(PaymentRequest(productID: "coins", uiContext: context))
        guard case .purchased = try await store.pollUntilTerminal(of: request).last else { Issue.record("not purchased"); return }
        _ = try await buy(store, "coins")
        let asked = storeKit.script.withLock { $0.purchaseRequests.map(\.uiContext) }
        #expect(asked == [context, nil])
        #expect(asked.first??.pointer == Unmanaged.passUnretained(scene).toOpaque())
    }

    @Test func aPurchaseThatNeedsAUIContextFailsSayingSo() async throws {
        storeKit.script.withLock { $0.purchases = [.failure(.uiContextRequired("a purchase on visionOS needs the game's UIWindowScene"))] }
        let store = try await openLoaded()
        guard case .failed(_, _, let error) = try await buy(store, "coins") else { Issue.record("not failed"); return }
        #expect(error.code == .unsupportedPlatform)
        #expect(error.message.contains("needs the game's UIWindowScene"))
    }

    @Test func aFailingProductsRequestIsProductsFailed() async throws {
        storeKit.script.withLock { $0.productsFailure = .networkError("offline") }
        let store = try open()
        let request = try store.requestProducts(["coins"])
        guard case .productsFailed(_, let error) = try await store.pollUntilTerminal(of: request).last else { Issue.record("not failed"); return }
        #expect(error.code == .storeUnreachable)
    }

    @Test func anAppStoreInitiatedPurchaseReachesTheGameWhichMayPayForIt() async throws {
        storeKit.script.withLock { $0.purchases = [.success(.success(.verified(ScriptedStoreKit.transaction(40, "boost"))))] }
        let store = try open()
        storeKit.sendIntent(ScriptedStoreKit.FakeProduct(id: "boost", type: .consumable, displayPrice: "$1.99"))
        let events = try await store.pollUntil { _ in true }
        guard case .purchaseIntent(let product, let offer) = events.first else { Issue.record("\(events)"); return }
        #expect(product.id == "boost" && product.displayPrice == "$1.99" && offer == nil)
        // The game decides to continue now: the product needs no products request first.
        guard case .purchased(_, let transaction) = try await buy(store, "boost") else { Issue.record("not purchased"); return }
        #expect(transaction.id == 40)
    }

    @Test func storefrontAndSubscriptionStatusComeFromStoreKit() async throws {
        var latest = ScriptedStoreKit.transaction(50, "monthly", .autoRenewable)
        latest.subscriptionGroupID = "G1"
        storeKit.script.withLock {
            $0.statuses = [StoreKitSubscriptionStatus(state: .expired, transaction: .verified(latest), willAutoRenew: false, autoRenewProductID: nil),
                           StoreKitSubscriptionStatus(state: .inGracePeriod, transaction: .verified(latest), willAutoRenew: true,
                                                      autoRenewProductID: "yearly")]
        }
        let store = try open()
        #expect(try await store.storefront() == "FRA")
        let status = try #require(try await store.subscriptionStatus(groupID: "G1"))
        #expect(status.state == .inGracePeriod)
        #expect(status.willAutoRenew && status.autoRenewProductID == "yearly")
        #expect(status.transaction.id == 50)
        storeKit.script.withLock { $0.storefront = nil; $0.statuses = [] }
        #expect(try await store.subscriptionStatus(groupID: "G1") == nil)
        await #expect(throws: StoreError.self) { try await store.storefront() }
    }

    /// A subscription's grace period comes from renewal info StoreKit verified, for the same transaction, and at most
    /// 28 days (the longest App Store grace period) after its expiration: a forged status cannot keep a subscription
    /// for years. Without a readable status the entitlement is not reported at all (rather than as without grace).
    @Test(arguments: [(true, 16.0, 16.0), (false, 16.0, nil), (true, 400.0, nil)] as [(Bool, Double, Double?)])
    func aGracePeriodIsTakenOnlyFromVerifiedRenewalInfoWithinItsLongest(verified: Bool, days: Double, kept: Double?) async throws {
        var latest = ScriptedStoreKit.transaction(60, "monthly", .autoRenewable)
        latest.subscriptionGroupID = "G1"
        let expiration = Date().addingTimeInterval(-86_400)
        latest.expirationDate = expiration
        storeKit.script.withLock {
            $0.entitlements = [.verified(latest)]
            $0.statuses = [StoreKitSubscriptionStatus(state: .inGracePeriod, transaction: .verified(latest), willAutoRenew: true,
                                                      autoRenewProductID: nil, isInBillingRetry: true,
                                                      gracePeriodExpirationDate: expiration.addingTimeInterval(days * 86_400),
                                                      renewalInfoVerified: verified)]
        }
        let store = try open()
        defer { store.close() }
        let restore = try store.requestRestore()
        let events = try await store.pollUntilTerminal(of: restore)
        let restored = events.compactMap { if case .restored(_, let transaction) = $0 { transaction } else { nil } }
        #expect(restored.map(\.gracePeriodExpirationDate) == [kept.map { expiration.addingTimeInterval($0 * 86_400) }])
        #expect(try store.isEntitled(to: "monthly") == (kept != nil))
    }

    /// A reinstall in a billing grace period whose status cannot be read at launch (offline): StoreKit lists the
    /// subscription, past its expiration date, and the status is read again in the launch until it answers; the
    /// user is entitled through grace then, not only at the next launch. A subscription whose period still runs
    /// needs no grace period's end: its status is not read again.
    @Test func aGracePeriodWhoseStatusCannotBeReadAtLaunchIsReadAgainInThatLaunch() async throws {
        var lapsed = ScriptedStoreKit.transaction(61, "monthly", .autoRenewable)
        lapsed.subscriptionGroupID = "G1"
        let expiration = Date().addingTimeInterval(-86_400)
        lapsed.expirationDate = expiration
        var running = ScriptedStoreKit.transaction(62, "yearly", .autoRenewable)
        running.subscriptionGroupID = "G2"
        running.expirationDate = Date().addingTimeInterval(86_400)
        storeKit.script.withLock {
            $0.entitlements = [.verified(lapsed), .verified(running)]
            $0.statuses = [StoreKitSubscriptionStatus(state: .inGracePeriod, transaction: .verified(lapsed), willAutoRenew: true,
                                                      autoRenewProductID: nil, isInBillingRetry: true,
                                                      gracePeriodExpirationDate: expiration.addingTimeInterval(6 * 86_400),
                                                      renewalInfoJWS: "header.renewal-of-61.signature")]
            $0.statusFailures = [.networkError("offline"), .networkError("offline"), .networkError("still offline")]
        }
        let backend = StoreKitBackend(api: storeKit, allTransactionsWait: .seconds(10),
                                      statusRetry: VerificationRetryPolicy(initial: .milliseconds(10), maximum: .milliseconds(20)))
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: backend.verifier)
        defer { store.close() }
        try await waitUntil { try store.isEntitled(to: "monthly") }
        let kept = try #require(try store.currentEntitlements().first { $0.id == 61 })
        #expect(kept.gracePeriodExpirationDate == expiration.addingTimeInterval(6 * 86_400))
        #expect(kept.signedRenewalInfo == "header.renewal-of-61.signature")
        #expect(try store.isEntitled(to: "yearly"))
        try await Task.sleep(for: .milliseconds(100))
        #expect(storeKit.script.withLock { $0.statusReads } == 4, "two at launch, then G1's until it answered")
        #expect(await store.pollSettled().isEmpty, "a launch's entitlement report tells the game nothing")
    }

    /// A copy the journal checks again at launch whose transaction StoreKit holds finished (a purchase bought again
    /// and answered with it while a server could not answer; a reinstall) comes through neither
    /// `Transaction.unfinished` nor the updates: its verdict is StoreKit's from `Transaction.all`, for that very copy.
    @Test(arguments: [true, false])
    func aCopyStoreKitHoldsFinishedIsJudgedByTransactionAll(verified: Bool) async throws {
        var held = ScriptedStoreKit.transaction(90, "pro", .nonConsumable)
        held.signedCopy = ScriptedStoreKit.signedCopy(of: 90, at: 2_000)
        storeKit.script.withLock { $0.all = [verified ? .verified(held) : .unverified(held, .invalidSignature)] }
        let verifier = StoreKitBackend(api: storeKit).verifier
        let copy = StoreTransaction(id: 90, originalID: 90, productID: "pro", productType: .nonConsumable, quantity: 1,
                                    purchaseDate: held.purchaseDate, originalPurchaseDate: held.purchaseDate,
                                    environment: .sandbox, storefront: "USA", signedJWS: held.jwsRepresentation)
        // Another copy of it that says something else (a forged one), asked first, gets no verdict from StoreKit's
        // copy: the recorded one decides. Then the copy StoreKit lists gets StoreKit's, and so does one signed apart
        // before it that says the same (StoreKit signs a transaction anew), but not one that claims to be signed
        // after it (it would outrank StoreKit's copy in the journal).
        var other = copy
        other.signedJWS = ScriptedStoreKit.signedCopy(of: 90, at: 1_000)
        other.purchaseDate = copy.purchaseDate.addingTimeInterval(86_400)
        #expect(await verifier.verify(other, recorded: .notVerified) != .verified)
        let outcome = await verifier.verify(copy, recorded: .notVerified)
        #expect((outcome == .verified) == verified, "\(outcome)")
        var earlier = copy, later = copy
        earlier.signedJWS = ScriptedStoreKit.signedCopy(of: 90, at: 1_000)
        later.signedJWS = ScriptedStoreKit.signedCopy(of: 90, at: 3_000)
        #expect((await verifier.verify(earlier, recorded: .notVerified) == .verified) == verified)
        #expect(await verifier.verify(later, recorded: .notVerified) != .verified)
    }

    /// StoreKit bounds no read of `Transaction.all`: one that does not answer leaves such a copy's check to be tried
    /// again later (never failed), and a verdict the journal kept from an earlier launch still stands meanwhile.
    @Test(.timeLimit(.minutes(1)))
    func aCopyWhoseTransactionAllReadHangsIsCheckedAgainLater() async throws {
        let held = ScriptedStoreKit.transaction(91, "pro", .nonConsumable)
        storeKit.script.withLock { $0.all = [.verified(held)]; $0.allHangs = true }
        let backend = StoreKitBackend(api: storeKit, allTransactionsWait: .milliseconds(200))
        let copy = StoreTransaction(id: 91, originalID: 91, productID: "pro", productType: .nonConsumable, quantity: 1,
                                    purchaseDate: held.purchaseDate, originalPurchaseDate: held.purchaseDate,
                                    environment: .sandbox, storefront: "USA", signedJWS: held.jwsRepresentation)
        guard case .retryLater(let error) = await backend.verifier.verify(copy, recorded: .notVerified) else {
            Issue.record("not left to a later check"); return
        }
        #expect(error.code == .verificationRetryable)
        #expect(await backend.verifier.verify(copy, recorded: .verified) == .verified)
        backend.close()
    }
}
