import Foundation
#if canImport(Glibc)
import Glibc
#endif
import IOSiAPCore
import IOSiAPLocalStore
@testable import IOSiAPServerAPI
import IOSiAPVerification
import IOSiAPTestSupport
import Testing

/// Notifications V2 delivery: the outbox in the state directory, recorded once whichever process looks, sent
/// with retries by a sender off the game's paths, its history read from disk.
@Suite struct ServerNotificationDeliveryTests {
    let folder = TemporaryDirectory()
    static let coins = "com.iosiap.example.coins_100"
    static let gold = "com.iosiap.example.club_gold_monthly"

    func openStore() throws -> LocalStore {
        try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: try folder.state)
    }

    @Test func eachChangeIsRecordedOnceAcrossConnections() async throws {
        let first = try openStore()
        let second = try openStore()
        try first.setNotificationURL("http://127.0.0.1:1/notifications")
        _ = try first.buyProduct(Self.coins)  // made after the URL was set: notified
        // Two connections (as two processes) look again and again while purchases land on both.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in [first, second] {
                group.addTask {
                    for round in 0..<20 {
                        if round % 4 == 0 { _ = try store.buyProduct(Self.coins) }
                        try store.recordNotifications()
                    }
                }
            }
            try await group.waitForAll()
        }
        try first.recordNotifications()
        try second.recordNotifications()
        let records = try second.notificationRecords()
        let charges = try first.allTransactions().map(\.id)
        #expect(charges.count == 11)
        #expect(records.map(\.notificationType) == Array(repeating: "ONE_TIME_CHARGE", count: 11))
        #expect(records.compactMap(\.transactionID).sorted() == charges)
        #expect(Set(records.map(\.notificationUUID)).count == 11)
    }

    @Test func historyBeforeTheURLIsNotNotifiedAndClearingStopsRecording() throws {
        let store = try openStore()
        _ = try store.buyProduct(Self.coins)
        #expect(try store.recordNotifications() == 0)
        try store.setNotificationURL("http://127.0.0.1:1/n")
        #expect(try store.recordNotifications() == 0)  // the purchase before the URL is the baseline
        #expect(throws: StoreError.self) { try store.setNotificationURL("not a url") }
        #expect(try store.notificationURL()?.absoluteString == "http://127.0.0.1:1/n")
        try store.setNotificationURL(nil)
        _ = try store.buyProduct(Self.coins)
        try store.setNotificationURL("http://127.0.0.1:1/n")
        #expect(try store.recordNotifications() == 0)
        _ = try store.buyProduct(Self.coins)
        #expect(try store.recordNotifications() == 1)
    }

    @Test func aFailedAttemptIsRetriedWithBackoff() async throws {
        let receiver = try Receiver(statuses: [500, 503, 200])
        defer { receiver.server.stop() }
        let store = try openStore()
        try store.setNotificationURL(receiver.url)
        _ = try store.buyProduct(Self.coins)
        try store.startNotificationSender(retryDelays: [0.3, 0.3, 0.3], timeout: 2, interval: .milliseconds(20))
        defer { store.stopNotificationSender() }
        try await receiver.wait(for: 3)
        try await waitUntil { try store.notificationRecords().first?.sendAttempts.count == 3 }  // the last one recorded too
        let record = try #require(try store.notificationRecords().first)
        #expect(record.sendAttempts.map(\.sendAttemptResult) == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE", "UNSUCCESSFUL_HTTP_RESPONSE_CODE", "SUCCESS"])
        #expect(record.isDelivered && !record.isPending)
        let dates = receiver.received.withLock { $0.map(\.date) }
        #expect(dates.count == 3)
        for (earlier, later) in zip(dates, dates.dropFirst()) { #expect(later.timeIntervalSince(earlier) >= 0.28) }
    }

    @Test func noAnswerTimesOutAndIsGivenUpAfterTheLastRetry() async throws {
        let silent = try SilentEndpoint()
        let store = try openStore()
        try store.setNotificationURL("http://127.0.0.1:\(silent.port)/n")
        _ = try store.buyProduct(Self.coins)
        try store.startNotificationSender(retryDelays: [0.1], timeout: 1, interval: .milliseconds(20))
        defer { store.stopNotificationSender() }
        try? await waitUntil { try store.notificationRecords().first?.isPending == false }
        let record = try store.notificationRecords().first
        #expect(record?.sendAttempts.map(\.sendAttemptResult) == ["TIMED_OUT", "TIMED_OUT"])
        #expect(record?.isDelivered == false && record?.isPending == false)
    }

    @Test func aChangeMadeWhileNothingSendsIsSentWhenASenderStarts() async throws {
        let receiver = try Receiver()
        defer { receiver.server.stop() }
        // The CLI's part: a URL, a purchase, a refund; nothing runs that sends.
        let cli = try openStore()
        try cli.setNotificationURL(receiver.url)
        let gold = try cli.buyProduct(Self.gold)
        _ = try cli.refund(transactionID: gold.id)
        // Then serve (or a game) starts on the state directory.
        let serve = try openStore()
        try serve.startNotificationSender(interval: .milliseconds(20))
        defer { serve.stopNotificationSender() }
        // Both changes were recorded and sent, and nothing else is left to send.
        try await waitUntil { try !serve.notificationRecords().isEmpty && serve.notificationRecords().allSatisfy(\.isDelivered) }
        // Both changes happened between two looks: the purchase is found new and refunded.
        #expect(receiver.types.sorted() == ["REFUND/", "SUBSCRIBED/INITIAL_BUY"])
        #expect(try serve.notificationRecords().allSatisfy { $0.isDelivered && $0.sendAttempts.map(\.sendAttemptResult) == ["SUCCESS"] })
    }

    @Test func historyIsReadFromDiskAfterARelaunch() async throws {
        let receiver = try Receiver()
        defer { receiver.server.stop() }
        var before: Int64 = 0
        do {
            let store = try openStore()
            try store.setNotificationURL(receiver.url)
            // The window is taken around the purchase: a busy machine may resume this test long after it.
            before = Int64(Date().timeIntervalSince1970 * 1000) - 1
            _ = try store.buyProduct(Self.coins)
            try store.startNotificationSender(interval: .milliseconds(20))
            try await receiver.wait(for: 1)
            try await waitUntil { try store.notificationRecords().first?.isDelivered == true }  // its attempt recorded
            store.close()
        }
        let relaunched = try openStore()
        let notifications = ServerNotifications(store: relaunched)
        let after = Int64(Date().timeIntervalSince1970 * 1000) + 1
        let history = try notifications.history(NotificationHistoryRequest(startDate: before, endDate: after),
                                                paginationToken: nil) { _ in true }
        #expect(history.notificationHistory.count == 1)
        #expect(history.notificationHistory.first?.sendAttempts.map(\.sendAttemptResult) == ["SUCCESS"])
        let payload = try CompactJWS(try #require(history.notificationHistory.first?.signedPayload))
        #expect(try JSONSerialization.jsonObject(with: Data(payload.payload)) as? [String: Any] != nil)
    }

    /// A game buying while the notification URL is a port that never answers: purchases complete (the sender is
    /// off their path), the notifications stay pending, and close does not wait for the network.
    @Test func aDeadEndpointCostsTheGameNothing() async throws {
        let silent = try SilentEndpoint()
        let store = try openStore()
        try store.setNotificationURL("http://127.0.0.1:\(silent.port)/n")
        _ = store.updates()  // as a game's purchase store does: starts the sender (5 s timeout)
        let product = try #require(try await store.products(for: [Self.coins]).first)
        for _ in 0..<20 {
            let outcome = try await store.purchase(PaymentRequest(productID: Self.coins), product: product)
            guard case .purchased = outcome else { Issue.record("\(outcome)"); return }
        }
        try? await waitUntil { try store.notificationRecords().count == 20 }  // recorded by the sender's looks
        let records = try store.notificationRecords()
        #expect(records.count == 20)
        #expect(records.allSatisfy { $0.isPending && !$0.isDelivered })
        let closing = ContinuousClock.now
        store.close()
        #expect(ContinuousClock.now - closing < .seconds(3))
        // What was not sent is still there for the next sender.
        #expect(try openStore().notificationRecords().filter(\.isPending).count == 20)
    }
}

/// A notification endpoint on loopback that answers with `statuses` in turn (the last one after that) and
/// keeps what it was sent.
final class Receiver: Sendable {
    let received = Locked<[(date: Date, type: String, subtype: String?)]>([])
    let server: ServerAPIHTTPServer
    var url: String { "http://127.0.0.1:\(server.port)/notifications" }

    init(statuses: [Int] = [200]) throws {
        let received = self.received
        server = try ServerAPIHTTPServer(port: 0) { request in
            let body = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
            let payload = (body?["signedPayload"] as? String).flatMap { try? CompactJWS($0) }
            let fields = payload.flatMap { try? JSONSerialization.jsonObject(with: Data($0.payload)) as? [String: Any] }
            let count = received.withLock { received in
                received.append((Date(), fields?["notificationType"] as? String ?? "?", fields?["subtype"] as? String))
                return received.count
            }
            return ServerAPIResponse(status: statuses[min(count, statuses.count) - 1], body: [], contentType: "text/plain")
        }
    }

    var types: [String] { received.withLock { $0.map { "\($0.type)/\($0.subtype ?? "")" } } }

    func wait(for count: Int) async throws {
        try await waitUntil { received.withLock { $0.count } >= count }
    }
}

/// A port that accepts connections and never answers: the kernel completes them (listen backlog), no one reads.
final class SilentEndpoint {
    let socket: Int32
    let port: UInt16

    init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && listen(socket, 64) == 0
                && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw StoreError(.storageFailure, "cannot listen") }
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(socket) }
}

