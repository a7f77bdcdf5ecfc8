import Foundation
import IOSiAPCore
import IOSiAPStoreKit
import IOSiAPTestSupport
import Testing

/// The StoreKit backend's part in App Store messages (`Message.messages`, `display(in:)`) and storefront
/// changes (`Storefront.updates`): what reaches the game, and what is asked of StoreKit.
@Suite struct StoreKitMessageTests {
    let folder = TemporaryDirectory()
    let storeKit = ScriptedStoreKit()
    static let scene = UIContext(UnsafeMutableRawPointer(bitPattern: 0x5CE7E)!)

    func open() throws -> PurchaseStore {
        let backend = StoreKitBackend(api: storeKit)
        return try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: backend.verifier)
    }

    func messages(_ count: Int, from store: PurchaseStore) async throws -> [StoreMessage] {
        var found: [StoreMessage] = []
        _ = try await store.pollUntil { event in
            if case .storeKitMessage(let message) = event { found.append(message) }
            return found.count == count
        }
        return found
    }

    @Test func eachMessageStoreKitSendsReachesTheGameWithAnIDAndItsReason() async throws {
        let store = try open()
        defer { store.close() }
        for (serial, reason) in StoreMessage.Reason.allCases.enumerated() {
            storeKit.sendMessage(.init(reason: reason, serial: serial))
        }
        let received = try await messages(StoreMessage.Reason.allCases.count, from: store)
        #expect(received.map(\.reason) == StoreMessage.Reason.allCases)
        #expect(Set(received.map(\.id)).count == received.count)  // one id each
        #expect(storeKit.script.withLock { $0.displayed.isEmpty })  // nothing shown until the game asks
    }

    @Test func displayShowsThatMessageInTheGamesSceneOnce() async throws {
        let store = try open()
        defer { store.close() }
        let first = ScriptedStoreKit.FakeMessage(reason: .priceIncreaseConsent, serial: 1)
        let second = ScriptedStoreKit.FakeMessage(reason: .priceIncreaseConsent, serial: 2)
        storeKit.sendMessage(first)
        storeKit.sendMessage(second)
        let received = try await messages(2, from: store)

        try store.displayMessage(id: received[1].id, uiContext: Self.scene)
        var shown = storeKit.script.withLock { $0.displayed }
        #expect(shown.map(\.message) == [second] && shown.first?.uiContext == Self.scene)
        #expect(thrownCode { try store.displayMessage(id: received[1].id, uiContext: Self.scene) } == .wrongState)
        #expect(thrownCode { try store.displayMessage(id: "42", uiContext: Self.scene) } == .invalidArgument)
        shown = storeKit.script.withLock { $0.displayed }
        #expect(shown.count == 1)
    }

    /// Games call display from any thread: one message asked for by several at once is shown once.
    @Test func aMessageDisplayedFromSeveralThreadsAtOnceIsShownOnce() async throws {
        let store = try open()
        defer { store.close() }
        storeKit.script.withLock { $0.displayTime = 0.002 }
        for serial in 0..<20 { storeKit.sendMessage(.init(reason: .billingIssue, serial: serial)) }
        let ids = try await messages(20, from: store).map(\.id)
        let shown = Locked(0)
        for id in ids {
            // Four game threads at once, threads of their own: showing a message takes a while, and neither this test
            // nor `concurrentPerform` (whose threads are the concurrency pool's) may block a thread of the pool for it.
            let done = AsyncSignal()
            for _ in 0..<4 {
                Thread {
                    if (try? store.displayMessage(id: id, uiContext: Self.scene)) != nil { shown.withLock { $0 += 1 } }
                    done.signal()
                }.start()
            }
            for _ in 0..<4 { await done.wait() }
        }
        #expect(shown.withLock { $0 } == 20)
        #expect(storeKit.script.withLock { $0.displayed.count } == 20)
    }

    @Test func aDisplayStoreKitCannotStartFailsAndKeepsTheMessage() async throws {
        let store = try open()
        defer { store.close() }
        storeKit.sendMessage(.init(reason: .billingIssue, serial: 1))
        let message = try #require(try await messages(1, from: store).first)
        storeKit.script.withLock { $0.displayFailure = .uiContextRequired("a message needs the game's UIWindowScene") }
        #expect(thrownCode { try store.displayMessage(id: message.id) } == .unsupportedPlatform)
        storeKit.script.withLock { $0.displayFailure = .unsupported }
        #expect(thrownCode { try store.displayMessage(id: message.id) } == .unsupportedPlatform)
        storeKit.script.withLock { $0.displayFailure = nil }
        try store.displayMessage(id: message.id, uiContext: Self.scene)  // still there: shown now
        #expect(storeKit.script.withLock { $0.displayed.count } == 1)
    }

    @Test func whereStoreKitHasNoMessagesDisplayIsUnsupported() throws {
        storeKit.script.withLock { $0.hasMessages = false }
        let store = try open()
        defer { store.close() }
        #expect(thrownCode { try store.displayMessage(id: "1", uiContext: Self.scene) } == .unsupportedPlatform)
    }

    @Test func eachStorefrontUpdateReachesTheGame() async throws {
        let store = try open()
        defer { store.close() }
        storeKit.sendStorefront("DEU")
        storeKit.sendStorefront("JPN")
        var seen: [String] = []
        _ = try await store.pollUntil { event in
            if case .storefrontChanged(let storefront) = event { seen.append(storefront) }
            return seen.count == 2
        }
        #expect(seen == ["DEU", "JPN"])
    }
}
