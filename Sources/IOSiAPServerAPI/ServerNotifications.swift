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

/// App Store Server Notifications V2 as the serve process sends them: each `{"signedPayload": JWS}` (signed by
/// the store's chain) POSTed to the notification URL off the request's and the game's threads, retried with
/// backoff on a non-2xx answer or none, and each attempt remembered (for the server's lifetime) for Get Test
/// Notification Status. TEST notifications come from Request a Test Notification; the others from `watch`,
/// which follows the store's history.
public final class ServerNotifications: Sendable {
    private let url: @Sendable () -> URL?
    private let sign: @Sendable (NotificationPayload) throws(StoreError) -> String
    /// Every notification signed, in the order signed, and its attempts.
    private let sent = Locked<[Record]>([])
    /// The pauses before each retry of a failed attempt (Apple retries for days; locally, seconds).
    let retryDelays: [Duration]

    struct Record: Sendable {
        var payload: NotificationPayload
        /// The transaction it is about, if any.
        var transactionID: UInt64?
        var signedPayload: String
        var attempts: [SendAttemptItem]
    }

    /// - Parameters:
    ///   - url: where notifications go, asked each time one is sent (nil: none set, nothing is sent).
    ///   - sign: signs a payload with the store's chain.
    public init(url: @escaping @Sendable () -> URL?, sign: @escaping @Sendable (NotificationPayload) throws(StoreError) -> String,
                retryDelays: [Duration] = [.seconds(1), .seconds(2), .seconds(4)]) {
        self.url = url
        self.sign = sign
        self.retryDelays = retryDelays
    }

    /// Signs and starts sending a TEST notification; its token.
    func requestTest(bundleID: String, environment: StoreEnvironment, at now: Date) throws -> String {
        guard let destination = url() else { throw ServerAPIError.serverNotificationURLNotFound }
        let payload = Self.payload("TEST", nil, bundleID: bundleID, environment: environment, data: nil, at: now)
        try send(payload, about: nil, to: destination)
        return "\(payload.notificationUUID)_\(payload.signedDate)"
    }

    /// What was sent for a test notification's token, and each attempt so far.
    func status(of token: String) throws(ServerAPIError) -> CheckTestNotificationResponse {
        let parts = token.split(separator: "_", omittingEmptySubsequences: false)
        guard token.utf8.count <= 128, parts.count == 2, UUID(uuidString: String(parts[0])) != nil, Int64(parts[1]) != nil else {
            throw .invalidTestNotificationToken
        }
        guard let record = sent.withLock({ $0.last { $0.payload.notificationUUID == String(parts[0]) && $0.payload.notificationType == "TEST" } }) else {
            throw .testNotificationNotFound
        }
        return CheckTestNotificationResponse(signedPayload: record.signedPayload, sendAttempts: record.attempts)
    }

    /// Get Notification History (developer.apple.com/documentation/appstoreserverapi/get-notification-history):
    /// what this server signed with `signedDate` in [startDate, endDate), filtered by type (and subtype),
    /// customer (`transactionId`: the local store has one) or `onlyFailures` (never delivered), 20 a page.
    func history(_ request: NotificationHistoryRequest, paginationToken: String?,
                 customerExists: (String) throws -> Bool) throws -> NotificationHistoryResponse {
        guard let start = request.startDate, start >= 0 else { throw ServerAPIError.invalidStartDate }
        guard let end = request.endDate, end >= 0 else { throw ServerAPIError.invalidEndDate }
        guard start <= end else { throw ServerAPIError.startDateAfterEndDate }
        if let type = request.notificationType, !Self.notificationTypes.contains(type) { throw ServerAPIError.invalidNotificationType }
        if let subtype = request.notificationSubtype, !Self.subtypes.contains(subtype) { throw ServerAPIError.generalBadRequest }
        let filters = [request.notificationType != nil, request.transactionId != nil, request.onlyFailures == true].filter { $0 }.count
        guard filters <= 1 else { throw ServerAPIError.multipleFiltersSupplied }
        var after = -1
        if let paginationToken {
            guard paginationToken.utf8.count <= 64, let bytes = Base64URL.decode(paginationToken),
                  let text = String(bytes: bytes, encoding: .utf8), text.hasPrefix("n1:"), let index = Int(text.dropFirst(3)), index >= 0 else {
                throw ServerAPIError.invalidPaginationToken
            }
            after = index
        }
        let customer = try request.transactionId.map(customerExists) ?? true
        let matching = sent.withLock { $0 }.enumerated().filter { index, record in
            index > after && customer && (start..<end).contains(record.payload.signedDate)
                && (request.notificationType.map { $0 == record.payload.notificationType } ?? true)
                && (request.notificationSubtype.map { $0 == record.payload.subtype } ?? true)
                && (request.onlyFailures != true || !record.attempts.contains { $0.sendAttemptResult == "SUCCESS" })
        }
        let page = matching.prefix(ServerAPI.pageSize)
        return NotificationHistoryResponse(
            notificationHistory: page.map { NotificationHistoryResponseItem(signedPayload: $0.element.signedPayload, sendAttempts: $0.element.attempts) },
            hasMore: matching.count > page.count,
            paginationToken: page.last.map { Base64URL.encode(Array("n1:\($0.offset)".utf8)) } ?? paginationToken ?? "")
    }

