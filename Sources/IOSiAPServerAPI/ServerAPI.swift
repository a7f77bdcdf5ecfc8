import Foundation
import IOSiAPCore
import IOSiAPVerification

/// A transaction as the server serves it: what the store signed, and whether the app finished it.
public struct ServerAPITransaction: Sendable {
    public let transaction: StoreTransaction
    public let isFinished: Bool

    public init(_ transaction: StoreTransaction, isFinished: Bool) {
        self.transaction = transaction
        self.isFinished = isFinished
    }
}

/// The App Store Server API over one local store's history: routing, the bearer token check, Apple's
/// response shapes and error bodies. No sockets: `handle` takes a request and returns the response, and the
/// HTTP layer (`ServerAPIHTTPServer`) only carries them.
///
/// The signed fields are the signatures the local store keeps with each transaction (it signs again whenever
/// a transaction changes: a renewal plan, a refund), so the server returns exactly what the store signed,
/// with its chain. The local store has one customer: every transaction id of the state directory names it.
public final class ServerAPI: Sendable {
    public let bundleID: String
    public let environment: StoreEnvironment
    private let keys: @Sendable () throws(StoreError) -> [ServerAPIKey]
    private let transactions: @Sendable () throws(StoreError) -> [ServerAPITransaction]
    private let now: @Sendable () -> Date
    private let notifications: ServerNotifications?
    /// Extends the period of the subscription an original transaction id names by days, returning its newest
    /// transaction re-signed (`LocalStore.extendRenewalDate`); without it, every extension is refused (4030004).
    private let extendRenewalDate: (@Sendable (UInt64, Int) throws(StoreError) -> StoreTransaction)?

    /// Apple's page size for transaction and refund history (developer.apple.com/documentation/appstoreserverapi,
    /// Get Transaction History: "up to 20 transactions").
    static let pageSize = 20

    /// - Parameters:
    ///   - keys: the keys bearer tokens may be signed with; asked at each request, so keys added while the
    ///     server runs are accepted at once.
    ///   - transactions: the store's history, oldest first; asked at each request.
    ///   - notifications: what sends notifications; without it, Request a Test Notification is 404 (4040007).
    public init(bundleID: String, environment: StoreEnvironment,
                keys: @escaping @Sendable () throws(StoreError) -> [ServerAPIKey],
                transactions: @escaping @Sendable () throws(StoreError) -> [ServerAPITransaction],
                notifications: ServerNotifications? = nil,
                extendRenewalDate: (@Sendable (UInt64, Int) throws(StoreError) -> StoreTransaction)? = nil,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.notifications = notifications
        self.extendRenewalDate = extendRenewalDate
        self.bundleID = bundleID
        self.environment = environment
        self.keys = keys
        self.transactions = transactions
        self.now = now
    }

    /// Answers one request. Never throws and never traps on what a client sends: bad input is an error response.
    public func handle(_ request: ServerAPIRequest) -> ServerAPIResponse {
        do {
            // Apple checks the token before anything else: an unauthenticated client learns nothing, not even
            // which paths exist. Its 401 has no JSON body; ours says why, for the developer.
            let checker = BearerTokenChecker(keys: try keys(), bundleID: bundleID)
            if let refusal = checker.refusal(of: request.authorization, at: now()) {
                return .text(401, "Unauthenticated: \(refusal)")
            }
            guard let route = Route(request.path) else { return .text(404, "Not Found") }
            guard request.method == route.method else { return .text(405, "Method Not Allowed") }
            return try respond(route, request)
        } catch let error as ServerAPIError {
            return error.response
        } catch {
            return ServerAPIError.generalInternal.response
        }
    }

