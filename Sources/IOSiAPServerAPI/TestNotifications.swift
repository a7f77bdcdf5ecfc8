import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IOSiAPCore
import IOSiAPVerification

/// Where App Store Server Notifications go: the URL kept in `server-notifications.json` in the state
/// directory (`iosiap-store notifications url URL`), as App Store Connect keeps an app's notification URL.
public enum NotificationSettings {
    static let fileName = "server-notifications.json"

    private struct Stored: Codable {
        var url: String?
    }

    /// The URL notifications are sent to, if one is set.
    public static func url(in directory: StateDirectory) -> URL? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: directory.file(fileName))), data.count <= 64 * 1024,
              let text = (try? JSONDecoder().decode(Stored.self, from: data))?.url else { return nil }
        return URL(string: text)
    }

    /// Sets the URL (an http or https URL), or clears it with nil.
    public static func setURL(_ text: String?, in directory: StateDirectory) throws(StoreError) {
        if let text {
            guard text.utf8.count <= 2048, let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                  url.host != nil else {
                throw StoreError(.invalidArgument, "'\(text)' is not an http or https URL")
            }
        }
        do {
            try JSONEncoder().encode(Stored(url: text)).write(to: URL(fileURLWithPath: directory.file(fileName)), options: .atomic)
        } catch {
            throw StoreError(.storageFailure, "cannot write \(fileName): \(error.localizedDescription)")
        }
    }
}

/// Request a Test Notification and Get Test Notification Status: a signed TEST notification
/// (`ResponseBodyV2DecodedPayload` with notificationType TEST, developer.apple.com/documentation/appstoreservernotifications)
/// POSTed as `{"signedPayload": JWS}` to the notification URL off the request's thread, retried on failure,
/// and each attempt remembered for the status request (for the server's lifetime).
public final class TestNotifications: Sendable {
    private let url: @Sendable () -> URL?
    private let sign: @Sendable (NotificationPayload) throws(StoreError) -> String
    private let sent = Locked<[String: Record]>([:])
    /// The pauses before the second and third attempts, when one fails.
    let retryDelays: [Duration]

    struct Record: Sendable {
        var signedPayload: String
        var attempts: [SendAttemptItem]
    }

    /// - Parameters:
    ///   - url: where notifications go, asked at each request (nil: none set).
    ///   - sign: signs a payload with the store's chain.
    public init(url: @escaping @Sendable () -> URL?, sign: @escaping @Sendable (NotificationPayload) throws(StoreError) -> String,
                retryDelays: [Duration] = [.seconds(1), .seconds(2)]) {
        self.url = url
        self.sign = sign
        self.retryDelays = retryDelays
    }

    /// Signs and starts sending a TEST notification; its token.
    func request(bundleID: String, environment: StoreEnvironment, at now: Date) throws -> String {
        guard let destination = url() else { throw ServerAPIError.serverNotificationURLNotFound }
        let uuid = UUID().uuidString.lowercased()
        let payload = NotificationPayload(notificationType: "TEST", notificationUUID: uuid, version: "2.0",
                                          signedDate: Int64(Milliseconds(now).value),
                                          data: .init(bundleId: bundleID, environment: environment.rawValue))
        let signed = try sign(payload)
        let token = "\(uuid)_\(payload.signedDate)"
        sent.withLock { $0[token] = Record(signedPayload: signed, attempts: []) }
        let body = Array((try? JSONEncoder().encode(["signedPayload": signed])) ?? Data())
        Task.detached { [self] in
            for attempt in 0...retryDelays.count {
                if attempt > 0 { try? await Task.sleep(for: retryDelays[attempt - 1]) }
                let result = await Self.post(body, to: destination)
                sent.withLock { $0[token]?.attempts.append(SendAttemptItem(attemptDate: Int64(Milliseconds(Date()).value), sendAttemptResult: result)) }
                if result == "SUCCESS" { break }
            }
        }
        return token
    }

    /// What was sent for `token`, and each attempt so far.
    func status(of token: String) throws(ServerAPIError) -> CheckTestNotificationResponse {
        guard let record = sent.withLock({ $0[token] }) else { throw .testNotificationNotFound }
        return CheckTestNotificationResponse(signedPayload: record.signedPayload, sendAttempts: record.attempts)
    }

    /// One POST; Apple's `sendAttemptResult` for how it went: SUCCESS for a 2xx answer.
    private static func post(_ body: [UInt8], to url: URL) async -> String {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 5)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body)
        do {
            let (_, response) = try await URLSession.shared.data(for: request)
            guard let http = response as? HTTPURLResponse else { return "INVALID_RESPONSE" }
            return (200..<300).contains(http.statusCode) ? "SUCCESS" : "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
        } catch let error as URLError where error.code == .timedOut {
            return "TIMED_OUT"
        } catch {
            return "NO_RESPONSE"
        }
    }
}

/// Apple's ResponseBodyV2DecodedPayload, with what a TEST notification carries.
public struct NotificationPayload: Encodable, Sendable {
    public struct Data: Encodable, Sendable {
        var bundleId: String
        var environment: String
    }

    var notificationType: String
    var notificationUUID: String
    var version: String
    var signedDate: Int64
    var data: Data
}

// Apple's SendTestNotificationResponse, CheckTestNotificationResponse and SendAttemptItem.

struct SendTestNotificationResponse: Encodable {
    var testNotificationToken: String
}

struct CheckTestNotificationResponse: Encodable {
    var signedPayload: String
    var sendAttempts: [SendAttemptItem]
}

struct SendAttemptItem: Encodable {
    var attemptDate: Int64
    var sendAttemptResult: String
}
