import Foundation
import IOSiAPCore

/// Send Consumption Information (PUT /inApps/v2/transactions/consumption/{transactionId}, Apple's ConsumptionRequest)
/// and its first version (PUT /inApps/v1/transactions/consumption/{transactionId}, ConsumptionRequestV1), checked as
/// Apple documents them (developer.apple.com/documentation/appstoreserverapi/consumptionrequest and
/// consumptionrequestv1): each field against its documented values, with the field's own error code, before the
/// transaction is looked at; then what depends on the transaction. The local store has no refund review to inform:
/// a valid body is accepted (202) and kept nowhere.
enum ConsumptionRequests {
    /// Checks `request`'s body as the endpoint of `version` (1 or 2) takes it, the fields alone.
    static func checkBody(_ request: ServerAPIRequest, version: Int) throws(ServerAPIError) -> Checked {
        guard request.body.count <= 64 * 1024 else { throw .generalBadRequest }
        let body = Data(request.body)
        // Anything but a JSON object is malformed, whatever its fields would be.
        guard (try? JSONSerialization.jsonObject(with: body)) is [String: Any] else { throw .generalBadRequest }
        return version == 1 ? try checkV1(body) : try checkV2(body)
    }

    /// What the checks of the body leave for the transaction.
    struct Checked {
        var version: Int
        /// Whether a consumptionPercentage was given (version 2): Apple refuses it for an auto-renewable subscription.
        var hasConsumptionPercentage = false
    }

    /// What depends on the transaction: Apple takes consumption information for no Family Sharing transaction
    /// (FamilyTransactionNotSupportedError); version 1 only for a consumable or an auto-renewable subscription
    /// (InvalidTransactionTypeNotSupportedError: "Send consumption information about a consumable In-App Purchase or
    /// auto-renewable subscription"); version 2 for any type, without a consumption percentage for an auto-renewable
    /// subscription (ConsumptionPercentageAutoRenewableSubscriptionError).
    static func check(_ checked: Checked, against transaction: StoreTransaction) throws(ServerAPIError) {
        if transaction.ownershipType == .familyShared { throw .familyTransactionNotSupported }
        if checked.version == 1 {
            guard transaction.productType == .consumable || transaction.productType == .autoRenewable else {
                throw .invalidTransactionTypeNotSupported
            }
        } else if checked.hasConsumptionPercentage && transaction.productType == .autoRenewable {
            throw .consumptionPercentageAutoRenewableSubscription
        }
    }

    /// Apple's ConsumptionRequest: customerConsented (true, required), sampleContentProvided (required),
    /// deliveryStatus (required), consumptionPercentage (0…100000 milliunits, 0 unless DELIVERED), refundPreference.
    private static func checkV2(_ body: Data) throws(ServerAPIError) -> Checked {
        guard let fields = try? JSONDecoder().decode(ConsumptionRequestBody.self, from: body) else { throw .generalBadRequest }
        try checkConsent(fields.customerConsented)
        guard let delivery = fields.deliveryStatus?.value, deliveryStatuses.contains(delivery) else { throw .invalidDeliveryStatus }
        guard fields.sampleContentProvided?.value != nil else { throw .invalidSampleContentProvided }
        if let preference = fields.refundPreference {
            guard let value = preference.value, refundPreferences.contains(value) else { throw .invalidRefundPreference }
        }
        if let percentage = fields.consumptionPercentage {
            guard let value = percentage.value, (0...100_000).contains(value) else { throw .consumptionPercentageOutOfRange }
            if delivery != "DELIVERED" && value != 0 { throw .undeliveredConsumptionPercentageNonZero }
        }
        return Checked(version: 2, hasConsumptionPercentage: fields.consumptionPercentage != nil)
    }

    /// Apple's ConsumptionRequestV1: every field required but refundPreference, each an integer of its documented
    /// values (0 for undeclared), appAccountToken a UUID or empty.
    private static func checkV1(_ body: Data) throws(ServerAPIError) -> Checked {
        guard let fields = try? JSONDecoder().decode(ConsumptionRequestV1Body.self, from: body) else { throw .generalBadRequest }
        try checkConsent(fields.customerConsented)
        try checkValue(fields.consumptionStatus, 0...3, .invalidConsumptionStatus)  // undeclared, not, partially, fully consumed
        try checkValue(fields.platform, 0...2, .invalidPlatform)  // undeclared, Apple, non-Apple
        guard fields.sampleContentProvided?.value != nil else { throw .invalidSampleContentProvided }
        try checkValue(fields.deliveryStatus, 0...5, .invalidDeliveryStatus)  // DeliveryStatusV1
        guard let token = fields.appAccountToken?.value, token.isEmpty || (token.utf8.count == 36 && UUID(uuidString: token) != nil) else {
            throw .invalidAppAccountToken
        }
        try checkValue(fields.accountTenure, 0...7, .invalidAccountTenure)
        try checkValue(fields.playTime, 0...7, .invalidPlayTime)
        try checkValue(fields.lifetimeDollarsRefunded, 0...7, .invalidLifetimeDollarsRefunded)
        try checkValue(fields.lifetimeDollarsPurchased, 0...7, .invalidLifetimeDollarsPurchased)
        try checkValue(fields.userStatus, 0...4, .invalidUserStatus)  // undeclared, active, suspended, terminated, limited
        if let preference = fields.refundPreference {
            guard let value = preference.value, (0...3).contains(value) else { throw .invalidRefundPreference }  // RefundPreferenceV1
        }
        return Checked(version: 1)
    }

    /// Apple: "The App Store server rejects requests that have a customerConsented value other than true"
    /// (InvalidCustomerConsentedError): false, missing, or not a Boolean.
    private static func checkConsent(_ field: Field<Bool>?) throws(ServerAPIError) {
        guard field?.value == true else { throw .invalidCustomerConsented }
    }

    private static func checkValue(_ field: Field<Int>?, _ range: ClosedRange<Int>, _ error: ServerAPIError) throws(ServerAPIError) {
        guard let value = field?.value, range.contains(value) else { throw error }
    }

    /// Apple's deliveryStatus values (ConsumptionRequest).
    static let deliveryStatuses: Set<String> = [
        "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE", "UNDELIVERED_OTHER",
    ]
    /// Apple's refundPreference values (ConsumptionRequest).
    static let refundPreferences: Set<String> = ["DECLINE", "GRANT_FULL", "GRANT_PRORATED"]
}

/// Apple's ConsumptionRequest, each field as sent (`Field`: a value of another JSON type is nil, so that it gets the
/// field's own error; a null is a field left out).
struct ConsumptionRequestBody: Decodable {
    var customerConsented: Field<Bool>?
    var consumptionPercentage: Field<Int>?
    var deliveryStatus: Field<String>?
    var refundPreference: Field<String>?
    var sampleContentProvided: Field<Bool>?
}

/// Apple's ConsumptionRequestV1, each field as sent.
struct ConsumptionRequestV1Body: Decodable {
    var accountTenure: Field<Int>?
    var appAccountToken: Field<String>?
    var consumptionStatus: Field<Int>?
    var customerConsented: Field<Bool>?
    var deliveryStatus: Field<Int>?
    var lifetimeDollarsPurchased: Field<Int>?
    var lifetimeDollarsRefunded: Field<Int>?
    var platform: Field<Int>?
    var playTime: Field<Int>?
    var refundPreference: Field<Int>?
    var sampleContentProvided: Field<Bool>?
    var userStatus: Field<Int>?
}
