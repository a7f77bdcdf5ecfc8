import Foundation
#if canImport(Glibc)
import Glibc
#endif
import IOSiAPCore
import IOSiAPLocalStore
@testable import IOSiAPServerAPI
import IOSiAPTestSupport
import Testing

/// How the sender copes with endpoints that misbehave: a body without end, a trickle, a redirect; and which URLs
/// it accepts. Bounds on time here are hang checks, not figures.
@Suite struct ServerNotificationSendingTests {
    let folder = TemporaryDirectory()
    static let coins = "com.iosiap.example.coins_100"

    func openStore() throws -> LocalStore {
        try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: try folder.state)
    }

    /// The first notification once an attempt of it is recorded (`seconds` is no longer used: the wait is `waitUntil`'s,
    /// which looks once more when a busy machine resumed it late).
    func waitForAttempt(_ store: LocalStore, seconds: Double) async throws -> ServerNotificationRecord? {
        try? await waitUntil { try store.notificationRecords().first.map { !$0.sendAttempts.isEmpty } ?? false }
        return try store.notificationRecords().first
    }

    /// An endpoint answering 200 and then a body of 50 GB: the sender reads a few KB of it, counts the 200, and
    /// hangs up at once (the endpoint sees the connection closed with under 4 MB written, not the 64 MB it writes to
    /// a client that reads on); close does not wait on the body.
    @Test func anEndlessBodyIsCutOffAtTheCapAndCloseDoesNotWaitForIt() async throws {
        let endpoint = try RawEndpoint(head: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 50000000000\r\n\r\n", body: .flood)
        defer { endpoint.stop() }
        let store = try openStore()
        try store.setNotificationURL(endpoint.url)
        _ = try store.buyProduct(Self.coins)
        try store.startNotificationSender(retryDelays: [86_400], timeout: 5, interval: .milliseconds(20))
        let record = try await waitForAttempt(store, seconds: 4)
        #expect(record?.sendAttempts.map(\.sendAttemptResult) == ["SUCCESS"])
        // A hang check, not a figure: the client hung up while the endpoint was still writing.
        try? await waitUntil { endpoint.hangUps.withLock { $0 } > 0 }
        #expect(endpoint.hangUps.withLock { $0 } == 1)
        // What the endpoint could write is the socket buffers' worth plus the few KB read, far below its 64 MB.
        #expect(endpoint.written.withLock { $0 } < 4 << 20)
        let closing = ContinuousClock.now
        store.close()
        #expect(ContinuousClock.now - closing < .seconds(2))
        #expect(endpoint.connections.withLock { $0 } == 1)
    }

    /// An endpoint sending its headers, then a byte at a time: the POST ends at the timeout as TIMED_OUT (a trickle
    /// keeps an idle timeout from firing; the sender's own deadline does not care), once, on one connection.
    @Test func aTrickleEndsAtTheTimeoutAndIsSentOnce() async throws {
        let endpoint = try RawEndpoint(head: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000000\r\n\r\n", body: .trickle)
        defer { endpoint.stop() }
        let store = try openStore()
        try store.setNotificationURL(endpoint.url)
        _ = try store.buyProduct(Self.coins)
        try store.startNotificationSender(retryDelays: [86_400], timeout: 1, interval: .milliseconds(20))
        defer { store.stopNotificationSender() }
        let record = try await waitForAttempt(store, seconds: 4)
        #expect(record?.sendAttempts.map(\.sendAttemptResult) == ["TIMED_OUT"])
        #expect(record?.isPending == true)
        #expect(endpoint.connections.withLock { $0 } == 1)
    }

    /// Close while a trickle is being sent: the sender stops and drops the connection (the endpoint sees it closed
    /// long before the POST's 60 s deadline), the notification stays due for the next sender, with no attempt
    /// recorded. (An endless body ends at the body cap, before close: the test above.)
    @Test func closeDuringATrickleStopsTheSender() async throws {
        let endpoint = try RawEndpoint(head: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 50000000000\r\n\r\n",
                                       body: .trickle)
        defer { endpoint.stop() }
        let store = try openStore()
        try store.setNotificationURL(endpoint.url)
        _ = try store.buyProduct(Self.coins)
        // A deadline far past close, so that a slow machine does not end the POST (TIMED_OUT) before close does.
        let sending = ContinuousClock.now  // the POST starts after this, and its deadline is 60 s after its start
        try store.startNotificationSender(retryDelays: [86_400], timeout: 60, interval: .milliseconds(20))
        try await waitUntil { endpoint.connections.withLock { $0 } > 0 }
        try await Task.sleep(for: .milliseconds(1500))  // the trickle under way for a while: a byte every half second
        let closing = ContinuousClock.now
        store.close()
        #expect(ContinuousClock.now - closing < .seconds(2))
        // The endpoint's next byte or two after the hang-up fail (a hang check: a byte every half second).
        try? await waitUntil { endpoint.hangUps.withLock { $0 } > 0 }
        #expect(endpoint.hangUps.withLock { $0 } == 1)
        let record = try #require(try openStore().notificationRecords().first)
        // Only if close came before the POST's deadline: on a machine so busy that this test resumed later, the
        // attempt rightly ended TIMED_OUT first.
        if closing - sending < .seconds(55) {
            #expect(record.isPending && record.sendAttempts.isEmpty)
        }
    }

    /// A redirect is not followed (Apple's sender counts a non-2xx answer as a failed attempt): a 307 elsewhere
    /// is UNSUCCESSFUL_HTTP_RESPONSE_CODE and nothing reaches the other place.
    @Test func aRedirectIsNotFollowed() async throws {
        let elsewhere = try Receiver()
        defer { elsewhere.server.stop() }
        let endpoint = try RawEndpoint(head: "HTTP/1.1 307 Temporary Redirect\r\nLocation: \(elsewhere.url)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                                       body: .none)
        defer { endpoint.stop() }
        let store = try openStore()
        try store.setNotificationURL(endpoint.url)
        _ = try store.buyProduct(Self.coins)
        try store.startNotificationSender(retryDelays: [86_400], timeout: 2, interval: .milliseconds(20))
        defer { store.stopNotificationSender() }
        let record = try await waitForAttempt(store, seconds: 4)
        #expect(record?.sendAttempts.map(\.sendAttemptResult) == ["UNSUCCESSFUL_HTTP_RESPONSE_CODE"])
        // The attempt is recorded once its transfer has ended: a redirect followed would have reached the other
        // place before that.
        #expect(elsewhere.received.withLock { $0.count } == 0)
    }

    /// What an endpoint answers (or does instead), and the sendAttemptResult the attempt is recorded with.
    static let answers: [(answer: String, scheme: String, result: String)] = [
        ("HTTP/1.1 206 Partial Content\r\nContent-Length: 0\r\n\r\n", "http", "SUCCESS"),
        ("HTTP/1.1 207 Multi-Status\r\nContent-Length: 0\r\n\r\n", "http", "UNSUCCESSFUL_HTTP_RESPONSE_CODE"),
        ("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n", "http", "UNSUCCESSFUL_HTTP_RESPONSE_CODE"),
        ("HELLO\r\n\r\n", "http", "INVALID_RESPONSE"),
        ("", "http", "PREMATURE_CLOSE"),  // hangs up without a word
        ("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nabc", "http", "PREMATURE_CLOSE"),  // hangs up mid-body
        ("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", "https", "TLS_ISSUE"),  // plain HTTP on an https URL
    ]

    @Test(arguments: answers.indices)
    func anAnswerIsRecordedAsApplesResult(_ index: Int) async throws {
        let (answer, scheme, result) = Self.answers[index]
        let endpoint = try RawEndpoint(head: answer, body: .none)
        defer { endpoint.stop() }
        let store = try openStore()
        try store.setNotificationURL(scheme + endpoint.url.dropFirst("http".count))
        _ = try store.buyProduct(Self.coins)
        try store.startNotificationSender(retryDelays: [86_400], timeout: 5, interval: .milliseconds(20))
        defer { store.stopNotificationSender() }
        let record = try await waitForAttempt(store, seconds: 4)
        #expect(record?.sendAttempts.map(\.sendAttemptResult) == [result], "\(answer.debugDescription) over \(scheme)")
    }

    /// Nothing listens: NO_RESPONSE.
    @Test func noListenerIsNoResponse() async throws {
        let store = try openStore()
        try store.setNotificationURL("http://127.0.0.1:1/notifications")
        _ = try store.buyProduct(Self.coins)
        try store.startNotificationSender(retryDelays: [86_400], timeout: 5, interval: .milliseconds(20))
        defer { store.stopNotificationSender() }
        let record = try await waitForAttempt(store, seconds: 4)
        #expect(record?.sendAttempts.map(\.sendAttemptResult) == ["NO_RESPONSE"])
    }

    /// A notification belongs to the endpoint it was recorded for: clearing the URL gives up what is pending
    /// (not delivered, no longer pending), and a URL set later is not sent it.
    @Test func clearingTheURLGivesUpWhatIsPending() async throws {
        let store = try openStore()
        try store.setNotificationURL("http://127.0.0.1:1/first")
        _ = try store.buyProduct(Self.coins)
        #expect(try store.recordNotifications() == 1)
        #expect(try store.notificationRecords().first?.isPending == true)
        try store.setNotificationURL(nil)
        let record = try #require(try store.notificationRecords().first)
        #expect(!record.isPending && !record.isDelivered)
        let next = try Receiver()
        defer { next.server.stop() }
        try store.setNotificationURL(next.url)
        try store.startNotificationSender(retryDelays: [86_400], timeout: 2, interval: .milliseconds(20))
        defer { store.stopNotificationSender() }
        await store.lookForNotificationsNow()  // a look of the sender since the new URL: nothing was due for it
        #expect(next.received.withLock { $0.count } == 0)
        #expect(try store.notificationRecords().filter(\.isPending).isEmpty)
    }

    @Test func badURLsAreRefusedWithoutEchoingSecretsOrPages() throws {
        let store = try openStore()
        for port in ["0", "65536", "70000", "99999999999"] {
            #expect(throws: StoreError.self, "port \(port)") { try store.setNotificationURL("http://127.0.0.1:\(port)/n") }
        }
        #expect(throws: Never.self) { try store.setNotificationURL("http://127.0.0.1:65535/n") }
        do {
            try store.setNotificationURL("http://admin:hunter2@127.0.0.1:8080/n")
            Issue.record("a URL with credentials was accepted")
        } catch {
            #expect(!error.message.contains("hunter2"))
        }
        do {
            try store.setNotificationURL("http://127.0.0.1/" + String(repeating: "a", count: 5000))
            Issue.record("an overlong URL was accepted")
        } catch {
            #expect(error.message.utf8.count < 300)
        }
        #expect(try store.notificationURL()?.absoluteString == "http://127.0.0.1:65535/n")
    }
}

/// A raw HTTP endpoint on loopback (a socket, no HTTP library, so it can misbehave): for each connection it
/// reads the request, writes `head`, then a body: none, as fast as the client reads (`flood`), or a byte every
/// half second (`trickle`); until the client hangs up (counted in `hangUps`), `stop()`, or 64 MB of flood. Counts
/// the body bytes the client took.
final class RawEndpoint: Sendable {
    enum Body: Sendable { case none, flood, trickle }

    let socket: Int32
    let port: UInt16
    let written = Locked(0)
    let connections = Locked(0)
    let hangUps = Locked(0)
    let stopped = Locked(false)
    var url: String { "http://127.0.0.1:\(port)/notifications" }

    init(head: String, body: Body) throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && listen(socket, 16) == 0
                && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { Glibc.close(socket); throw StoreError(.storageFailure, "cannot listen") }
        port = UInt16(bigEndian: address.sin_port)
        let (written, connections, hangUps, stopped) = (written, connections, hangUps, stopped)
        Thread.detachNewThread {
            while !stopped.withLock({ $0 }) {
                let client = accept(socket, nil, nil)
                guard client >= 0 else { return }
                connections.withLock { $0 += 1 }
                Thread.detachNewThread {
                    defer { Glibc.close(client) }
                    var buffer = [UInt8](repeating: 0, count: 65_536)
                    _ = recv(client, &buffer, buffer.count, 0)
                    guard Array(head.utf8).withUnsafeBytes({ send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) > 0 else { return }
                    while !stopped.withLock({ $0 }) {
                        let count: Int
                        switch body {
                        case .none: return
                        case .flood: count = buffer.count
                        case .trickle: count = 1; usleep(500_000)
                        }
                        let sent = send(client, &buffer, count, Int32(MSG_NOSIGNAL))
                        guard sent > 0 else { hangUps.withLock { $0 += 1 }; return }
                        // A flood ends after 64 MB: enough to tell a capped read from one that is not, without
                        // loading the machine the other tests run on.
                        guard written.withLock({ $0 += sent; return $0 }) < 64 << 20 else { return }
                    }
                }
            }
        }
    }

    func stop() {
        stopped.withLock { $0 = true }
        shutdown(socket, Int32(SHUT_RDWR))
        Glibc.close(socket)
    }
}
