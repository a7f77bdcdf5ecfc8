import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPSignedData

/// The renewal date extension endpoints: Extend a Subscription Renewal Date, Extend Subscription Renewal Dates
/// for All Active Subscribers and Get Status of Subscription Renewal Date Extensions
/// (developer.apple.com/documentation/appstoreserverapi). Each field of a request is checked against Apple's
/// range, in the order of the request body, before anything changes; Apple's rules of who may be extended are
/// the store's (`RenewalExtender`).
enum RenewalExtensionRequests {
    /// PUT /inApps/v1/subscriptions/extend/{originalTransactionId}
    static func extend(_ id: String, _ request: ServerAPIRequest, by extensions: (any RenewalDateExtending)?) throws -> ExtendRenewalDateResponse {
        guard let original = decimalID(id) else { throw ServerAPIError.invalidOriginalTransactionID }
        let body = try decode(ExtendRenewalDateRequest.self, request)
        let days = try Self.days(body.extendByDays)
        try checkReason(body.extendReasonCode)
        // Apple: a string of at most 128 characters (ExtendRenewalDateRequest's requestIdentifier), counted in
        // Unicode scalars: a character can hold any number of combining marks.
        guard let identifier = body.requestIdentifier?.value, !identifier.isEmpty, identifier.unicodeScalars.count <= 128 else {
            throw ServerAPIError.invalidRequestIdentifier
        }
        guard let extensions else { throw ServerAPIError.subscriptionExtensionIneligible }
        let outcome: RenewalExtensionOutcome
        do {
            outcome = try extensions.extendRenewalDate(originalTransactionID: original, days: days, requestIdentifier: identifier)
        } catch {
            throw error.code == .unknownTransaction ? ServerAPIError.originalTransactionIDNotFound : error
        }
        switch outcome {
        case .extended(let made):
            return ExtendRenewalDateResponse(originalTransactionId: String(made.originalTransactionID),
                                             webOrderLineItemId: String(made.transactionID), success: true,
                                             effectiveDate: Int64(Milliseconds(made.effectiveDate).value))
        case .ineligible: throw ServerAPIError.subscriptionExtensionIneligible
        case .maximumReached: throw ServerAPIError.subscriptionMaxExtension
        case .familyShared: throw ServerAPIError.familySharedSubscriptionExtensionIneligible
        }
    }

    /// POST /inApps/v1/subscriptions/extend/mass: done at once, so its status is complete when it answers and, with
    /// a notification URL set, its RENEWAL_EXTENSION notifications (SUMMARY, FAILURE) are in the outbox.
    static func massExtend(_ request: ServerAPIRequest, by extensions: (any RenewalDateExtending)?) throws -> MassExtendRenewalDateResponse {
        let body = try decode(MassExtendRenewalDateRequest.self, request)
        let days = try Self.days(body.extendByDays)
        try checkReason(body.extendReasonCode)
        let identifier = try massRequestIdentifier(body.requestIdentifier?.value)
        var storefronts: Set<String>?
        if let field = body.storefrontCountryCodes {
            // Apple's storefrontCountryCodes: ISO 3166-1 alpha-3 codes; left out for every storefront, never empty.
            guard let codes = field.value else { throw ServerAPIError.invalidStorefrontCountryCode }
            guard !codes.isEmpty else { throw ServerAPIError.invalidEmptyStorefrontCountryCodeList }
            guard codes.count <= 300, codes.allSatisfy(isAlpha3) else { throw ServerAPIError.invalidStorefrontCountryCode }
            storefronts = Set(codes)
        }
        guard let productID = body.productId?.value, isProductID(productID), let extensions else { throw ServerAPIError.invalidProductID }
        let done: MassRenewalExtension
        do {
            done = try extensions.extendRenewalDates(productID: productID, days: days, requestIdentifier: identifier, storefronts: storefronts)
        } catch {
            switch error.code {
            case .unknownProduct: throw ServerAPIError.invalidProductID
            case .invalidArgument: throw ServerAPIError.invalidRequestIdentifier  // already used for another product
            default: throw error
            }
        }
        return MassExtendRenewalDateResponse(requestIdentifier: done.requestIdentifier)
    }

