import Foundation
import IOSiAPCore
@testable import IOSiAPLocalStore
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// The launch after something changed outside the running game: a refund made with the game closed.
@Suite struct RelaunchAfterOutsideChangeTests {
    let folder = TemporaryDirectory()
    static let prefix = "com.iosiap.example."

    func open(verifying: Bool) throws -> (LocalStore, PurchaseStore) {
        let local = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state,
                                   bundleID: "com.iosiap.example")
        let verifier = verifying ? OnDeviceVerifier(try local.makeVerifier()) : nil
        let store = try PurchaseStore(backend: local, stateDirectory: folder.state, verifier: verifier)
        try store.registerGrant(.currency("coins", amountPerUnit: 100), for: Self.prefix + "coins_100")
        store.setDeductsRefundedConsumables(true)
        return (local, store)
    }

    func buy(_ store: PurchaseStore, _ product: String, quantity: Int = 1) async throws -> StoreTransaction {
        _ = try await store.pollUntilTerminal(of: try store.requestProducts([Self.prefix + product]))
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: Self.prefix + product, quantity: quantity))
        switch events.last {
        case .purchased(_, let transaction), .granted(_, let transaction, _): return transaction
        default: throw EventTimeout(description: "\(events)")
        }
    }

    @Test(arguments: [false, true])
    func aRefundMadeWhileTheGameWasClosedReachesItOnceAtTheNextLaunch(verifying: Bool) async throws {
        var pro: StoreTransaction
        var coins: StoreTransaction
        do {
            let (_, store) = try open(verifying: verifying)
            pro = try await buy(store, "pro_upgrade")
            try store.finish(transactionID: pro.id)
            coins = try await buy(store, "coins_100", quantity: 2)
            #expect(try store.balance(of: "coins") == 200)
            store.close()
        }
        // The transaction manager refunds both while the game is closed.
        do {
            let manager = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state,
                                         bundleID: "com.iosiap.example")
            _ = try manager.refund(transactionID: pro.id)
            _ = try manager.refund(transactionID: coins.id, reason: .refundedDueToIssue)
            manager.close()
        }
        do {
            let (local, store) = try open(verifying: verifying)
            var revoked: [UInt64] = []
            let events = try await store.pollUntil { event in
                if case .revoked(let transaction) = event { revoked.append(transaction.id) }
                return revoked.count == 2
            } + store.pollSettled(after: local)
            #expect(Set(revoked) == [pro.id, coins.id], "\(events)")
            #expect(events.count == 2, "\(events)")
            #expect(try !store.isEntitled(to: Self.prefix + "pro_upgrade"))
            #expect(try store.balance(of: "coins") == 0)
            store.close()
        }
        // Told once: the next launch has nothing to say.
        let (local, store) = try open(verifying: verifying)
        #expect(await store.pollSettled(after: local).isEmpty)
        #expect(try !store.isEntitled(to: Self.prefix + "pro_upgrade"))
    }

    @Test func aRefusedOpenChangesNothingTheRunningGameUses() async throws {
        let (_, running) = try open(verifying: false)
        defer { running.close() }
        #expect(try LocalStore.remembered(in: folder.state).bundleID == "com.iosiap.example")
        // A second game on the same directory, with another catalog and bundle id: refused, and it leaves
        // what the transaction manager reads as the running game set it.
        let other = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state,
                                   bundleID: "com.other.game")
        do {
            _ = try PurchaseStore(backend: other, stateDirectory: folder.state)
            Issue.record("a second store opened the directory")
        } catch {
            #expect((error as? StoreError)?.code == .stateDirectoryInUse)
        }
        other.close()
        #expect(try LocalStore.remembered(in: folder.state).bundleID == "com.iosiap.example")
    }

    @Test func theLocaleAndStorefrontOfAnOpenAreTheCatalogsUnlessGivenAndARefusedOpenSavesNeither() throws {
        let catalog = try Catalog.load(contentsOf: Fixtures.exampleCatalog)
        let first = try LocalPurchaseStore.open(catalog: catalog, stateDirectory: folder.state, locale: "de_DE", storefront: "DEU")
        #expect(try first.localStore.currentSettings().locale == "de_DE")
        // A second open of the directory, refused: it saves nothing.
        #expect(throws: StoreError.self) {
            try LocalPurchaseStore.open(catalog: catalog, stateDirectory: folder.state, locale: "ja_JP", storefront: "JPN")
        }
        #expect(try first.localStore.currentSettings().locale == "de_DE")
        #expect(try first.localStore.currentSettings().storefront.code == "DEU")
        first.store.close()
        first.localStore.close()
        // The next launch gives neither: the catalog's apply again, not the last launch's.
        let next = try LocalPurchaseStore.open(catalog: catalog, stateDirectory: folder.state)
        defer { next.store.close() }
        #expect(try next.localStore.currentSettings().locale == catalog.settings.locale)
        #expect(try next.localStore.currentSettings().storefront.code == catalog.settings.storefront.code)
        #expect(throws: StoreError.self) {
            try LocalPurchaseStore.open(catalog: catalog, stateDirectory: TemporaryDirectory().state, storefront: "XYZ")
        }
    }

    /// An open refused because another store (here not a local one) holds the directory writes nothing
    /// there: no local store state, no signing chain.
    @Test func aRefusedOpenCreatesNoLocalStoreFiles() throws {
        let holder = try PurchaseStore(backend: ScriptedBackend(), stateDirectory: folder.state)
        defer { holder.close() }
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.state.url.path).sorted()
        let error = try #require(throws: StoreError.self) {
            try LocalPurchaseStore.open(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state)
        }
        #expect(error.code == .stateDirectoryInUse)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.state.url.path).sorted() == before)
    }
}
