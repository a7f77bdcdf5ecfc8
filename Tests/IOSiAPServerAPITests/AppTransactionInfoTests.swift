import Foundation
import IOSiAPCore
import IOSiAPLocalStore
@testable import IOSiAPServerAPI
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// Get App Transaction Info: the App Transaction the store signs (`iosiap-store app-transaction`), for any
/// transactionId, originalTransactionId or appTransactionId of the customer, as Apple's AppTransactionInfoResponse.
@Suite struct AppTransactionInfoTests {
    let base: ServerAPITests
    var store: LocalStore { base.store }

    init() throws {
        base = try ServerAPITests()
    }

    func signedAppTransaction(_ id: String) throws -> String {
        let response = try base.get("/inApps/v1/transactions/appTransactions/\(id)")
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        return try #require(try base.json(response)["signedAppTransactionInfo"] as? String)
    }

    @Test func anyIdOfTheCustomerGetsTheSignedAppTransaction() throws {
        _ = try store.buyProduct(ServerAPITests.coins)
        let gold = try store.buyProduct(ServerAPITests.gold)
        try store.forceRenewal(productID: ServerAPITests.gold)
        let renewal = try #require(try store.allTransactions().last)
        #expect(renewal.originalID == gold.id && renewal.id != gold.id)
        try store.setOriginalAppVersion("1.4", appVersion: "2.0")
        let expected = try store.signAppTransaction()
        let appTransactionID = try #require(expected.appTransactionID)
        let verifier = try store.makeVerifier()
        for id in ["1", String(renewal.id), String(renewal.originalID), appTransactionID] {
            let payload = try verifier.verifyAppTransaction(try signedAppTransaction(id))
            #expect(payload.appTransactionId == appTransactionID, "\(id)")
            #expect(payload.bundleId == ServerAPITests.bundleID && payload.receiptType == "Sandbox")
            #expect(payload.originalApplicationVersion == "1.4" && payload.applicationVersion == "2.0")
        }
    }

    /// An id that names neither a transaction nor the app transaction is Apple's 404 (4040010); one that cannot be an
    /// id is 400. Without an App Transaction to sign, a known customer gets Apple's 4040019.
    @Test func unknownIdsAndNoAppTransaction() throws {
        let coins = try store.buyProduct(ServerAPITests.coins)
        try base.expectError(try base.get("/inApps/v1/transactions/appTransactions/7"), 404, 4040010)
        try base.expectError(try base.get("/inApps/v1/transactions/appTransactions/x"), 400, 4000006)
        try base.expectError(try base.get("/inApps/v1/transactions/appTransactions/99999999999999999999"), 400, 4000006)
        let directory = try base.folder.state
        let store = self.store
        let without = ServerAPI(bundleID: ServerAPITests.bundleID, environment: store.environment,
                                keys: { () throws(StoreError) in try ServerAPIKeys.load(from: directory) },
                                transactions: { () throws(StoreError) in try store.history().map(ServerAPITransaction.init) })
        let request = { (id: String) throws in
            without.handle(ServerAPIRequest(method: "GET", path: "/inApps/v1/transactions/appTransactions/\(id)",
                                            authorization: try base.token()))
        }
        try base.expectError(try request(String(coins.id)), 404, 4040019)
        try base.expectError(try request("7"), 404, 4040010)
    }
}