    /// The endpoints served, by their path (developer.apple.com/documentation/appstoreserverapi).
    private enum Route {
        /// Get Transaction Info: GET /inApps/v1/transactions/{transactionId}
        case transactionInfo(String)
        /// Get Transaction History: GET /inApps/v1/history/{transactionId} and /inApps/v2/history/{transactionId}
        case history(version: Int, String)
        /// Get All Subscription Statuses: GET /inApps/v1/subscriptions/{transactionId}
        case subscriptionStatuses(String)
        /// Get Refund History: GET /inApps/v2/refund/lookup/{transactionId}
        case refundHistory(String)
        /// Get App Transaction Info: GET /inApps/v1/transactions/appTransactions/{transactionId}
        case appTransactionInfo(String)
        /// Request a Test Notification: POST /inApps/v1/notifications/test
        case requestTestNotification
        /// Get Test Notification Status: GET /inApps/v1/notifications/test/{testNotificationToken}
        case testNotificationStatus(String)
        /// Get Notification History: POST /inApps/v1/notifications/history
        case notificationHistory
        /// Look Up Order ID: GET /inApps/v1/lookup/{orderId}
        case lookUpOrderID(String)
        /// Send Consumption Information: PUT /inApps/v1/transactions/consumption/{transactionId} and
        /// /inApps/v2/transactions/consumption/{transactionId}
        case consumption(String)
        /// Extend a Subscription Renewal Date: PUT /inApps/v1/subscriptions/extend/{originalTransactionId}
        case extend(String)

        init?(_ path: String) {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
            guard path.hasPrefix("/"), parts.count >= 4, parts.count <= 5, parts[0] == "inApps" else { return nil }
            switch (parts[1], parts[2], parts.count) {
            case ("v1", "transactions", 4): self = .transactionInfo(parts[3])
            case ("v1", "history", 4): self = .history(version: 1, parts[3])
            case ("v2", "history", 4): self = .history(version: 2, parts[3])
            case ("v1", "subscriptions", 4): self = .subscriptionStatuses(parts[3])
            case ("v1", "subscriptions", 5) where parts[3] == "extend": self = .extend(parts[4])
            case ("v2", "refund", 5) where parts[3] == "lookup": self = .refundHistory(parts[4])
            case ("v1", "notifications", 4) where parts[3] == "test": self = .requestTestNotification
            case ("v1", "notifications", 4) where parts[3] == "history": self = .notificationHistory
            case ("v1", "lookup", 4): self = .lookUpOrderID(parts[3])
            case ("v1", "notifications", 5) where parts[3] == "test": self = .testNotificationStatus(parts[4])
            case ("v1", "transactions", 5) where parts[3] == "appTransactions": self = .appTransactionInfo(parts[4])
            case ("v1", "transactions", 5) where parts[3] == "consumption", ("v2", "transactions", 5) where parts[3] == "consumption":
                self = .consumption(parts[4])
            default: return nil
            }
        }

        var method: String {
            switch self {
            case .consumption, .extend: "PUT"
            case .requestTestNotification, .notificationHistory: "POST"
            default: "GET"
            }
        }
    }

