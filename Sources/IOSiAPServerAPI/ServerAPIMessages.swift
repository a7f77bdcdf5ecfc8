import Foundation

/// A request as the HTTP layer hands it over: decoded query arguments, the Authorization header, the body.
public struct ServerAPIRequest: Sendable {
    /// One query argument, decoded; `value` is nil for `?name` without `=`. A name may repeat (productId=…&productId=…).
    public struct QueryItem: Sendable, Equatable {
        public let name: String
        public let value: String?
        public init(_ name: String, _ value: String?) {
            self.name = name
            self.value = value
        }
    }

    public let method: String
    /// The path without the query string, e.g. `/inApps/v1/transactions/1`.
    public let path: String
    public let query: [QueryItem]
    /// The `Authorization` header, if any.
    public let authorization: String?
    public let body: [UInt8]
    /// The other headers the HTTP layer reads (`ServerAPIHTTPServer.forwardedHeaders`), by lowercased name.
    public let headers: [String: String]

    public init(method: String, path: String, query: [QueryItem] = [], authorization: String?, body: [UInt8] = [],
                headers: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.query = query
        self.authorization = authorization
        self.body = body
        self.headers = headers
    }

    /// Every value given for `name`, in order.
    public func values(_ name: String) -> [String?] {
        query.filter { $0.name == name }.map(\.value)
    }
}

/// What the server answers: a status, a body and its type.
public struct ServerAPIResponse: Sendable, Equatable {
    public let status: Int
    public let body: [UInt8]
    public let contentType: String
    /// More headers to send, by name.
    public let headers: [String: String]

    public init(status: Int, body: [UInt8], contentType: String, headers: [String: String] = [:]) {
        self.status = status
        self.body = body
        self.contentType = contentType
        self.headers = headers
    }

    /// `value` as JSON. Apple's client libraries read an error body only when the Content-Type is exactly
    /// `application/json` (no charset parameter), so that is what every JSON answer carries.
    static func json<Value: Encodable>(_ value: Value, status: Int = 200) -> ServerAPIResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // The response types are plain structs of strings, numbers and arrays: encoding cannot fail.
        let body = (try? encoder.encode(value)).map { Array($0) } ?? Array("{}".utf8)
        return ServerAPIResponse(status: status, body: body, contentType: "application/json")
    }

    static func text(_ status: Int, _ text: String) -> ServerAPIResponse {
        ServerAPIResponse(status: status, body: Array((text + "\n").utf8), contentType: "text/plain; charset=utf-8")
    }
}

/// An App Store Server API error: the HTTP status and Apple's `{"errorCode", "errorMessage"}` body.
///
/// Codes from Apple's App Store Server API documentation, "Error codes"
/// (developer.apple.com/documentation/appstoreserverapi/error-codes). Apple documents the message text of
/// few of them; 4040010's ("Transaction id not found.") is what Apple's servers answer, and the others
/// follow its style.
public struct ServerAPIError: Error, Sendable, Equatable, Encodable {
    public let status: Int
    public let errorCode: Int
    public let errorMessage: String

    private enum CodingKeys: String, CodingKey { case errorCode, errorMessage }