    /// GET /inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}
    static func status(productID: String, requestIdentifier: String,
                       from extensions: (any RenewalDateExtending)?) throws -> MassExtendRenewalDateStatusResponse {
        guard isProductID(productID) else { throw ServerAPIError.invalidProductID }
        let identifier = try massRequestIdentifier(requestIdentifier)
        guard let done = try extensions?.massRenewalExtension(productID: productID, requestIdentifier: identifier) else {
            throw ServerAPIError.statusRequestNotFound
        }
        return MassExtendRenewalDateStatusResponse(
            requestIdentifier: done.requestIdentifier, complete: true,
            completeDate: Int64(Milliseconds(done.completeDate).value),
            succeededCount: done.succeededCount, failedCount: done.failedCount)
    }

    private static func decode<Body: Decodable>(_ type: Body.Type, _ request: ServerAPIRequest) throws(ServerAPIError) -> Body {
        guard request.body.count <= 64 * 1024, let body = try? JSONDecoder().decode(type, from: Data(request.body)) else {
            throw .generalBadRequest
        }
        return body
    }

    /// Apple's extendByDays: 1…90.
    private static func days(_ field: Field<Int>?) throws(ServerAPIError) -> Int {
        guard let days = field?.value, (1...90).contains(days) else { throw .invalidExtendByDays }
        return days
    }

    /// Apple's extendReasonCode: 0 undeclared, 1 customer satisfaction, 2 other, 3 service issue or outage.
    private static func checkReason(_ field: Field<Int>?) throws(ServerAPIError) {
        guard let reason = field?.value, (0...3).contains(reason) else { throw .invalidExtendReasonCode }
    }

    /// The request identifier of a request for every subscriber: a UUID, as Apple's notifications type it
    /// (App Store Server Notifications' requestIdentifier), in lower case: the same UUID in capitals is the
    /// same request.
    private static func massRequestIdentifier(_ value: String?) throws(ServerAPIError) -> String {
        guard let value, value.utf8.count == 36, UUID(uuidString: value) != nil else { throw .invalidRequestIdentifier }
        return value.lowercased()
    }

    private static func isProductID(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= 256
    }

    private static func isAlpha3(_ code: String) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }

    /// A decimal id as Apple's are; `nil` for anything else, of any length.
    private static func decimalID(_ id: String) -> UInt64? {
        guard !id.isEmpty, id.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return UInt64(id)
    }
}

/// A request field's value when it has the type wanted (JSON's 1.5, "7" or true is no Int: nil, not rounded), so
/// that a wrong field gets its own error code rather than a general 400.
struct Field<Value: Decodable>: Decodable {
    let value: Value?
    init(from decoder: any Decoder) throws {
        value = try? decoder.singleValueContainer().decode(Value.self)
    }
}

/// Apple's ExtendRenewalDateRequest.
struct ExtendRenewalDateRequest: Decodable {
    var extendByDays: Field<Int>?
    var extendReasonCode: Field<Int>?
    var requestIdentifier: Field<String>?
}

/// Apple's MassExtendRenewalDateRequest.
struct MassExtendRenewalDateRequest: Decodable {
    var extendByDays: Field<Int>?
    var extendReasonCode: Field<Int>?
    var requestIdentifier: Field<String>?
    var storefrontCountryCodes: Field<[String]>?
    var productId: Field<String>?
}

/// Apple's ExtendRenewalDateResponse: `effectiveDate` is the new expiration date, in milliseconds since 1970.
struct ExtendRenewalDateResponse: Encodable {
    var originalTransactionId: String
    var webOrderLineItemId: String
    var success: Bool
    var effectiveDate: Int64
}

/// Apple's MassExtendRenewalDateResponse.
struct MassExtendRenewalDateResponse: Encodable {
    var requestIdentifier: String
}

/// Apple's MassExtendRenewalDateStatusResponse.
struct MassExtendRenewalDateStatusResponse: Encodable {
    var requestIdentifier: String
    var complete: Bool
    var completeDate: Int64
    var succeededCount: Int
    var failedCount: Int
}
