import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPSignedData

/// The Server API's notification endpoints over a local store's outbox (in its state directory, so they answer
/// for what any process recorded and sent, also before this server started): Request a Test Notification
/// records a TEST, which the store's sender delivers; Get Test Notification Status and Get Notification History
/// read the records and their send attempts.
public final class ServerNotifications: Sendable {
    private let records: @Sendable () throws(StoreError) -> [ServerNotificationRecord]
    private let recordTest: @Sendable () throws(StoreError) -> (notificationUUID: String, signedDate: Int64)?

    /// - Parameters:
    ///   - records: every notification recorded, oldest first.
    ///   - recordTest: records a TEST notification; nil when no notification URL is set.
    public init(records: @escaping @Sendable () throws(StoreError) -> [ServerNotificationRecord],
                recordTest: @escaping @Sendable () throws(StoreError) -> (notificationUUID: String, signedDate: Int64)?) {
        self.records = records
        self.recordTest = recordTest
    }

    /// The notification endpoints of `store`'s state directory.
    public convenience init(store: LocalStore) {
        self.init(records: { () throws(StoreError) in try store.notificationRecords() },
                  recordTest: { () throws(StoreError) in
                      guard try store.notificationURL() != nil else { return nil }
                      return try store.requestTestNotification()
                  })
    }

    /// No notifications: history is empty, a test cannot be requested.
    static let none = ServerNotifications(records: { [] }, recordTest: { nil })

    /// Records a TEST notification for the sender; its token.
    func requestTest() throws -> String {
        guard let test = try recordTest() else { throw ServerAPIError.serverNotificationURLNotFound }
        return "\(test.notificationUUID)_\(test.signedDate)"
    }

    /// What was sent for a test notification's token, and each attempt so far.
    func status(of token: String) throws -> CheckTestNotificationResponse {
        let parts = token.split(separator: "_", omittingEmptySubsequences: false)
        guard token.utf8.count <= 128, parts.count == 2, UUID(uuidString: String(parts[0])) != nil, Int64(parts[1]) != nil else {
            throw ServerAPIError.invalidTestNotificationToken
        }
        guard let record = try records().last(where: { $0.notificationUUID == String(parts[0]) && $0.notificationType == "TEST" }) else {
            throw ServerAPIError.testNotificationNotFound
        }
        return CheckTestNotificationResponse(signedPayload: record.signedPayload, sendAttempts: record.sendAttempts)
    }

    /// Get Notification History (developer.apple.com/documentation/appstoreserverapi/get-notification-history):
    /// what the store recorded with `signedDate` in [startDate, endDate), filtered by type (and subtype),
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
        var after: Int64 = -1
        if let paginationToken {
            guard paginationToken.utf8.count <= 64, let bytes = Base64URL.decode(paginationToken),
                  let text = String(bytes: bytes, encoding: .utf8), text.hasPrefix("n1:"), let id = Int64(text.dropFirst(3)), id >= 0 else {
                throw ServerAPIError.invalidPaginationToken
            }
            after = id
        }
        let customer = try request.transactionId.map(customerExists) ?? true
        let matching = try records().filter { record in
            record.id > after && customer && (start..<end).contains(record.signedDate)
                && (request.notificationType.map { $0 == record.notificationType } ?? true)
                && (request.notificationSubtype.map { $0 == record.subtype } ?? true)
                && (request.onlyFailures != true || !record.isDelivered)
        }
        let page = matching.prefix(ServerAPI.pageSize)
        return NotificationHistoryResponse(
            notificationHistory: page.map { NotificationHistoryResponseItem(signedPayload: $0.signedPayload, sendAttempts: $0.sendAttempts) },
            hasMore: matching.count > page.count,
            paginationToken: page.last.map { Base64URL.encode(Array("n1:\($0.id)".utf8)) } ?? paginationToken ?? "")
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
}

// Apple's SendTestNotificationResponse and CheckTestNotificationResponse (sendAttemptItem is
// NotificationSendAttempt, in IOSiAPLocalStore).

struct SendTestNotificationResponse: Encodable {
    var testNotificationToken: String
}

struct CheckTestNotificationResponse: Encodable {
    var signedPayload: String
    var sendAttempts: [NotificationSendAttempt]
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
    var sendAttempts: [NotificationSendAttempt]
}
