import Foundation
import IOSiAPCore
import IOSiAPLocalStore
@testable import IOSiAPServerAPI
import IOSiAPSignedData
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// The App Store Server API over a real local store in a temporary state directory, without sockets.
@Suite struct ServerAPITests {
    let folder = TemporaryDirectory()
    let credentials: ServerAPICredentials
    let store: LocalStore
    let api: ServerAPI
    static let coins = "com.iosiap.example.coins_100"
    static let gold = "com.iosiap.example.club_gold_monthly"
    static let bundleID = ServerAPICredentials.bundleID

    init() throws {
        let directory = try folder.state
        store = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: directory, bundleID: Self.bundleID)
        credentials = try ServerAPICredentials(addedTo: directory)
        api = ServerAPICredentials.api(over: store, in: directory, pages: store)
    }

    var key: PrivateKey { credentials.key }

    static func pem(_ key: PrivateKey) -> String { ServerAPICredentials.pem(key) }

    /// A bearer token as Apple's libraries make one, with `changes` applied to the claims.
    func token(kid: String = "KEY1", alg: String = "ES256", signer: PrivateKey? = nil,
               _ changes: (inout [String: Any]) -> Void = { _ in }) throws -> String {
        try credentials.token(kid: kid, alg: alg, signer: signer, changes)
    }

    func get(_ path: String, _ query: [(String, String?)] = [], authorization: String? = nil) throws -> ServerAPIResponse {
        api.handle(ServerAPIRequest(method: "GET", path: path, query: query.map { .init($0.0, $0.1) },
                                    authorization: try authorization ?? token()))
    }

    func json(_ response: ServerAPIResponse) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    func expectError(_ response: ServerAPIResponse, _ status: Int, _ code: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.contentType == "application/json", sourceLocation: sourceLocation)
        #expect(try json(response)["errorCode"] as? Int == code, sourceLocation: sourceLocation)
    }

    @Test func transactionInfoIsWhatTheStoreSigned() throws {
        let bought = try store.buyProduct(Self.coins)
        let response = try get("/inApps/v1/transactions/\(bought.id)")
        #expect(response.status == 200)
        let signed = try #require(try json(response)["signedTransactionInfo"] as? String)
        #expect(signed == bought.signedJWS)
        let payload = try store.makeVerifier().verifyTransaction(signed)
        #expect(payload.productId == Self.coins)
        #expect(payload.transactionId == String(bought.id))
    }

    @Test func unknownAndMalformedTransactionIDs() throws {
        _ = try store.buyProduct(Self.coins)
        let notFound = try get("/inApps/v1/transactions/42")
        try expectError(notFound, 404, 4040010)
        #expect(try json(notFound)["errorMessage"] as? String == "Transaction id not found.")
        for bad in ["abc", "-1", "1.5", "99999999999999999999999", "1%20", "%00", "１"] {
            try expectError(try get("/inApps/v1/transactions/\(bad)"), 400, 4000006)
        }
        try expectError(try get("/inApps/v2/history/x"), 400, 4000006)
        try expectError(try get("/inApps/v1/subscriptions/x"), 400, 4000006)
        try expectError(try get("/inApps/v2/refund/lookup/x"), 400, 4000006)
        try expectError(try get("/inApps/v2/history/42"), 404, 4040010)
    }

    @Test func routing() throws {
        _ = try store.buyProduct(Self.coins)
        for path in ["/", "", "/inApps", "/inApps/v1/transactions", "/inApps/v1/transactions/1/x", "/inApps/v3/history/1",
                     "/inApps/v2/refund/1", "inApps/v1/transactions/1", "/inApps/v1/transactions//"] {
            #expect(try get(path).status == 404, "\(path)")
        }
        let post = api.handle(ServerAPIRequest(method: "POST", path: "/inApps/v1/transactions/1", authorization: try token()))
        #expect(post.status == 405)
    }

    @Test func bearerTokens() throws {
        _ = try store.buyProduct(Self.coins)
        #expect(try get("/inApps/v1/transactions/1").status == 200)
        let stranger = try PrivateKey()
        let refused: [String?] = [
            nil, "", "Bearer", "Basic abc", "Bearer not.a.jwt", "Bearer " + String(repeating: "a", count: 20_000),
            try token(kid: "OTHER"), try token(alg: "HS256"), try token(signer: stranger),
            try token { $0["aud"] = "someone-else" }, try token { $0["aud"] = ["appstoreconnect-v1"] },
            try token { $0["bid"] = "com.other.game" }, try token { $0["iss"] = "issuer-2" },
            try token { $0["exp"] = Int(Date().timeIntervalSince1970) - 120 },
            try token { $0["exp"] = Int(Date().timeIntervalSince1970) + 7200; $0["iat"] = nil },
            try token { $0["exp"] = "soon" }, try token { $0["exp"] = nil },
            try token { $0["iat"] = Int(Date().timeIntervalSince1970) + 600 },
        ]
        for authorization in refused {
            let response = api.handle(ServerAPIRequest(method: "GET", path: "/inApps/v1/transactions/1", authorization: authorization))
            #expect(response.status == 401, "\(authorization?.prefix(60) ?? "nil")")
        }
        // Apple's Python library sends no iat; its lowercase scheme is accepted too.
        #expect(try get("/inApps/v1/transactions/1", authorization: try token { $0["iat"] = nil }).status == 200)
        // Unauthenticated requests learn nothing of the paths.
        #expect(api.handle(ServerAPIRequest(method: "GET", path: "/nope", authorization: nil)).status == 401)
    }

    @Test func historyPagesFiltersAndSorts() throws {
        for _ in 0..<23 { _ = try store.buyProduct(Self.coins) }
        let gold = try store.buyProduct(Self.gold)
        _ = try store.refund(transactionID: 3)

        let first = try json(try get("/inApps/v2/history/1"))
        #expect(first["hasMore"] as? Bool == true)
        #expect(first["bundleId"] as? String == Self.bundleID)
        #expect(first["environment"] as? String == store.environment.rawValue)
        let firstPage = try #require(first["signedTransactions"] as? [String])
        #expect(firstPage.count == 20)
        let verifier = try store.makeVerifier()
        // Ascending by the date each last changed: the refunded transaction 3 comes last.
        let ids = try firstPage.map { try verifier.verifyTransaction($0).transactionId }
        #expect(!ids.contains("3"))
        let revision = try #require(first["revision"] as? String)
        let second = try json(try get("/inApps/v2/history/1", [("revision", revision)]))
        #expect(second["hasMore"] as? Bool == false)
        let secondIDs = try (second["signedTransactions"] as? [String] ?? []).map { try verifier.verifyTransaction($0).transactionId }
        #expect(secondIDs.count == 4)
        #expect(secondIDs.last == "3")
        #expect(Set(ids + secondIDs).count == 24)

        let subscriptions = try json(try get("/inApps/v2/history/1", [("productType", "AUTO_RENEWABLE")]))
        #expect((subscriptions["signedTransactions"] as? [String])?.count == 1)
        let byProduct = try json(try get("/inApps/v2/history/1", [("productId", Self.gold), ("productId", "other")]))
        #expect(try (byProduct["signedTransactions"] as? [String] ?? []).map { try verifier.verifyTransaction($0).transactionId } == [String(gold.id)])
        let revoked = try json(try get("/inApps/v2/history/1", [("revoked", "True")]))
        #expect(try (revoked["signedTransactions"] as? [String] ?? []).map { try verifier.verifyTransaction($0).transactionId } == ["3"])
        let descending = try json(try get("/inApps/v2/history/1", [("sort", "DESCENDING")]))
        #expect(try (descending["signedTransactions"] as? [String] ?? []).first.map { try verifier.verifyTransaction($0).transactionId } == "3")
        let future = try json(try get("/inApps/v2/history/1", [("startDate", String(Int64(Date().timeIntervalSince1970 * 1000) + 3_600_000))]))
        #expect((future["signedTransactions"] as? [String])?.isEmpty == true)
        #expect(future["hasMore"] as? Bool == false)
    }

    @Test func historyRefusesMalformedParameters() throws {
        _ = try store.buyProduct(Self.coins)
        let cases: [((String, String?), Int)] = [
            (("sort", "UP"), 4000021), (("sort", nil), 4000021), (("productType", "GAME"), 4000022), (("productId", ""), 4000023),
            (("revoked", "yes"), 4000030), (("startDate", "yesterday"), 4000015), (("startDate", "-5"), 4000015),
            (("endDate", "99999999999999999999"), 4000016), (("revision", "not-ours"), 4000005), (("revision", "dj"), 4000005),
            (("inAppOwnershipType", "STOLEN"), 4000026), (("subscriptionGroupIdentifier", ""), 4000024),
        ]
        for (argument, code) in cases {
            try expectError(try get("/inApps/v2/history/1", [argument]), 400, code)
        }
        try expectError(try get("/inApps/v2/history/1", [("startDate", "2000"), ("endDate", "1000")]), 400, 4000013)
        try expectError(try get("/inApps/v2/refund/lookup/1", [("revision", "%%%")]), 400, 4000005)
    }

    @Test func historyV1LeavesOutFinishedConsumables() async throws {
        let coins = try store.buyProduct(Self.coins)
        let gold = try store.buyProduct(Self.gold)
        #expect((try json(try get("/inApps/v1/history/1"))["signedTransactions"] as? [String])?.count == 2)
        try await store.finish(transactionID: coins.id)
        try await store.finish(transactionID: gold.id)
        #expect((try json(try get("/inApps/v1/history/1"))["signedTransactions"] as? [String])?.count == 1)
        #expect((try json(try get("/inApps/v2/history/1"))["signedTransactions"] as? [String])?.count == 2)
    }

    @Test func subscriptionStatusesAndRefunds() throws {
        let coins = try store.buyProduct(Self.coins)
        let gold = try store.buyProduct(Self.gold)
        var response = try json(try get("/inApps/v1/subscriptions/\(coins.id)"))
        var groups = try #require(response["data"] as? [[String: Any]])
        #expect(groups.count == 1)
        var last = try #require((groups.first?["lastTransactions"] as? [[String: Any]])?.first)
        #expect(last["status"] as? Int == 1)
        #expect(last["originalTransactionId"] as? String == String(gold.originalID))
        let renewal = try store.makeVerifier().verifyRenewalInfo(try #require(last["signedRenewalInfo"] as? String))
        #expect(renewal.productId == Self.gold)
        #expect(groups.first?["subscriptionGroupIdentifier"] as? String == gold.subscriptionGroupID)

        #expect((try json(try get("/inApps/v1/subscriptions/1", [("status", "2")]))["data"] as? [Any])?.isEmpty == true)
        try expectError(try get("/inApps/v1/subscriptions/1", [("status", "9")]), 400, 4000031)

        #expect((try json(try get("/inApps/v2/refund/lookup/1"))["signedTransactions"] as? [String])?.isEmpty == true)
        _ = try store.refund(transactionID: gold.id)
        response = try json(try get("/inApps/v1/subscriptions/\(coins.id)"))
        groups = try #require(response["data"] as? [[String: Any]])
        last = try #require((groups.first?["lastTransactions"] as? [[String: Any]])?.first)
        #expect(last["status"] as? Int == 5)
        let refunds = try json(try get("/inApps/v2/refund/lookup/\(coins.id)"))
        let signed = try #require(refunds["signedTransactions"] as? [String])
        #expect(try signed.map { try store.makeVerifier().verifyTransaction($0).transactionId } == [String(gold.id)])
        #expect(refunds["hasMore"] as? Bool == false)
    }

    /// Get App Transaction Info and Send Consumption Information: AppTransactionInfoTests.swift and
    /// ConsumptionRequestsTests.swift.
    @Test func lookUpOrderID() throws {
        _ = try store.buyProduct(Self.coins)
        let order = try json(try get("/inApps/v1/lookup/MK5TTTVWJH"))
        #expect(order["status"] as? Int == 1)
        #expect((order["signedTransactions"] as? [String])?.isEmpty == true)
        try expectError(try get("/inApps/v1/lookup/" + String(repeating: "A", count: 65)), 400, 4000000)
    }

    @Test func testNotifications() async throws {
        _ = try store.buyProduct(Self.coins)
        func post() throws -> ServerAPIResponse {
            api.handle(ServerAPIRequest(method: "POST", path: "/inApps/v1/notifications/test", authorization: try token()))
        }
        // No sender, or no URL set: Apple's ServerNotificationURLNotFoundError.
        try expectError(try post(), 404, 4040007)
        try expectError(try get("/inApps/v1/notifications/test/abc"), 404, 4040008)
        let directory = try folder.state
        let notifications = ServerNotifications(store: store)
        // The sender sends TEST once (no retries), as Apple's sandbox does.
        try store.startNotificationSender(retryDelays: [], timeout: 2, interval: .milliseconds(20))
        defer { store.stopNotificationSender() }
        let store = self.store
        let withSender = ServerAPI(bundleID: Self.bundleID, environment: store.environment,
                                   keys: { () throws(StoreError) in try ServerAPIKeys.load(from: directory) },
                                   transactions: { () throws(StoreError) in
                                       try store.history().map(ServerAPITransaction.init)
                                   }, notifications: notifications)
        let request = ServerAPIRequest(method: "POST", path: "/inApps/v1/notifications/test", authorization: try token())
        try expectError(withSender.handle(request), 404, 4040007)
        #expect(throws: StoreError.self) { try store.setNotificationURL("ftp://example.com") }
        // Port 1 on loopback: nothing listens, the attempt fails and says so.
        try store.setNotificationURL("http://127.0.0.1:1/notifications")
        // The history's window is taken around the notification, not around the wait: a busy machine may resume
        // this test long after the sender recorded its attempt.
        let before = Int64(Date().timeIntervalSince1970 * 1000) - 1
        let sent = withSender.handle(request)
        #expect(sent.status == 200)
        let notificationToken = try #require(try json(sent)["testNotificationToken"] as? String)
        var attempts: [[String: Any]] = []
        try await waitUntil {
            let status = withSender.handle(ServerAPIRequest(method: "GET", path: "/inApps/v1/notifications/test/\(notificationToken)",
                                                            authorization: try token()))
            attempts = try json(status)["sendAttempts"] as? [[String: Any]] ?? []
            let payload = try #require(try json(status)["signedPayload"] as? String)
            #expect(try CompactJWS(payload).header.x5c?.count == 3)
            return !attempts.isEmpty
        }
        #expect(attempts.first?["sendAttemptResult"] as? String == "NO_RESPONSE")
        try expectError(withSender.handle(ServerAPIRequest(method: "GET", path: "/inApps/v1/notifications/test/not-a-token",
                                                           authorization: try token())), 400, 4000020)

        // Get Notification History: the TEST notification, never delivered.
        func history(_ body: String, _ query: [ServerAPIRequest.QueryItem] = []) throws -> ServerAPIResponse {
            withSender.handle(ServerAPIRequest(method: "POST", path: "/inApps/v1/notifications/history", query: query,
                                               authorization: try token(), body: Array(body.utf8)))
        }
        let after = Int64(Date().timeIntervalSince1970 * 1000) + 1
        let all = try json(try history(#"{"startDate":\#(before),"endDate":\#(after)}"#))
        #expect((all["notificationHistory"] as? [[String: Any]])?.count == 1)
        #expect(all["hasMore"] as? Bool == false)
        let failures = try json(try history(#"{"startDate":\#(before),"endDate":\#(after),"onlyFailures":true}"#))
        #expect((failures["notificationHistory"] as? [[String: Any]])?.count == 1)
        let refunds = try json(try history(#"{"startDate":\#(before),"endDate":\#(after),"notificationType":"REFUND"}"#))
        #expect((refunds["notificationHistory"] as? [[String: Any]])?.isEmpty == true)
        let strangers = try json(try history(#"{"startDate":\#(before),"endDate":\#(after),"transactionId":"77"}"#))
        #expect((strangers["notificationHistory"] as? [[String: Any]])?.isEmpty == true)
        try expectError(try history(#"{"endDate":1}"#), 400, 4000015)
        try expectError(try history(#"{"startDate":1}"#), 400, 4000016)
        try expectError(try history(#"{"startDate":5,"endDate":1}"#), 400, 4000013)
        try expectError(try history(#"{"startDate":1,"endDate":5,"notificationType":"NOPE"}"#), 400, 4000018)
        try expectError(try history(#"{"startDate":1,"endDate":5,"notificationType":"TEST","onlyFailures":true}"#), 400, 4000019)
        try expectError(try history(#"{"startDate":"1","endDate":5}"#), 400, 4000000)
        try expectError(try history("", ), 400, 4000000)
        try expectError(try history(#"{"startDate":1,"endDate":5}"#, [.init("paginationToken", "garbage!")]), 400, 4000014)
    }

    func put(_ path: String, _ body: String) throws -> ServerAPIResponse {
        api.handle(ServerAPIRequest(method: "PUT", path: path, authorization: try token(), body: Array(body.utf8)))
    }

    static func extensionBody(_ days: Any, _ reason: Any = 1, _ id: Any = "a1b2", more: [String: Any] = [:]) throws -> String {
        let fields = ["extendByDays": days, "extendReasonCode": reason, "requestIdentifier": id].merging(more) { $1 }
        return String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
    }

    @Test func extendRenewalDate() throws {
        let coins = try store.buyProduct(Self.coins)
        let trial = try store.buyProduct(Self.gold)
        let path = "/inApps/v1/subscriptions/extend/\(trial.originalID)"
        func body(_ days: Any, _ reason: Any, _ id: Any) throws -> String { try Self.extensionBody(days, reason, id) }
        // Apple's ranges and error codes (Extend a Subscription Renewal Date; ExtendRenewalDateRequest).
        try expectError(try put(path, try body(0, 1, "a1b2")), 400, 4000009)
        try expectError(try put(path, try body(91, 1, "a1b2")), 400, 4000009)
        try expectError(try put(path, try body("7", 1, "a1b2")), 400, 4000009)
        try expectError(try put(path, try body(1.5, 1, "a1b2")), 400, 4000009)
        try expectError(try put(path, try body(Int64.max, 1, "a1b2")), 400, 4000009)
        try expectError(try put(path, try body(7, 4, "a1b2")), 400, 4000010)
        try expectError(try put(path, try body(7, -1, "a1b2")), 400, 4000010)
        try expectError(try put(path, try body(7, 1, "")), 400, 4000011)
        try expectError(try put(path, try body(7, 1, 12)), 400, 4000011)
        try expectError(try put(path, try body(7, 1, String(repeating: "x", count: 129))), 400, 4000011)
        // Counted in Unicode scalars: one character of a thousand combining marks is no short identifier.
        try expectError(try put(path, try body(7, 1, "e" + String(repeating: "\u{301}", count: 1000))), 400, 4000011)
        try expectError(try put(path, "garbage"), 400, 4000000)
        try expectError(try put("/inApps/v1/subscriptions/extend/12x", try body(7, 1, "a1b2")), 400, 4000008)
        try expectError(try put("/inApps/v1/subscriptions/extend/999", try body(7, 1, "a1b2")), 404, 4040005)
        // A one-time purchase is no subscription to extend; a free trial cannot be extended either.
        try expectError(try put("/inApps/v1/subscriptions/extend/\(coins.id)", try body(7, 1, "a1b2")), 403, 4030004)
        try expectError(try put(path, try body(7, 1, "a1b2")), 403, 4030004)
        #expect(try get(path).status == 405)

        try store.forceRenewal(productID: Self.gold)
        let gold = try #require(try store.allTransactions().last)
        let before = try #require(gold.expirationDate)
        let response = try put(path, try body(7, 1, "a1b2"))
        #expect(response.status == 200)
        let answer = try json(response)
        #expect(answer["success"] as? Bool == true)
        #expect(answer["originalTransactionId"] as? String == String(gold.originalID))
        #expect(answer["webOrderLineItemId"] as? String == String(gold.id))
        let effective = try #require(answer["effectiveDate"] as? Int64)
        let later = before.addingTimeInterval(7 * 86_400)
        #expect(abs(Double(effective) - later.timeIntervalSince1970 * 1000) < 1)
        // The store re-signed the transaction: the server's answers carry the new end.
        func signedEnd() throws -> Int64? {
            let statuses = try json(try get("/inApps/v1/subscriptions/\(gold.id)"))
            let last = try #require(((statuses["data"] as? [[String: Any]])?.first?["lastTransactions"] as? [[String: Any]])?.first)
            let signed = try #require(last["signedTransactionInfo"] as? String)
            return try store.makeVerifier().verifyTransaction(signed).expiresDate.map { Int64($0.value) }
        }
        #expect(try signedEnd() == effective)

        // The same request again (another day count even) answers the first result and extends nothing more.
        let repeated = try json(try put(path, try body(30, 1, "a1b2")))
        #expect(repeated["effectiveDate"] as? Int64 == effective && repeated["success"] as? Bool == true)
        #expect(try signedEnd() == effective)
        // A second extension within 365 days is allowed, a third is not (Apple's SubscriptionMaxExtensionError).
        let second = try #require(try json(try put(path, try body(3, 2, "c3d4")))["effectiveDate"] as? Int64)
        #expect(second == effective + 3 * 86_400_000)
        try expectError(try put(path, try body(3, 2, "e5f6")), 403, 4030005)
        #expect(try signedEnd() == second)
        #expect(try json(try put(path, try body(7, 1, "a1b2")))["effectiveDate"] as? Int64 == effective)

        // An ended subscription cannot be extended.
        try store.expireSubscription(productID: Self.gold)
        try expectError(try put(path, try body(7, 1, "g7h8")), 403, 4030004)
    }

    func post(_ path: String, _ body: String) throws -> ServerAPIResponse {
        api.handle(ServerAPIRequest(method: "POST", path: path, authorization: try token(), body: Array(body.utf8)))
    }

    @Test func extendEveryActiveSubscriber() throws {
        let mass = "/inApps/v1/subscriptions/extend/mass"
        func body(_ days: Any = 5, _ reason: Any = 3, _ id: Any, product: Any = Self.gold, storefronts: Any? = nil) throws -> String {
            var more: [String: Any] = ["productId": product]
            if let storefronts { more["storefrontCountryCodes"] = storefronts }
            return try Self.extensionBody(days, reason, id, more: more)
        }
        func status(_ product: String, _ id: String) throws -> ServerAPIResponse {
            try get("/inApps/v1/subscriptions/extend/mass/\(product)/\(id)")
        }
        let (m0, m1, m2) = (UUID().uuidString.lowercased(), UUID().uuidString.lowercased(), UUID().uuidString.lowercased())
        try expectError(try post(mass, try body(0, 3, m1)), 400, 4000009)
        try expectError(try post(mass, try body(5, 7, m1)), 400, 4000010)
        try expectError(try post(mass, try body(5, 3, "not-a-uuid")), 400, 4000011)
        try expectError(try post(mass, try body(5, 3, m1, storefronts: [String]())), 400, 4000027)
        try expectError(try post(mass, try body(5, 3, m1, storefronts: ["usa"])), 400, 4000028)
        try expectError(try post(mass, try body(5, 3, m1, storefronts: "USA")), 400, 4000028)
        try expectError(try post(mass, try body(5, 3, m1, product: "")), 400, 4000023)
        try expectError(try post(mass, try body(5, 3, m1, product: Self.coins)), 400, 4000023)
        try expectError(try post(mass, "[]"), 400, 4000000)
        #expect(try put(mass, try body(5, 3, m1)).status == 405)
        #expect(try get(mass).status == 405)

        // A subscriber in a free trial fails.
        _ = try store.buyProduct(Self.gold)
        #expect(try json(try post(mass, try body(5, 3, m0)))["requestIdentifier"] as? String == m0)
        let trial = try json(try status(Self.gold, m0))
        #expect(trial["complete"] as? Bool == true && trial["succeededCount"] as? Int == 0 && trial["failedCount"] as? Int == 1)

        try store.forceRenewal(productID: Self.gold)
        let gold = try #require(try store.allTransactions().last)
        #expect(try post(mass, try body(5, 3, m1, storefronts: ["CAN"])).status == 200)
        let elsewhere = try json(try status(Self.gold, m1))
        #expect(elsewhere["succeededCount"] as? Int == 0 && elsewhere["failedCount"] as? Int == 0)
        let answer = try post(mass, try body(5, 3, m2, storefronts: ["USA"]))
        #expect(answer.status == 200)
        #expect(try json(answer)["requestIdentifier"] as? String == m2)
        let done = try json(try status(Self.gold, m2))
        #expect(done["requestIdentifier"] as? String == m2 && done["complete"] as? Bool == true)
        #expect(done["succeededCount"] as? Int == 1 && done["failedCount"] as? Int == 0)
        let completed = try #require(done["completeDate"] as? Int64)
        #expect(abs(Double(completed) - Date().timeIntervalSince1970 * 1000) < 60_000)
        // Asked again, in capitals too (a UUID's case means nothing): the same request, not a second extension.
        #expect(try post(mass, try body(5, 3, m2)).status == 200)
        #expect(try post(mass, try body(5, 3, m2.uppercased())).status == 200)
        #expect(try json(try status(Self.gold, m2.uppercased()))["succeededCount"] as? Int == 1)
        let extended = try #require(try store.allTransactions().last)
        #expect(extended.id == gold.id && extended.expirationDate == gold.expirationDate.map { $0 + 5 * 86_400 })
        // Its status is found by its product and identifier only.
        try expectError(try status(Self.silver, m2), 404, 4040009)
        try expectError(try status(Self.gold, UUID().uuidString), 404, 4040009)
        try expectError(try status(Self.gold, "nope"), 400, 4000011)
        try expectError(try post(mass, try body(5, 3, m2, product: Self.silver)), 400, 4000011)
    }

    /// The history read a page at a time from the store (what `serve` does) answers exactly as the whole history
    /// read at each request: every filter, both sorts, both versions, page after page, revision tokens included.
    @Test func pagedHistoryAnswersAsTheWholeHistoryDoes() async throws {
        let directory = try folder.state
        let store = self.store
        let whole = ServerAPI(bundleID: Self.bundleID, environment: store.environment,
                              keys: { () throws(StoreError) in try ServerAPIKeys.load(from: directory) },
                              transactions: { () throws(StoreError) in
                                  try store.history().map(ServerAPITransaction.init)
                              })
        // A family member's purchase shared with the user first: FAMILY_SHARED, which SQLite does not filter by.
        let shared = try store.buyFamilySharedProduct("com.iosiap.example.pro_upgrade")
        for index in 0..<45 {
            let bought = try store.buyProduct([Self.coins, Self.gold, "com.iosiap.example.pro_upgrade", Self.silver][index % 4])
            if index % 3 == 0 { try await store.finish(transactionID: bought.id) }
            if index % 7 == 0 { _ = try? store.refund(transactionID: bought.id) }
            if index == 20 { _ = try? store.stopFamilySharing(transactionID: shared.id) }
        }
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let queries: [[(String, String?)]] = [
            [], [("sort", "DESCENDING")], [("revoked", "true")], [("revoked", "false"), ("sort", "DESCENDING")],
            [("productType", "CONSUMABLE"), ("productType", "AUTO_RENEWABLE")], [("productId", Self.gold)],
            [("subscriptionGroupIdentifier", "5E1A7C01")], [("inAppOwnershipType", "FAMILY_SHARED")],
            [("inAppOwnershipType", "PURCHASED"), ("startDate", String(now - 60_000)), ("endDate", String(now + 60_000))],
            [("startDate", String(now + 60_000))],
        ]
        for version in [1, 2] {
            for query in queries {
                var revision: String?
                var pages = 0
                repeat {
                    let asked = query + (revision.map { [("revision", $0)] } ?? [])
                    let request = ServerAPIRequest(method: "GET", path: "/inApps/v\(version)/history/1",
                                                   query: asked.map { .init($0.0, $0.1) }, authorization: try token())
                    let paged = api.handle(request)
                    #expect(paged == whole.handle(request), "v\(version) \(asked)")
                    let body = try json(paged)
                    revision = body["hasMore"] as? Bool == true ? body["revision"] as? String : nil
                    pages += 1
                } while revision != nil && pages < 10
            }
        }
        #expect(try get("/inApps/v1/transactions/99").status == 404)
        #expect(api.handle(ServerAPIRequest(method: "GET", path: "/inApps/v1/transactions/7", authorization: try token()))
                == whole.handle(ServerAPIRequest(method: "GET", path: "/inApps/v1/transactions/7", authorization: try token())))
    }

    @Test func changesBecomeNotifications() throws {
        var detector = StoreChangeDetector()
        func look(at now: Date = Date()) throws -> [String] {
            try detector.changes(in: store.allTransactions(), at: now).map { "\($0.type)/\($0.subtype ?? "")/\($0.transaction.id)" }.sorted()
        }
        _ = try store.buyProduct(Self.coins)
        #expect(try look() == [])  // the first look is the baseline
        let gold = try store.buyProduct(Self.gold)
        _ = try store.buyProduct(Self.coins)
        #expect(try look() == ["ONE_TIME_CHARGE//3", "SUBSCRIBED/INITIAL_BUY/\(gold.id)"])
        try store.setAutoRenew(productID: Self.gold, enabled: false)
        #expect(try look() == ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED/\(gold.id)"])
        try store.setAutoRenew(productID: Self.gold, enabled: true)
        try store.forceRenewal(productID: Self.gold)
        let renewed = try look()
        #expect(renewed == ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED/4", "DID_RENEW//4"], "\(renewed)")
        _ = try store.refund(transactionID: 1)
        try store.expireSubscription(productID: Self.gold)
        let ended = try look()
        // The store's expire control turns auto-renew off as it ends the subscription: both are told.
        #expect(ended == ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED/4", "EXPIRED/VOLUNTARY/4", "REFUND//1"], "\(ended)")
        #expect(try look() == [])
        _ = try store.buyProduct(Self.gold)
        #expect(try look() == ["SUBSCRIBED/RESUBSCRIBE/5"])
        try store.extendRenewalDate(originalTransactionID: 5, days: 3)
        #expect(try look() == ["RENEWAL_EXTENDED//5"])
        // A renewal that fails to charge, in a grace period; then the user fixes the payment.
        try store.setBillingIssuesEnabled(true)
        try store.setBillingGracePeriodEnabled(true)
        try store.forceRenewal(productID: Self.gold)
        let failed = try look()
        #expect(failed == ["DID_FAIL_TO_RENEW/GRACE_PERIOD/5"], "\(failed)")
        // The grace period (16 days) runs out while the store still retries: told once.
        let later = Date().addingTimeInterval(20 * 86_400)
        #expect(try look(at: later) == ["GRACE_PERIOD_EXPIRED//5"])
        #expect(try look(at: later) == [])
        try store.resolveBillingIssue(productID: Self.gold)
        let recovered = try look()
        #expect(recovered == ["DID_RENEW/BILLING_RECOVERY/6"], "\(recovered)")
    }

    static let silver = "com.iosiap.example.club_silver_monthly"

    @Test func upgradesDowngradesAndOffers() throws {
        var detector = StoreChangeDetector()
        func look(_ history: [StoreTransaction]? = nil) throws -> [String] {
            try detector.changes(in: history ?? store.allTransactions(), at: Date())
                .map { "\($0.type)/\($0.subtype ?? "")/\($0.transaction.id)" }.sorted()
        }
        #expect(try look() == [])
        let silver = try store.buyProduct(Self.silver)
        #expect(try look() == ["SUBSCRIBED/INITIAL_BUY/\(silver.id)"])
        // Gold is the group's higher level (groupNumber 1): an upgrade, effective now.
        let gold = try store.buyProduct(Self.gold)
        let upgraded = try look()
        #expect(upgraded == ["DID_CHANGE_RENEWAL_PREF/UPGRADE/\(gold.id)"], "\(upgraded)")
        // Silver again while gold is active: a downgrade, at gold's next renewal.
        _ = try store.buyProduct(Self.silver)
        let downgraded = try look()
        #expect(downgraded == ["DID_CHANGE_RENEWAL_PREF/DOWNGRADE/\(gold.id)"], "\(downgraded)")

        // The same upgrade bought with an offer code (offerType 3) is OFFER_REDEEMED (UPGRADE); a first
        // subscription with one is still SUBSCRIBED (Apple sends OFFER_REDEEMED to active subscribers only).
        let all = try store.allTransactions()
        var withCode = all.map { transaction in
            var changed = transaction
            if transaction.id == gold.id || transaction.id == silver.id { changed.offer = TransactionOffer(type: .offerCode, id: "SPRING") }
            // Gold's renewal info as signed now already holds the later downgrade: left out here.
            if transaction.id == gold.id { changed.signedRenewalInfo = nil }
            return changed
        }
        detector = StoreChangeDetector()
        #expect(try look([]) == [])
        withCode.removeAll { $0.id > gold.id }
        let redeemed = try look(withCode.filter { $0.id == silver.id })
        #expect(redeemed == ["SUBSCRIBED/INITIAL_BUY/\(silver.id)"], "\(redeemed)")
        let upgradedWithCode = try look(withCode)
        #expect(upgradedWithCode == ["OFFER_REDEEMED/UPGRADE/\(gold.id)"], "\(upgradedWithCode)")
    }

    /// EXPIRED's subtype is the expiration intent the store signs into the renewal info when billing retry
    /// gives up (2, BILLING_RETRY) or the product is no longer sold (4, PRODUCT_NOT_FOR_SALE); real time would
    /// take 60 days or a catalog change, so the renewal info is signed here by the store's chain.
    @Test func expirationsByIntent() throws {
        let gold = try store.buyProduct(Self.gold)
        let chain = try LocalStoreSigningChain.load(in: try folder.state)
        let plan = try CompactJWS.decodeUnverified(try #require(gold.signedRenewalInfo), as: RenewalInfoPayload.self)
        func signed(_ change: (inout RenewalInfoPayload) -> Void) throws -> StoreTransaction {
            var renewal = plan
            change(&renewal)
            var transaction = gold
            transaction.signedRenewalInfo = try chain.sign(json: renewal)
            return transaction
        }
        func look(_ detector: inout StoreChangeDetector, _ transaction: StoreTransaction) -> [String] {
            detector.changes(in: [transaction], at: Date()).map { "\($0.type)/\($0.subtype ?? "")" }
        }
        var retrying = StoreChangeDetector()
        _ = look(&retrying, gold)
        #expect(look(&retrying, try signed { $0.isInBillingRetryPeriod = true; $0.expirationIntent = 2 }) == ["DID_FAIL_TO_RENEW/"])
        #expect(look(&retrying, try signed { $0.isInBillingRetryPeriod = false; $0.expirationIntent = 2; $0.autoRenewStatus = 0 })
                == ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "EXPIRED/BILLING_RETRY"])
        var notForSale = StoreChangeDetector()
        _ = look(&notForSale, gold)
        #expect(look(&notForSale, try signed { $0.expirationIntent = 4 }) == ["EXPIRED/PRODUCT_NOT_FOR_SALE"])
    }

    @Test func keysAreCheckedWhenAdded() throws {
        let directory = try folder.state
        #expect(throws: StoreError.self) { try ServerAPIKeys.add(keyID: "K", issuerID: "I", pem: "garbage", to: directory) }
        #expect(throws: StoreError.self) { try ServerAPIKeys.add(keyID: "", issuerID: "I", pem: Self.pem(key), to: directory) }
        // The public half of the key, as `openssl ec -pubout` writes it, is accepted too.
        let publicPEM = "-----BEGIN PUBLIC KEY-----\n\(Data(key.publicKey.spki).base64EncodedString())\n-----END PUBLIC KEY-----\n"
        try ServerAPIKeys.add(keyID: "KEY2", issuerID: "issuer-1", pem: publicPEM, to: directory)
        #expect(try ServerAPIKeys.load(from: directory).map(\.keyID) == ["KEY1", "KEY2"])
        _ = try store.buyProduct(Self.coins)
        #expect(try get("/inApps/v1/transactions/1", authorization: try token(kid: "KEY2")).status == 200)
        #expect(try ServerAPIKeys.remove(keyID: "KEY2", from: directory))
        #expect(try get("/inApps/v1/transactions/1", authorization: try token(kid: "KEY2")).status == 401)
    }
}
