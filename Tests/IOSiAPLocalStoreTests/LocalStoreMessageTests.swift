import Foundation
import IOSiAPCore
@testable import IOSiAPLocalStore
import IOSiAPTestSupport
import Testing

/// App Store messages in the local store: raised by a control (here, as by `iosiap-store message` in another
/// process), they reach the game as `storeKitMessage` events and are shown only when the game displays them.
@Suite struct LocalStoreMessageTests {
    let folder = TemporaryDirectory()
    static let gold = "com.iosiap.example.club_gold_monthly"

    func open() throws -> (LocalStore, PurchaseStore) {
        let local = try LocalStore(catalogURL: Fixtures.exampleCatalog, stateDirectory: folder.state)
        return (local, try PurchaseStore(backend: local, stateDirectory: folder.state))
    }

    func manager() throws -> LocalStore {
        try LocalStore(catalogURL: Fixtures.exampleCatalog, stateDirectory: folder.state)
    }

    func nextMessage(_ store: PurchaseStore) async throws -> StoreMessage {
        let events = try await store.pollUntil { if case .storeKitMessage = $0 { true } else { false } }
        guard case .storeKitMessage(let message) = events.last else { throw EventTimeout(description: "\(events)") }
        return message
    }

    @Test func eachKindOfMessageReachesTheRunningGame() async throws {
        let (local, store) = try open()
        defer { store.close() }
        let manager = try manager()
        defer { manager.close() }
        for reason in [StoreMessage.Reason.priceIncreaseConsent, .billingIssue, .winBackOffer, .generic] {
            let sent = try manager.sendMessage(reason, productID: Self.gold)
            let received = try await nextMessage(store)
            #expect(received == StoreMessage(id: String(sent.id), reason: reason))
        }
        #expect(await store.pollSettled(after: local).isEmpty)  // each told once
    }

    @Test func displayingRecordsItOnceAndUnknownIDsAreRefused() async throws {
        let (local, store) = try open()
        defer { store.close() }
        try local.sendMessage(.priceIncreaseConsent, productID: Self.gold)
        let message = try await nextMessage(store)
        #expect(try local.messages().first?.displayed == nil)

        try store.displayMessage(id: message.id)
        let shown = try #require(try local.messages().first)
        #expect(shown.displayed != nil && shown.productID == Self.gold && shown.reason == .priceIncreaseConsent)
        #expect(thrownCode { try store.displayMessage(id: message.id) } == .wrongState)
        #expect(thrownCode { try store.displayMessage(id: "999") } == .invalidArgument)
        #expect(thrownCode { try store.displayMessage(id: "not a number") } == .invalidArgument)
        // Ids are matched as the text they were given in, as StoreKit's backend matches them: "+1" or "01" is
        // no id a game was given, though it reads as the same number.
        try local.sendMessage(.billingIssue, productID: Self.gold)
        let next = try await nextMessage(store)
        for variant in ["+" + next.id, "0" + next.id, " " + next.id] {
            #expect(thrownCode { try store.displayMessage(id: variant) } == .invalidArgument)
        }
        try store.displayMessage(id: next.id)
    }

    @Test func aMessageRaisedWhileNoGameRunsWaitsAndOneNotDisplayedComesAgainAtTheNextLaunch() async throws {
        let manager = try manager()
        defer { manager.close() }
        let sent = try manager.sendMessage(.billingIssue, productID: Self.gold)
        var (_, store) = try open()
        #expect(try await nextMessage(store).id == String(sent.id))
        store.close()

        (_, store) = try open()
        let again = try await nextMessage(store)
        #expect(again.id == String(sent.id))
        try store.displayMessage(id: again.id)
        store.close()

        let local: LocalStore
        (local, store) = try open()
        defer { store.close() }
        #expect(await store.pollSettled(after: local).isEmpty)  // displayed: gone
    }

    @Test func aMessageNeverDeliveredCannotBeDisplayed() async throws {
        let manager = try manager()
        defer { manager.close() }
        let sent = try manager.sendMessage(.generic, productID: Self.gold)
        // The transaction manager's store delivers nothing, so it cannot display what a game has not had.
        #expect(thrownCode { try manager.displayMessage(id: String(sent.id), uiContext: nil) } == .invalidArgument)
    }

    @Test func badMessagesAreRefusedAndChangeNothing() throws {
        let manager = try manager()
        defer { manager.close() }
        #expect(thrownCode { try manager.sendMessage(.priceIncreaseConsent, productID: "com.iosiap.example.nope") } == .unknownProduct)
        #expect(thrownCode { try manager.sendMessage(.billingIssue, productID: "com.iosiap.example.coins_100") } == .invalidArgument)
        #expect(thrownCode { try manager.sendMessage(.winBackOffer, productID: Self.gold, offerID: "no_such_offer") }
                == .invalidOfferIdentifier)
        #expect(thrownCode { try manager.sendMessage(.priceIncreaseConsent, productID: Self.gold, offerID: "x") } == .invalidArgument)
        #expect(try manager.messages().isEmpty)
    }
}

/// AppStoreStorefront changes in the local store reach a running game as `storefrontChanged`, once, whoever sets it.
@Suite struct LocalStoreStorefrontChangeTests {
    let folder = TemporaryDirectory()

    func open(storefront: String? = nil) throws -> LocalPurchaseStore {
        try LocalPurchaseStore.open(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state,
                                    storefront: storefront)
    }

    @Test func aChangeInThisProcessReachesTheGameOnce() async throws {
        let opened = try open()
        defer { opened.store.close() }
        try opened.localStore.setStorefront("DEU")
        let events = try await opened.store.pollUntil { _ in true }
        #expect(events == [.storefrontChanged(storefront: "DEU")])
        #expect(try await opened.store.storefront() == "DEU")
        try opened.localStore.setStorefront("DEU")  // the same again: no change
        #expect(await opened.store.pollSettled(after: opened.localStore).isEmpty)
    }

    @Test func aChangeByAnotherProcessReachesTheGameOnce() async throws {
        let opened = try open()
        defer { opened.store.close() }
        let manager = try LocalStore(catalogURL: Fixtures.exampleCatalog, stateDirectory: folder.state)
        defer { manager.close() }
        try manager.setStorefront("JPN")
        let events = try await opened.store.pollUntil { _ in true }
        #expect(events == [.storefrontChanged(storefront: "JPN")])
        try manager.setStorefront("JPN")
        #expect(await opened.store.pollSettled(after: opened.localStore).isEmpty)
    }

    @Test func theStorefrontAGameOpensWithIsNoChange() async throws {
        var opened = try open(storefront: "FRA")
        opened.store.close()
        opened = try open()  // back to the catalog's: that is where this launch starts, not a change
        defer { opened.store.close() }
        #expect(try await opened.store.storefront() == "USA")
        #expect(await opened.store.pollSettled(after: opened.localStore).isEmpty)
        #expect(thrownCode { try opened.localStore.setStorefront("XXX") } == .invalidArgument)
        #expect(await opened.store.pollSettled(after: opened.localStore).isEmpty)
    }
}
