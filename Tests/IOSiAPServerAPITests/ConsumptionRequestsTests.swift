import Foundation
import IOSiAPCore
import IOSiAPLocalStore
@testable import IOSiAPServerAPI
import IOSiAPTestSupport
import Testing

/// Send Consumption Information (v2, ConsumptionRequest) and its first version (v1, ConsumptionRequestV1), checked as
/// Apple documents them: each field with its own error code, Apple's ranges, then what depends on the transaction.
@Suite struct ConsumptionRequestsTests {
    let base: ServerAPITests
    var store: LocalStore { base.store }
    static let coins = ServerAPITests.coins
    static let gold = ServerAPITests.gold
    static let pro = "com.iosiap.example.pro_upgrade"  // family-shareable
    static let seasonPass = "com.iosiap.example.season_pass"

    init() throws {
        base = try ServerAPITests()
    }

    /// A v2 body: Apple's three required fields, with `changes` applied (nil removes a field).
    static func v2(_ changes: [String: Any?] = [:]) throws -> String {
        try body(["customerConsented": true, "deliveryStatus": "DELIVERED", "sampleContentProvided": false], changes)
    }

    /// A v1 body: every field Apple requires, each its undeclared value, with `changes` applied.
    static func v1(_ changes: [String: Any?] = [:]) throws -> String {
        try body(["customerConsented": true, "consumptionStatus": 0, "platform": 0, "sampleContentProvided": false,
                  "deliveryStatus": 0, "appAccountToken": "", "accountTenure": 0, "playTime": 0, "lifetimeDollarsRefunded": 0,
                  "lifetimeDollarsPurchased": 0, "userStatus": 0], changes)
    }

    private static func body(_ fields: [String: Any], _ changes: [String: Any?]) throws -> String {
        var fields = fields
        for (key, value) in changes { fields[key] = value }
        return String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
    }

    func put(_ version: Int, _ id: UInt64, _ body: String) throws -> ServerAPIResponse {
        try base.put("/inApps/v\(version)/transactions/consumption/\(id)", body)
    }

    /// Apple answers 400 (4000035, InvalidCustomerConsentedError) to any customerConsented but true; the local
    /// store accepted false with 202.
    @Test func consentOtherThanTrueIsRefused() throws {
        let coins = try store.buyProduct(Self.coins)
        #expect(try put(2, coins.id, try Self.v2()).status == 202)
        #expect(try put(1, coins.id, try Self.v1()).status == 202)
        for consent: Any? in [false, nil, "true", 1, NSNull()] {
            try base.expectError(try put(2, coins.id, try Self.v2(["customerConsented": consent])), 400, 4000035)
            try base.expectError(try put(1, coins.id, try Self.v1(["customerConsented": consent])), 400, 4000035)
        }
    }

    /// ConsumptionRequest: deliveryStatus one of Apple's five (4000036), sampleContentProvided a Boolean (4000041),
    /// refundPreference one of three (4000044), consumptionPercentage 0…100000 and 0 unless DELIVERED.
    @Test func version2FieldsAndRanges() throws {
        let coins = try store.buyProduct(Self.coins)
        for (changes, code) in [
            (["deliveryStatus": nil], 4000036), (["deliveryStatus": "delivered"], 4000036), (["deliveryStatus": 0], 4000036),
            (["sampleContentProvided": nil], 4000041), (["sampleContentProvided": "no"], 4000041),
            (["refundPreference": "GRANT"], 4000044), (["refundPreference": 1], 4000044),
            (["consumptionPercentage": -1], 4000000), (["consumptionPercentage": 100_001], 4000000),
            (["consumptionPercentage": 1e30], 4000000), (["consumptionPercentage": "50"], 4000000),
            (["deliveryStatus": "UNDELIVERED_OTHER", "consumptionPercentage": 1], 4000000),
        ] as [([String: Any?], Int)] {
            try base.expectError(try put(2, coins.id, try Self.v2(changes)), 400, code)
        }
        for changes in [
            ["consumptionPercentage": 0], ["consumptionPercentage": 100_000], ["consumptionPercentage": 67_932],
            ["deliveryStatus": "UNDELIVERED_SERVER_OUTAGE", "consumptionPercentage": 0], ["refundPreference": "GRANT_PRORATED"],
            ["refundPreference": "DECLINE", "deliveryStatus": "UNDELIVERED_QUALITY_ISSUE"], ["consumptionPercentage": nil, "unknownField": 1],
        ] as [[String: Any?]] {
            #expect(try put(2, coins.id, try Self.v2(changes)).status == 202, "\(changes)")
        }
    }

