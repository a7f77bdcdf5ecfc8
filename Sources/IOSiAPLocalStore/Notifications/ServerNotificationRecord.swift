#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPVerification

/// The notifications the store signs: IOSiAPSignedData's `NotificationPayload`, the model a backend decodes them
/// with, so that what is sent and what is read are one definition. `appAppleId` is left out: a local store's app
/// has none.
extension NotificationPayload {
    /// A new notification about `transaction` (none: a TEST), stamped `now`.
    init(_ type: String, _ subtype: String?, about transaction: StoreTransaction?, bundleID: String,
         environment: StoreEnvironment, at now: Date) {
        let subscription = transaction?.productType == .autoRenewable
        var data = Data()
        data.bundleId = bundleID
        data.environment = environment.rawValue
        data.signedTransactionInfo = transaction?.signedJWS
        data.signedRenewalInfo = subscription ? transaction?.signedRenewalInfo : nil
        data.status = subscription ? transaction.map { Int32(SubscriptionStatusValue.of($0, at: now)) } : nil
        self.init(type, subtype, at: now)
        self.data = data
    }

    /// A new RENEWAL_EXTENSION notification of subtype SUMMARY for `done`, a request of `bundleID`'s made in
    /// `storefronts` (nil: all; the others named alpha-3, sorted), stamped `now`.
    init(summarizing done: MassRenewalExtension, storefronts: Set<String>?, bundleID: String, environment: StoreEnvironment,
         at now: Date) {
        var summary = Summary()
        summary.requestIdentifier = done.requestIdentifier
        summary.environment = environment.rawValue
        summary.bundleId = bundleID
        summary.productId = done.productID
        summary.storefrontCountryCodes = storefronts?.sorted()
        summary.succeededCount = Int64(done.succeededCount)
        summary.failedCount = Int64(done.failedCount)
        self.init("RENEWAL_EXTENSION", "SUMMARY", at: now)
        self.summary = summary
    }

    private init(_ type: String, _ subtype: String?, at now: Date) {
        self.init()
        notificationType = type
        self.subtype = subtype
        notificationUUID = UUID().uuidString.lowercased()
        version = "2.0"
        signedDate = Milliseconds(now)
    }

    /// What the outbox records of a notification the store made (it sets both).
    var recordedUUID: String { notificationUUID ?? "" }
    var recordedSignedDate: Int64 { signedDate.map { Int64($0.value) } ?? 0 }
}

/// Apple's subscription `status` values (Get All Subscription Statuses, a notification's `data.status`).
package enum SubscriptionStatusValue {
    /// 1 active, 2 expired, 3 in billing retry, 4 in the billing grace period, 5 revoked.
    package static func of(_ latest: StoreTransaction, at now: Date) -> Int {
        if latest.isRevoked { return 5 }
        if (latest.expirationDate ?? .distantPast) > now { return 1 }
        if (latest.gracePeriodExpirationDate ?? .distantPast) > now { return 4 }
        // Billing retry is what the store last signed into the renewal info (the store's own signature: read,
        // not verified, to learn a state it wrote).
        let renewal = latest.signedRenewalInfo.flatMap { try? CompactJWS.decodeUnverified($0, as: RenewalInfoPayload.self) }
        return renewal?.isInBillingRetryPeriod == true ? 3 : 2
    }
}

/// One attempt to send a notification: Apple's sendAttemptItem.
public struct NotificationSendAttempt: Codable, Sendable, Equatable {
    /// When it was made, in milliseconds since 1970.
    public var attemptDate: Int64
    /// Apple's sendAttemptResult: SUCCESS, TIMED_OUT, NO_RESPONSE, UNSUCCESSFUL_HTTP_RESPONSE_CODE, INVALID_RESPONSE, ...
    public var sendAttemptResult: String

    public init(attemptDate: Int64, sendAttemptResult: String) {
        self.attemptDate = attemptDate
        self.sendAttemptResult = sendAttemptResult
    }
}

/// A notification the store recorded in its outbox (the state directory), and how sending it went.
public struct ServerNotificationRecord: Sendable {
    /// The row's id: records are listed in the order they were recorded.
    public let id: Int64
    public let notificationUUID: String
    public let notificationType: String
    public let subtype: String?
    /// The transaction it is about (none for TEST).
    public let transactionID: UInt64?
    /// Milliseconds since 1970, as in the payload.
    public let signedDate: Int64
    /// The JWS sent as `{"signedPayload": ...}`.
    public let signedPayload: String
    public let sendAttempts: [NotificationSendAttempt]
    /// Whether an attempt succeeded.
    public let isDelivered: Bool
    /// Whether another attempt is due (after its backoff); false once delivered or given up.
    public let isPending: Bool
}