    private func respond(_ route: Route, _ request: ServerAPIRequest) throws -> ServerAPIResponse {
        switch route {
        case .transactionInfo(let id):
            let (_, transaction) = try customer(of: id)
            return .json(TransactionInfoResponse(signedTransactionInfo: transaction.signedJWS ?? ""))
        case .history(let version, let id):
            // Parameters first: a malformed request is a 400 whether or not the id exists.
            let query = try HistoryQuery(request)
            let (all, _) = try customer(of: id)
            // Version 1 leaves out consumables the app finished (Apple's Get Transaction History v1).
            let served = version == 1 ? all.filter { !($0.transaction.productType == .consumable && $0.isFinished) } : all
            let page = query.page(of: served.map(\.transaction))
            return .json(HistoryResponse(revision: page.revision, hasMore: page.hasMore, bundleId: bundleID,
                                         environment: environment.rawValue, signedTransactions: page.transactions.compactMap(\.signedJWS)))
        case .subscriptionStatuses(let id):
            let wanted = try Self.statusFilter(request)
            let (all, _) = try customer(of: id)
            return .json(SubscriptionStatuses.response(all.map(\.transaction), wanted: wanted, bundleID: bundleID,
                                                       environment: environment, at: now()))
        case .refundHistory(let id):
            let cursor = try PageCursor.decode(request.values("revision"))
            let (all, _) = try customer(of: id)
            let refunded = all.map(\.transaction).filter(\.isRevoked)
            let page = PageCursor.page(refunded, after: cursor, descending: false) { $0.revocationDate ?? $0.purchaseDate }
            return .json(RefundHistoryResponse(signedTransactions: page.transactions.compactMap(\.signedJWS),
                                               revision: page.revision, hasMore: page.hasMore))
        case .requestTestNotification:
            guard let notifications else { throw ServerAPIError.serverNotificationURLNotFound }
            return .json(SendTestNotificationResponse(
                testNotificationToken: try notifications.requestTest()))
        case .testNotificationStatus(let token):
            guard let notifications else { throw ServerAPIError.testNotificationNotFound }
            return .json(try notifications.status(of: token))
        case .notificationHistory:
            guard request.body.count <= 64 * 1024,
                  let body = try? JSONDecoder().decode(NotificationHistoryRequest.self, from: Data(request.body)) else {
                throw ServerAPIError.generalBadRequest
            }
            let tokens = request.values("paginationToken")
            guard tokens.count <= 1, tokens.first.map({ $0 != nil }) ?? true else { throw ServerAPIError.invalidPaginationToken }
            let response = try (notifications ?? .none)
                .history(body, paginationToken: tokens.first ?? nil) { id in
                    do {
                        _ = try customer(of: id)
                        return true
                    } catch let error as ServerAPIError where error == .transactionIDNotFound {
                        return false
                    }
                }
            return .json(response)
        case .lookUpOrderID(let orderID):
            // The local store issues no order ids (Apple's come on the customer's receipt email): every one is
            // unknown, Apple's OrderLookupStatus 1 (invalid) with no transactions. An empty or oversized one is a 400.
            guard !orderID.isEmpty, orderID.utf8.count <= 64 else { throw ServerAPIError.generalBadRequest }
            return .json(OrderLookupResponse(status: 1, signedTransactions: []))
        case .appTransactionInfo(let id):
            // The local store signs no App Transaction: for a customer it knows, Apple's answer when none exists.
            _ = try customer(of: id)
            throw ServerAPIError.appTransactionDoesNotExist
        case .consumption(let id):
            _ = try customer(of: id)
            // Apple takes the information to decide a refund request; the local store has no such review, so
            // it checks the body is a JSON object and accepts it, with Apple's 202 and no body.
            guard request.body.count <= 64 * 1024,
                  (try? JSONSerialization.jsonObject(with: Data(request.body))) is [String: Any] else {
                throw ServerAPIError.generalBadRequest
            }
            return ServerAPIResponse(status: 202, body: [], contentType: "application/json")
        case .extend(let id):
            return .json(try extend(id, request))
        }
    }