    /// ConsumptionRequestV1: every field but refundPreference required, each within Apple's values.
    @Test func version1FieldsAndRanges() throws {
        let coins = try store.buyProduct(Self.coins)
        let fields: [(name: String, top: Int, code: Int)] = [
            ("consumptionStatus", 3, 4000034), ("platform", 2, 4000039), ("deliveryStatus", 5, 4000036), ("accountTenure", 7, 4000032),
            ("playTime", 7, 4000040), ("lifetimeDollarsRefunded", 7, 4000038), ("lifetimeDollarsPurchased", 7, 4000037),
            ("userStatus", 4, 4000042),
        ]
        for field in fields {
            #expect(try put(1, coins.id, try Self.v1([field.name: field.top])).status == 202, "\(field.name)")
            for bad: Any? in [field.top + 1, -1, nil, "1", 1.5, Int64.max] {
                try base.expectError(try put(1, coins.id, try Self.v1([field.name: bad])), 400, field.code)
            }
        }
        try base.expectError(try put(1, coins.id, try Self.v1(["sampleContentProvided": nil])), 400, 4000041)
        for token: Any? in [nil, "not-a-uuid", UUID().uuidString + "0", 7] {
            try base.expectError(try put(1, coins.id, try Self.v1(["appAccountToken": token])), 400, 4000033)
        }
        #expect(try put(1, coins.id, try Self.v1(["appAccountToken": UUID().uuidString.lowercased()])).status == 202)
        #expect(try put(1, coins.id, try Self.v1(["refundPreference": 3])).status == 202)
        try base.expectError(try put(1, coins.id, try Self.v1(["refundPreference": 4])), 400, 4000044)
    }

    /// What depends on the transaction: no Family Sharing transaction; v1 takes a consumable or an auto-renewable
    /// subscription only (4000047); v2 any type, without a percentage for an auto-renewable subscription (4000209).
    /// The body is checked first, whether or not the id exists; an unknown id is 404, the app transaction id 4000048.
    @Test func whatTheTransactionAllows() throws {
        let coins = try store.buyProduct(Self.coins)
        let pass = try store.buyProduct(Self.seasonPass)
        let gold = try store.buyProduct(Self.gold)
        let shared = try store.buyFamilySharedProduct(Self.pro)
        #expect(try put(2, pass.id, try Self.v2(["consumptionPercentage": 500])).status == 202)
        try base.expectError(try put(1, pass.id, try Self.v1()), 400, 4000047)
        #expect(try put(1, gold.id, try Self.v1()).status == 202)
        #expect(try put(2, gold.id, try Self.v2(["refundPreference": "GRANT_PRORATED"])).status == 202)
        try base.expectError(try put(2, gold.id, try Self.v2(["consumptionPercentage": 0])), 400, 4000209)
        try base.expectError(try put(2, shared.id, try Self.v2()), 400, 4000185)
        try base.expectError(try put(1, shared.id, try Self.v1()), 400, 4000185)

        try base.expectError(try put(2, 999, try Self.v2()), 404, 4040010)
        try base.expectError(try put(2, 999, try Self.v2(["customerConsented": false])), 400, 4000035)
        try base.expectError(try base.put("/inApps/v2/transactions/consumption/x", try Self.v2()), 400, 4000006)
        for malformed in ["[1]", "{", "", "null", String(repeating: " ", count: 70_000)] {
            try base.expectError(try put(2, coins.id, malformed), 400, 4000000)
        }
        let appTransactionID = try #require(try store.signAppTransaction().appTransactionID)
        try base.expectError(try base.put("/inApps/v2/transactions/consumption/\(appTransactionID)", try Self.v2()), 400, 4000048)
        #expect(try base.get("/inApps/v2/transactions/consumption/\(coins.id)").status == 405)
    }
}