    static let generalBadRequest = ServerAPIError(status: 400, errorCode: 4000000, errorMessage: "Bad request.")
    static let invalidRequestRevision = ServerAPIError(status: 400, errorCode: 4000005, errorMessage: "Invalid request revision.")
    static let invalidTransactionID = ServerAPIError(status: 400, errorCode: 4000006, errorMessage: "Invalid transaction id.")
    static let invalidOriginalTransactionID = ServerAPIError(status: 400, errorCode: 4000008,
                                                             errorMessage: "Invalid original transaction id.")
    static let invalidExtendByDays = ServerAPIError(status: 400, errorCode: 4000009, errorMessage: "Invalid extend by days value.")
    static let invalidExtendReasonCode = ServerAPIError(status: 400, errorCode: 4000010, errorMessage: "Invalid extend reason code.")
    static let invalidRequestIdentifier = ServerAPIError(status: 400, errorCode: 4000011, errorMessage: "Invalid request identifier.")
    static let startDateAfterEndDate = ServerAPIError(status: 400, errorCode: 4000013, errorMessage: "Start date after end date.")
    static let invalidPaginationToken = ServerAPIError(status: 400, errorCode: 4000014, errorMessage: "Invalid pagination token.")
    static let invalidStartDate = ServerAPIError(status: 400, errorCode: 4000015, errorMessage: "Invalid start date.")
    static let invalidEndDate = ServerAPIError(status: 400, errorCode: 4000016, errorMessage: "Invalid end date.")
    static let invalidNotificationType = ServerAPIError(status: 400, errorCode: 4000018, errorMessage: "Invalid notification type.")
    static let multipleFiltersSupplied = ServerAPIError(status: 400, errorCode: 4000019, errorMessage: "Multiple filters supplied.")
    static let invalidTestNotificationToken = ServerAPIError(status: 400, errorCode: 4000020,
                                                             errorMessage: "Invalid test notification token.")
    static let invalidSort = ServerAPIError(status: 400, errorCode: 4000021, errorMessage: "Invalid sort.")
    static let invalidProductType = ServerAPIError(status: 400, errorCode: 4000022, errorMessage: "Invalid product type.")
    static let invalidProductID = ServerAPIError(status: 400, errorCode: 4000023, errorMessage: "Invalid product id.")
    static let invalidSubscriptionGroupIdentifier = ServerAPIError(status: 400, errorCode: 4000024,
                                                                   errorMessage: "Invalid subscription group identifier.")
    static let invalidInAppOwnershipType = ServerAPIError(status: 400, errorCode: 4000026, errorMessage: "Invalid in-app ownership type.")
    static let invalidEmptyStorefrontCountryCodeList = ServerAPIError(status: 400, errorCode: 4000027,
                                                                      errorMessage: "Invalid empty storefront country code list.")
    static let invalidStorefrontCountryCode = ServerAPIError(status: 400, errorCode: 4000028, errorMessage: "Invalid storefront country code.")
    static let invalidRevoked = ServerAPIError(status: 400, errorCode: 4000030, errorMessage: "Invalid revoked.")
    static let invalidStatus = ServerAPIError(status: 400, errorCode: 4000031, errorMessage: "Invalid status.")
    // Send Consumption Information's (ConsumptionRequest, ConsumptionRequestV1).
    static let invalidAccountTenure = ServerAPIError(status: 400, errorCode: 4000032, errorMessage: "Invalid account tenure.")
    static let invalidAppAccountToken = ServerAPIError(status: 400, errorCode: 4000033, errorMessage: "Invalid app account token.")
    static let invalidConsumptionStatus = ServerAPIError(status: 400, errorCode: 4000034, errorMessage: "Invalid consumption status.")
    static let invalidCustomerConsented = ServerAPIError(status: 400, errorCode: 4000035,
                                                         errorMessage: "Invalid request. The customer consented field is invalid.")
    static let invalidDeliveryStatus = ServerAPIError(status: 400, errorCode: 4000036, errorMessage: "Invalid delivery status.")
    static let invalidLifetimeDollarsPurchased = ServerAPIError(status: 400, errorCode: 4000037,
                                                                errorMessage: "Invalid lifetime dollars purchased.")
    static let invalidLifetimeDollarsRefunded = ServerAPIError(status: 400, errorCode: 4000038,
                                                               errorMessage: "Invalid lifetime dollars refunded.")
    static let invalidPlatform = ServerAPIError(status: 400, errorCode: 4000039, errorMessage: "Invalid platform.")
    static let invalidPlayTime = ServerAPIError(status: 400, errorCode: 4000040, errorMessage: "Invalid play time.")
    static let invalidSampleContentProvided = ServerAPIError(status: 400, errorCode: 4000041,
                                                             errorMessage: "Invalid sample content provided.")
    static let invalidUserStatus = ServerAPIError(status: 400, errorCode: 4000042, errorMessage: "Invalid user status.")
    static let invalidRefundPreference = ServerAPIError(status: 400, errorCode: 4000044,
                                                        errorMessage: "Invalid request. The refund preference field is invalid.")
    static let invalidTransactionTypeNotSupported = ServerAPIError(status: 400, errorCode: 4000047,
                                                                   errorMessage: "Invalid transaction type not supported.")
    static let appTransactionIDNotSupported = ServerAPIError(status: 400, errorCode: 4000048,
                                                             errorMessage: "Invalid request. App transaction id not supported by this endpoint.")
    static let familyTransactionNotSupported = ServerAPIError(status: 400, errorCode: 4000185,
                                                              errorMessage: "Family transaction not supported.")
    static let consumptionPercentageAutoRenewableSubscription = ServerAPIError(
        status: 400, errorCode: 4000209,
        errorMessage: "Invalid request. The consumption percentage field is not supported for auto-renewable subscription transactions.")
    // Apple documents ConsumptionPercentageOutOfRangeError and UndeliveredConsumptionPercentageNonZeroError without
    // their numbers in any source at hand: they are answered as the general 400 (4000000), named in the message.
    static let consumptionPercentageOutOfRange = ServerAPIError(
        status: 400, errorCode: 4000000, errorMessage: "Invalid request. The consumption percentage is outside the valid range (0 to 100000).")
    static let undeliveredConsumptionPercentageNonZero = ServerAPIError(
        status: 400, errorCode: 4000000,
        errorMessage: "Invalid request. The consumption percentage must be 0 when the delivery status is not DELIVERED.")
    static let subscriptionExtensionIneligible = ServerAPIError(status: 403, errorCode: 4030004,
                                                                errorMessage: "Subscription extension ineligible.")
    static let subscriptionMaxExtension = ServerAPIError(status: 403, errorCode: 4030005, errorMessage: "Subscription max extension.")
    static let familySharedSubscriptionExtensionIneligible = ServerAPIError(
        status: 403, errorCode: 4030007, errorMessage: "Family shared subscription extension ineligible.")
    static let statusRequestNotFound = ServerAPIError(status: 404, errorCode: 4040009, errorMessage: "Status request not found.")
    static let originalTransactionIDNotFound = ServerAPIError(status: 404, errorCode: 4040005,
                                                              errorMessage: "Original transaction id not found.")
    static let transactionIDNotFound = ServerAPIError(status: 404, errorCode: 4040010, errorMessage: "Transaction id not found.")
    static let serverNotificationURLNotFound = ServerAPIError(status: 404, errorCode: 4040007,
                                                              errorMessage: "Server notification URL not found.")
    static let testNotificationNotFound = ServerAPIError(status: 404, errorCode: 4040008, errorMessage: "Test notification not found.")
    static let appTransactionDoesNotExist = ServerAPIError(status: 404, errorCode: 4040019,
                                                           errorMessage: "No app transaction exists for the customer.")
    static let generalInternal = ServerAPIError(status: 500, errorCode: 5000000, errorMessage: "An unknown error occurred.")

    var response: ServerAPIResponse { .json(self, status: status) }
}