    /// Extend a Subscription Renewal Date: the id, then the body's fields, each against Apple's range
    /// (ExtendRenewalDateRequest: extendByDays 1…90, extendReasonCode 0…3, requestIdentifier a string of at
    /// most 128 characters), then the subscription. Apple also limits a subscription to two extensions a year;
    /// the local store does not count them.
    private func extend(_ id: String, _ request: ServerAPIRequest) throws -> ExtendRenewalDateResponse {
        guard !id.isEmpty, id.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let original = UInt64(id) else {
            throw ServerAPIError.invalidOriginalTransactionID
        }
        guard request.body.count <= 64 * 1024,
              let body = try? JSONDecoder().decode(ExtendRenewalDateRequest.self, from: Data(request.body)) else {
            throw ServerAPIError.generalBadRequest
        }
        guard let days = body.extendByDays?.value, (1...90).contains(days) else { throw ServerAPIError.invalidExtendByDays }
        guard let reason = body.extendReasonCode?.value, (0...3).contains(reason) else { throw ServerAPIError.invalidExtendReasonCode }
        guard let identifier = body.requestIdentifier?.value, !identifier.isEmpty, identifier.count <= 128 else {
            throw ServerAPIError.invalidRequestIdentifier
        }
        let all = try transactions().map(\.transaction)
        guard let latest = all.last(where: { $0.originalID == original }) else { throw ServerAPIError.originalTransactionIDNotFound }
        // Only an active auto-renewable subscription can be extended (Apple's 4030004 otherwise).
        guard latest.productType == .autoRenewable, !latest.isRevoked, (latest.expirationDate ?? .distantPast) > now(),
              let extend = self.extendRenewalDate else {
            throw ServerAPIError.subscriptionExtensionIneligible
        }
        let extended: StoreTransaction
        do {
            extended = try extend(original, days)
        } catch {
            // Billing retry, or it ended between the look above and the store's own check.
            guard error.code == .wrongState else { throw error }
            throw ServerAPIError.subscriptionExtensionIneligible
        }
        return ExtendRenewalDateResponse(originalTransactionId: String(extended.originalID), webOrderLineItemId: String(extended.id),
                                         success: true, effectiveDate: Int64((extended.expirationDate ?? now()).timeIntervalSince1970 * 1000))
    }

    /// The history of the customer `id` names, and that transaction: 400 for an id that cannot be one,
    /// 404 for one the store does not have.
    private func customer(of id: String) throws -> (all: [ServerAPITransaction], transaction: StoreTransaction) {
        // Apple's transaction ids are decimal numbers; UInt64's parser refuses anything else, of any length.
        guard !id.isEmpty, id.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let number = UInt64(id) else {
            throw ServerAPIError.invalidTransactionID
        }
        let all = try transactions()
        guard let transaction = all.first(where: { $0.transaction.id == number })?.transaction else {
            throw ServerAPIError.transactionIDNotFound
        }
        return (all, transaction)
    }

    /// Get All Subscription Statuses' `status` filter: 1 active, 2 expired, 3 billing retry, 4 grace period,
    /// 5 revoked (Apple's `status` type); empty means every status.
    private static func statusFilter(_ request: ServerAPIRequest) throws(ServerAPIError) -> Set<Int> {
        var wanted = Set<Int>()
        for value in request.values("status") {
            guard let value, let status = Int(value), (1...5).contains(status) else { throw .invalidStatus }
            wanted.insert(status)
        }
        return wanted
    }
}

// Response shapes: Apple's TransactionInfoResponse, HistoryResponse and RefundHistoryResponse
// (developer.apple.com/documentation/appstoreserverapi). `appAppleId` is left out: a local store's app has
// none (Apple's libraries read it as optional).

struct TransactionInfoResponse: Encodable {
    var signedTransactionInfo: String
}

struct HistoryResponse: Encodable {
    var revision: String
    var hasMore: Bool
    var bundleId: String
    var environment: String
    var signedTransactions: [String]
}

/// Apple's ExtendRenewalDateRequest, each field read on its own so that a wrong one gets its own error code.
struct ExtendRenewalDateRequest: Decodable {
    /// A field's value when it has the type wanted (JSON's 1.5, "7" or true is no Int: nil, not rounded).
    struct Field<Value: Decodable>: Decodable {
        let value: Value?
        init(from decoder: any Decoder) throws {
            value = try? decoder.singleValueContainer().decode(Value.self)
        }
    }

    var extendByDays: Field<Int>?
    var extendReasonCode: Field<Int>?
    var requestIdentifier: Field<String>?
}

/// Apple's ExtendRenewalDateResponse: `effectiveDate` is the new expiration date, in milliseconds since 1970.
struct ExtendRenewalDateResponse: Encodable {
    var originalTransactionId: String
    var webOrderLineItemId: String
    var success: Bool
    var effectiveDate: Int64
}

struct OrderLookupResponse: Encodable {
    var status: Int
    var signedTransactions: [String]
}

struct RefundHistoryResponse: Encodable {
    var signedTransactions: [String]
    var revision: String
    var hasMore: Bool
}
