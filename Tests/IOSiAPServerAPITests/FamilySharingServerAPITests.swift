import Foundation
import IOSiAPCore
import IOSiAPLocalStore
@testable import IOSiAPServerAPI
import IOSiAPSignedData
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// A family-shared purchase as a game's server sees it: the Server API reads the history the game's store writes,
/// so its signed transactions say FAMILY_SHARED and the history's `inAppOwnershipType` filter finds them.
@Suite struct FamilySharingServerAPITests {
    let folder = TemporaryDirectory()
    let credentials: ServerAPICredentials
    let store: LocalStore
    let api: ServerAPI
    static let pro = "com.iosiap.example.pro_upgrade"

    init() throws {
        let directory = try folder.state
        store = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: directory,
                               bundleID: ServerAPICredentials.bundleID)
        credentials = try ServerAPICredentials(addedTo: directory)
        api = ServerAPICredentials.api(over: store, in: directory)
    }

    func get(_ path: String, _ query: [(String, String?)] = []) throws -> [String: Any] {
        let response = api.handle(ServerAPIRequest(method: "GET", path: path, query: query.map { .init($0.0, $0.1) },
                                                   authorization: try credentials.token()))
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        return try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    @Test func theServerAPISeesASharedPurchaseAsFamilyShared() throws {
        let own = try store.buyProduct("com.iosiap.example.coins_100")
        let shared = try store.buyFamilySharedProduct(Self.pro)
        let verifier = try store.makeVerifier()
        let info = try get("/inApps/v1/transactions/\(shared.id)")
        let payload = try verifier.verifyTransaction(try #require(info["signedTransactionInfo"] as? String))
        #expect(payload.inAppOwnershipType == "FAMILY_SHARED")
        func ids(_ ownership: String) throws -> [String] {
            let page = try get("/inApps/v2/history/\(own.id)", [("inAppOwnershipType", ownership)])
            return try (page["signedTransactions"] as? [String] ?? []).map { try verifier.verifyTransaction($0).transactionId ?? "" }
        }
        #expect(try ids("FAMILY_SHARED") == [String(shared.id)])
        #expect(try ids("PURCHASED") == [String(own.id)])
        // Once the sharing ends, the history shows it revoked.
        _ = try store.stopFamilySharing(transactionID: shared.id)
        let revoked = try get("/inApps/v2/history/\(own.id)", [("revoked", "true")])
        let revokedPayloads = try (revoked["signedTransactions"] as? [String] ?? []).map { try verifier.verifyTransaction($0) }
        #expect(revokedPayloads.map(\.transactionId) == [String(shared.id)])
        #expect(revokedPayloads.first?.revocationReason == 0 && revokedPayloads.first?.inAppOwnershipType == "FAMILY_SHARED")
    }

    @Test func theEndOfSharingIsNotifiedAsRevokeNotRefund() throws {
        var detector = StoreChangeDetector()
        func look() throws -> [String] {
            try detector.changes(in: store.allTransactions(), at: Date()).map { "\($0.type)/\($0.transaction.id)" }.sorted()
        }
        let own = try store.buyProduct(Self.pro)
        #expect(try look() == [])  // the first look is the baseline
        _ = try store.refund(transactionID: own.id)
        #expect(try look() == ["REFUND/\(own.id)"])
        let shared = try store.buyFamilySharedProduct(Self.pro)
        _ = try look()
        _ = try store.stopFamilySharing(transactionID: shared.id)
        #expect(try look() == ["REVOKE/\(shared.id)"])
        // Apple sends REVOKE too when the purchaser of a shared purchase is refunded.
        let again = try store.buyFamilySharedProduct(Self.pro)
        _ = try look()
        _ = try store.refund(transactionID: again.id)
        #expect(try look() == ["REVOKE/\(again.id)"])
    }

    /// Extend a Subscription Renewal Date answers a family member's subscription with Apple's 403 4030007.
    @Test func aFamilySharedSubscriptionIsNotExtendedDirectly() throws {
        let folder = TemporaryDirectory()
        var text = try String(contentsOf: Fixtures.exampleCatalog, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"familyShareable\" : false", with: "\"familyShareable\" : true")
        let shareable = try LocalStore(catalog: Catalog(data: Data(text.utf8), fileName: "Products.storekit"),
                                       stateDirectory: try folder.state, bundleID: ServerAPICredentials.bundleID)
        defer { shareable.close() }
        let gold = "com.iosiap.example.club_gold_monthly"
        let shared = try shareable.buyFamilySharedProduct(gold)
        try shareable.forceRenewal(productID: gold)
        let body = Array(#"{"extendByDays": 5, "extendReasonCode": 1, "requestIdentifier": "r1"}"#.utf8)
        let request = ServerAPIRequest(method: "PUT", path: "/inApps/v1/subscriptions/extend/\(shared.originalID)",
                                       authorization: nil, body: body)
        #expect(throws: ServerAPIError.familySharedSubscriptionExtensionIneligible) {
            _ = try RenewalExtensionRequests.extend(String(shared.originalID), request, by: shareable)
        }
    }
}
