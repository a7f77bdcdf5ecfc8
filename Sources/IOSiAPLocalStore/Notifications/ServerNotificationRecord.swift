import Foundation
import IOSiAPCore
import IOSiAPVerification

/// Apple's ResponseBodyV2DecodedPayload and its `data` or `summary` (developer.apple.com/documentation/
/// appstoreservernotifications): what a notification's `signedPayload` says. `appAppleId` is left out: a local
/// store's app has none.
package struct NotificationPayload: Encodable, Sendable {
    package struct Data: Encodable, Sendable {
        var bundleId: String
        var environment: String
        var signedTransactionInfo: String?
        var signedRenewalInfo: String?
        /// The subscription's status, as Get All Subscription Statuses gives it.
        var status: Int?
    }

    /// Apple's `summary` (App Store Server Notifications' summary object; the fields as Apple's Python library's
    /// `Summary` model names them): what a completed Extend Subscription Renewal Dates for All Active Subscribers
    /// request did, in a RENEWAL_EXTENSION notification of subtype SUMMARY, in place of `data`.
    package struct Summary: Encodable, Sendable {
        var requestIdentifier: String
        var environment: String
        var bundleId: String
        var productId: String
        /// The storefronts the request named (alpha-3, sorted); left out when it named none (every storefront).
        var storefrontCountryCodes: [String]?
        /// Subscriptions extended.
        var succeededCount: Int
        /// Subscriptions that could not be extended.
        var failedCount: Int
    }

    var notificationType: String
    var subtype: String?
    var notificationUUID: String
    var version: String
    var signedDate: Int64
    /// Apple: `data` and `summary` are never both present.
    var data: Data?
    var summary: Summary?

    /// A new notification about `transaction` (none: a TEST), stamped `now`.
    init(_ type: String, _ subtype: String?, about transaction: StoreTransaction?, bundleID: String,
         environment: StoreEnvironment, at now: Date) {
        let subscription = transaction?.productType == .autoRenewable
        self.init(type, subtype, at: now, data: Data(
            bundleId: bundleID, environment: environment.rawValue, signedTransactionInfo: transaction?.signedJWS,
            signedRenewalInfo: subscription ? transaction?.signedRenewalInfo : nil,
            status: subscription ? transaction.map { SubscriptionStatusValue.of($0, at: now) } : nil))
    }

    /// A new RENEWAL_EXTENSION notification of subtype SUMMARY for `done`, a request of `bundleID`'s made in
    /// `storefronts` (nil: all), stamped `now`.
    init(summarizing done: MassRenewalExtension, storefronts: Set<String>?, bundleID: String, environment: StoreEnvironment,
         at now: Date) {
        self.init("RENEWAL_EXTENSION", "SUMMARY", at: now, summary: Summary(
            requestIdentifier: done.requestIdentifier, environment: environment.rawValue, bundleId: bundleID,
            productId: done.productID, storefrontCountryCodes: storefronts?.sorted(),
            succeededCount: done.succeededCount, failedCount: done.failedCount))
    }

    private init(_ type: String, _ subtype: String?, at now: Date, data: Data? = nil, summary: Summary? = nil) {
        notificationType = type
        self.subtype = subtype
        notificationUUID = UUID().uuidString.lowercased()
        version = "2.0"
        signedDate = Int64(Milliseconds(now).value)
        self.data = data
        self.summary = summary
    }
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
