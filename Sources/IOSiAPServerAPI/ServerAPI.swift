import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPVerification

/// A transaction as the server serves it: what the store signed, whether the app finished it, and its revision
/// (the history's order for revision tokens: `LocalStore.HistoryEntry.revision`).
public struct ServerAPITransaction: Sendable {
    public let transaction: StoreTransaction
    public let isFinished: Bool
    public let revision: Int64

    public init(_ transaction: StoreTransaction, isFinished: Bool, revision: Int64) {
        self.transaction = transaction
        self.isFinished = isFinished
        self.revision = revision
    }

    /// A line of the local store's history.
    public init(_ entry: LocalStore.HistoryEntry) {
        self.init(entry.transaction, isFinished: entry.isFinished, revision: entry.revision)
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
    /// What extends subscriptions' renewal dates (the local store); without it, every extension is refused
    /// (4030004) and no extension request is found (4040009).
    private let extensions: (any RenewalDateExtending)?
    /// The history a page at a time (the local store): Get Transaction Info and Get Transaction History then cost
    /// the same whatever the history's length; without it, they read `transactions`.
    private let pages: (any TransactionHistoryPaging)?
    /// The customer's App Transaction, signed now (the local store's); without it, Get App Transaction Info answers
    /// Apple's 4040019 (none exists) for a customer it knows.
    private let appTransaction: (@Sendable () throws(StoreError) -> StoreAppTransaction)?
    /// The names a request's `Host` may give (lowercased, without the port); nil: not checked (a caller that checks).
    private let allowedHosts: Set<String>?
    /// Told why a bearer token was refused, for the server's own log: the client is told nothing of it.
    private let refusals: (@Sendable (String) -> Void)?

    /// Apple's page size for transaction and refund history (developer.apple.com/documentation/appstoreserverapi,
    /// Get Transaction History: "up to 20 transactions").
    static let pageSize = 20

    /// - Parameters:
    ///   - keys: the keys bearer tokens may be signed with; asked at each request, so keys added while the
    ///     server runs are accepted at once.
    ///   - transactions: the store's history, oldest first; asked at each request.
    ///   - notifications: what sends notifications; without it, Request a Test Notification is 404 (4040007).
    ///   - extensions: what extends renewal dates (the local store).
    ///   - pages: what reads the history a page at a time (the local store); the same answers as `transactions`.
    ///   - appTransaction: the customer's App Transaction, signed at each request (`LocalStore.signAppTransaction`).
    ///   - allowedHosts: the host names (`hostName(_:)`) a request's `Host` header may give; every other request,
    ///     one without the header too, is refused (421) before anything else, so that a page of another site whose
    ///     name resolves to this machine (DNS rebinding) reaches nothing. Nil: not checked.
    ///   - refusals: told why each bearer token was refused (the server's log); the client gets the same 401 whatever
    ///     the reason.
    public init(bundleID: String, environment: StoreEnvironment,
                keys: @escaping @Sendable () throws(StoreError) -> [ServerAPIKey],
                transactions: @escaping @Sendable () throws(StoreError) -> [ServerAPITransaction],
                notifications: ServerNotifications? = nil,
                extensions: (any RenewalDateExtending)? = nil,
                pages: (any TransactionHistoryPaging)? = nil,
                appTransaction: (@Sendable () throws(StoreError) -> StoreAppTransaction)? = nil,
                allowedHosts: Set<String>? = nil,
                refusals: (@Sendable (String) -> Void)? = nil,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.notifications = notifications
        self.extensions = extensions
        self.pages = pages
        self.appTransaction = appTransaction
        self.allowedHosts = allowedHosts
        self.refusals = refusals
        self.bundleID = bundleID
        self.environment = environment
        self.keys = keys
        self.transactions = transactions
        self.now = now
    }

    /// Answers one request. Never throws and never traps on what a client sends: bad input is an error response.
    public func handle(_ request: ServerAPIRequest) -> ServerAPIResponse {
        // A request for another site's name (DNS rebinding) is refused before its token is looked at.
        if let allowedHosts, !(Self.hostName(request.headers["host"]).map(allowedHosts.contains) ?? false) {
            return .text(421, "Misdirected Request")
        }
        do {
            // Apple checks the token before anything else: an unauthenticated client learns nothing, not even
            // which paths exist, nor why its token was refused (which key ids exist): every refusal is the same
            // 401. Why is told to the server's log only.
            let checker = BearerTokenChecker(keys: try keys(), bundleID: bundleID)
            if let refusal = checker.refusal(of: request.authorization, at: now()) {
                refusals?(refusal)
                return Self.unauthenticated
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

    /// The one answer to every refused bearer token: Apple's 401, which has no JSON body.
    static let unauthenticated = ServerAPIResponse.text(401, "Unauthenticated")

    /// The name or address a `Host` header gives, lowercased, without its port: `127.0.0.1`, `localhost`,
    /// `[::1]`; nil when it is none (empty, a port that is not a number).
    public static func hostName(_ host: String?) -> String? {
        guard let host = host?.lowercased(), !host.isEmpty, host.utf8.count <= 1024 else { return nil }
        let name: Substring
        let port: Substring
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return nil }
            (name, port) = (host[...end], host[host.index(after: end)...])
        } else if let colon = host.firstIndex(of: ":") {
            (name, port) = (host[..<colon], host[colon...])
        } else {
            (name, port) = (host[...], "")
        }
        guard !name.isEmpty, port.isEmpty || (port.count > 1 && port.hasPrefix(":")
                                              && port.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }) else { return nil }
        return String(name)
    }

    /// The host names of a server on `address`: loopback's, and `address` itself.
    public static func hostNames(listeningOn address: String) -> Set<String> {
        ["127.0.0.1", "localhost", "[::1]", address.lowercased()]
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
        case consumption(version: Int, String)
        /// Extend a Subscription Renewal Date: PUT /inApps/v1/subscriptions/extend/{originalTransactionId}
        case extend(String)
        /// Extend Subscription Renewal Dates for All Active Subscribers: POST /inApps/v1/subscriptions/extend/mass
        case massExtend
        /// Get Status of Subscription Renewal Date Extensions:
        /// GET /inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}
        case massExtendStatus(productID: String, requestIdentifier: String)

        init?(_ path: String) {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
            if parts.count == 7, path.hasPrefix("/"), parts[..<5] == ["inApps", "v1", "subscriptions", "extend", "mass"] {
                self = .massExtendStatus(productID: parts[5], requestIdentifier: parts[6])
                return
            }
            guard path.hasPrefix("/"), parts.count >= 4, parts.count <= 5, parts[0] == "inApps" else { return nil }
            switch (parts[1], parts[2], parts.count) {
            case ("v1", "transactions", 4): self = .transactionInfo(parts[3])
            case ("v1", "history", 4): self = .history(version: 1, parts[3])
            case ("v2", "history", 4): self = .history(version: 2, parts[3])
            case ("v1", "subscriptions", 4): self = .subscriptionStatuses(parts[3])
            case ("v1", "subscriptions", 5) where parts[3] == "extend": self = parts[4] == "mass" ? .massExtend : .extend(parts[4])
            case ("v2", "refund", 5) where parts[3] == "lookup": self = .refundHistory(parts[4])
            case ("v1", "notifications", 4) where parts[3] == "test": self = .requestTestNotification
            case ("v1", "notifications", 4) where parts[3] == "history": self = .notificationHistory
            case ("v1", "lookup", 4): self = .lookUpOrderID(parts[3])
            case ("v1", "notifications", 5) where parts[3] == "test": self = .testNotificationStatus(parts[4])
            case ("v1", "transactions", 5) where parts[3] == "appTransactions": self = .appTransactionInfo(parts[4])
            case ("v1", "transactions", 5) where parts[3] == "consumption": self = .consumption(version: 1, parts[4])
            case ("v2", "transactions", 5) where parts[3] == "consumption": self = .consumption(version: 2, parts[4])
            default: return nil
            }
        }

        var method: String {
            switch self {
            case .consumption, .extend: "PUT"
            case .requestTestNotification, .notificationHistory, .massExtend: "POST"
            default: "GET"
            }
        }
    }

    private func respond(_ route: Route, _ request: ServerAPIRequest) throws -> ServerAPIResponse {
        switch route {
        case .transactionInfo(let id):
            return .json(TransactionInfoResponse(signedTransactionInfo: try transaction(id).signedJWS ?? ""))
        case .history(let version, let id):
            // Parameters first: a malformed request is a 400 whether or not the id exists.
            var query = try HistoryQuery(request)
            // Version 1 leaves out consumables the app finished (Apple's Get Transaction History v1).
            query.filter.leavesOutFinishedConsumables = version == 1
            let page = try self.page(query, of: id)
            return .json(HistoryResponse(revision: page.revision, hasMore: page.hasMore, bundleId: bundleID,
                                         environment: environment.rawValue, signedTransactions: page.transactions.compactMap(\.signedJWS)))
        case .subscriptionStatuses(let id):
            let wanted = try Self.statusFilter(request)
            let (all, _) = try customer(of: id)
            return .json(SubscriptionStatuses.response(all.map(\.transaction), wanted: wanted, bundleID: bundleID,
                                                       environment: environment, at: now()))
        case .refundHistory(let id):
            let page = try self.page(try HistoryQuery.refunds(request), of: id)
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
            return .json(AppTransactionInfoResponse(signedAppTransactionInfo: try appTransactionInfo(id)))
        case .consumption(let version, let id):
            // The id's form first, then the body (ConsumptionRequests.swift), then the transaction. Apple takes the
            // information to decide a refund request; the local store has no such review: a valid body is accepted,
            // with Apple's 202 and no body.
            let number = try Self.transactionNumber(id)
            let checked = try ConsumptionRequests.checkBody(request, version: version)
            guard let transaction = try transactionIfAny(number) else {
                // The customer's app transaction id names no purchase (AppTransactionIdNotSupportedError).
                if let app = try appTransaction?(), app.appTransactionID == id { throw ServerAPIError.appTransactionIDNotSupported }
                throw ServerAPIError.transactionIDNotFound
            }
            try ConsumptionRequests.check(checked, against: transaction)
            return ServerAPIResponse(status: 202, body: [], contentType: "application/json")
        case .extend(let id):
            return .json(try extend(id, request))
        case .massExtend:
            return .json(try RenewalExtensionRequests.massExtend(request, by: extensions))
        case .massExtendStatus(let productID, let requestIdentifier):
            return .json(try RenewalExtensionRequests.status(productID: productID, requestIdentifier: requestIdentifier, from: extensions))
        }
    }

    /// A page of the history of the customer `id` names: read from the store a page at a time when it can be, else
    /// from the whole history (the same answer).
    private func page(_ query: HistoryQuery, of id: String) throws -> HistoryQuery.Page {
        guard let pages else { return query.page(of: try customer(of: id).all) }
        _ = try transaction(id)
        return try query.page(from: pages)
    }

    /// Extend a Subscription Renewal Date (RenewalExtensionRequests.swift).
    private func extend(_ id: String, _ request: ServerAPIRequest) throws -> ExtendRenewalDateResponse {
        try RenewalExtensionRequests.extend(id, request, by: extensions)
    }

    /// The transaction `id` names, read alone when the history can be read a page at a time: 400 for an id that
    /// cannot be one, 404 for one the store does not have.
    private func transaction(_ id: String) throws -> StoreTransaction {
        guard let transaction = try transactionIfAny(try Self.transactionNumber(id)) else { throw ServerAPIError.transactionIDNotFound }
        return transaction
    }

    /// The transaction numbered `number`, if the store has it.
    private func transactionIfAny(_ number: UInt64) throws -> StoreTransaction? {
        if let pages { return try pages.historyEntry(id: number)?.transaction }
        return try transactions().first { $0.transaction.id == number }?.transaction
    }

    /// Get App Transaction Info (developer.apple.com/documentation/appstoreserverapi/get-app-transaction-info): the
    /// customer's App Transaction, signed now, for any transactionId, originalTransactionId (every original id is a
    /// transaction id of the history) or appTransactionId of the customer. An id of none of them is Apple's 404
    /// (4040010); without a signed App Transaction, a known customer's is 4040019.
    private func appTransactionInfo(_ id: String) throws -> String {
        let number = try Self.transactionNumber(id)
        let known = try transactionIfAny(number) != nil
        guard let appTransaction else {
            guard known else { throw ServerAPIError.transactionIDNotFound }
            throw ServerAPIError.appTransactionDoesNotExist
        }
        let signed = try appTransaction()
        guard known || signed.appTransactionID == id else { throw ServerAPIError.transactionIDNotFound }
        return signed.signedJWS
    }

    /// Apple's transaction ids are decimal numbers; UInt64's parser refuses anything else, of any length.
    private static func transactionNumber(_ id: String) throws(ServerAPIError) -> UInt64 {
        guard !id.isEmpty, id.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let number = UInt64(id) else {
            throw .invalidTransactionID
        }
        return number
    }

    /// The history of the customer `id` names, and that transaction: 400 for an id that cannot be one,
    /// 404 for one the store does not have.
    private func customer(of id: String) throws -> (all: [ServerAPITransaction], transaction: StoreTransaction) {
        let number = try Self.transactionNumber(id)
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

/// Apple's AppTransactionInfoResponse.
struct AppTransactionInfoResponse: Encodable {
    var signedAppTransactionInfo: String
}

struct HistoryResponse: Encodable {
    var revision: String
    var hasMore: Bool
    var bundleId: String
    var environment: String
    var signedTransactions: [String]
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