    /// Apple's notificationType and subtype values (NotificationTypeV2 and Subtype).
    static let notificationTypes: Set<String> = [
        "SUBSCRIBED", "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS", "OFFER_REDEEMED", "DID_RENEW", "EXPIRED",
        "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED", "PRICE_INCREASE", "REFUND", "REFUND_DECLINED", "CONSUMPTION_REQUEST",
        "RENEWAL_EXTENDED", "REVOKE", "TEST", "RENEWAL_EXTENSION", "REFUND_REVERSED", "EXTERNAL_PURCHASE_TOKEN", "ONE_TIME_CHARGE",
        "RESCIND_CONSENT", "METADATA_UPDATE", "MIGRATION", "PRICE_CHANGE",
    ]
    static let subtypes: Set<String> = [
        "INITIAL_BUY", "RESUBSCRIBE", "DOWNGRADE", "UPGRADE", "AUTO_RENEW_ENABLED", "AUTO_RENEW_DISABLED", "VOLUNTARY",
        "BILLING_RETRY", "PRICE_INCREASE", "GRACE_PERIOD", "PENDING", "ACCEPTED", "BILLING_RECOVERY", "PRODUCT_NOT_FOR_SALE",
        "SUMMARY", "FAILURE", "UNREPORTED",
    ]

    /// Follows the store's history every `interval` and notifies what changes after the first look
    /// (StoreChangeDetector), until the task is cancelled.
    public func watch(bundleID: String, environment: StoreEnvironment,
                      transactions: @escaping @Sendable () throws(StoreError) -> [StoreTransaction],
                      every interval: Duration = .milliseconds(250)) -> Task<Void, Never> {
        Task.detached { [self] in
            var detector = StoreChangeDetector()
            while !Task.isCancelled {
                // A read that fails (the game mid-write, a busy database) is tried again at the next tick.
                if let history = try? transactions() {
                    let now = Date()
                    for change in detector.changes(in: history, at: now) {
                        guard let destination = url() else { continue }
                        let transaction = change.transaction
                        let subscription = transaction.productType == .autoRenewable
                        let data = NotificationPayload.Data(
                            bundleId: bundleID, environment: environment.rawValue, signedTransactionInfo: transaction.signedJWS,
                            signedRenewalInfo: subscription ? transaction.signedRenewalInfo : nil,
                            status: subscription ? SubscriptionStatuses.status(of: transaction, at: now) : nil)
                        try? send(Self.payload(change.type, change.subtype, bundleID: bundleID, environment: environment,
                                               data: data, at: now), about: transaction.id, to: destination)
                    }
                }
                try? await Task.sleep(for: interval)
            }
        }
    }

    private static func payload(_ type: String, _ subtype: String?, bundleID: String, environment: StoreEnvironment,
                                data: NotificationPayload.Data?, at now: Date) -> NotificationPayload {
        NotificationPayload(notificationType: type, subtype: subtype, notificationUUID: UUID().uuidString.lowercased(), version: "2.0",
                            signedDate: Int64(Milliseconds(now).value),
                            data: data ?? .init(bundleId: bundleID, environment: environment.rawValue))
    }

    /// Signs `payload`, remembers it, and sends it in the background with retries.
    private func send(_ payload: NotificationPayload, about transactionID: UInt64?, to destination: URL) throws {
        let signed = try sign(payload)
        let index = sent.withLock { sent in
            sent.append(Record(payload: payload, transactionID: transactionID, signedPayload: signed, attempts: []))
            return sent.count - 1
        }
        let body = Array((try? JSONEncoder().encode(["signedPayload": signed])) ?? Data())
        Task.detached { [self] in
            for attempt in 0...retryDelays.count {
                if attempt > 0 { try? await Task.sleep(for: retryDelays[attempt - 1]) }
                let result = await Self.post(body, to: destination)
                let attempt = SendAttemptItem(attemptDate: Int64(Milliseconds(Date()).value), sendAttemptResult: result)
                sent.withLock { $0[index].attempts.append(attempt) }
                if result == "SUCCESS" { break }
            }
        }
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

/// Apple's ResponseBodyV2DecodedPayload and its `data` (developer.apple.com/documentation/appstoreservernotifications).
/// `appAppleId` is left out: a local store's app has none.
public struct NotificationPayload: Encodable, Sendable {
    public struct Data: Encodable, Sendable {
        var bundleId: String
        var environment: String
        var signedTransactionInfo: String?
        var signedRenewalInfo: String?
        /// The subscription's status, as Get All Subscription Statuses gives it.
        var status: Int?
    }

    var notificationType: String
    var subtype: String?
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

/// Apple's NotificationHistoryRequest (the body of Get Notification History); a field of the wrong type is a 400.
struct NotificationHistoryRequest: Decodable {
    var startDate: Int64?
    var endDate: Int64?
    var notificationType: String?
    var notificationSubtype: String?
    var transactionId: String?
    var onlyFailures: Bool?
}

struct NotificationHistoryResponse: Encodable {
    var notificationHistory: [NotificationHistoryResponseItem]
    var hasMore: Bool
    var paginationToken: String
}

struct NotificationHistoryResponseItem: Encodable {
    var signedPayload: String
    var sendAttempts: [SendAttemptItem]
}

struct SendAttemptItem: Encodable, Sendable {
    var attemptDate: Int64
    var sendAttemptResult: String
}
