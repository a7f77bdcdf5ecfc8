import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPServerAPI
import IOSiAPTestSupport
@testable import IOSiAPTransactionManager
import Testing

/// The transaction manager's page handler over a real local store, without sockets or a browser: its token,
/// host and origin checks, form parsing, bad input, and that its controls are the command line's.
@Suite struct TransactionManagerPageTests {
    let folder = TemporaryDirectory()
    let store: LocalStore
    let page: TransactionManagerPage
    static let coins = "com.iosiap.example.coins_100"
    static let gold = "com.iosiap.example.club_gold_monthly"
    static let token = String(repeating: "ab", count: 32)

    init() throws {
        store = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: try folder.state)
        page = TransactionManagerPage(store: store, token: Self.token)
    }

    func request(_ method: String, _ path: String, form: String? = nil, query: [(String, String?)] = [],
                 headers: [String: String] = ["host": "127.0.0.1:8080", "x-iosiap-token": token]) -> ServerAPIResponse {
        var headers = headers
        if form != nil, headers["content-type"] == nil { headers["content-type"] = "application/x-www-form-urlencoded;charset=UTF-8" }
        return page.handle(ServerAPIRequest(method: method, path: path, query: query.map { .init($0.0, $0.1) }, authorization: nil,
                                            body: Array((form ?? "").utf8), headers: headers))
    }

    func json(_ response: ServerAPIResponse) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    /// The page and its files are served to anyone who reaches the port (with `serve --listen`, anyone on the
    /// network): none of them may carry the token, which only the URL `serve` prints holds (after `#`, which
    /// browsers never send).
    @Test func thePageLeavesItsTokenOutAndEscapesTheBundleID() throws {
        let other = TemporaryDirectory()
        let hostile = TransactionManagerPage(store: try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog),
                                                                  stateDirectory: try other.state, bundleID: "<script>x</script>"),
                                             token: Self.token)
        let response = hostile.handle(ServerAPIRequest(method: "GET", path: "/", authorization: nil, headers: ["host": "localhost:1"]))
        let html = String(decoding: response.body, as: UTF8.self)
        #expect(response.status == 200)
        #expect(!html.contains(Self.token))
        for file in ["/app.js", "/app.css"] {
            let served = hostile.handle(ServerAPIRequest(method: "GET", path: file, authorization: nil, headers: ["host": "localhost:1"]))
            #expect(served.status == 200)
            #expect(!String(decoding: served.body, as: UTF8.self).contains(Self.token))
        }
        #expect(!html.contains("<script>x"))
        #expect(html.contains("&lt;script&gt;x&lt;/script&gt;"))
        #expect(response.headers["Content-Security-Policy"]?.contains("script-src 'self'") == true)
        #expect(response.headers["X-Frame-Options"] == "DENY")
    }

    @Test func theAddressToOpenCarriesTheTokenAfterTheFragmentMark() {
        #expect(page.address(host: "127.0.0.1", port: 8080) == "http://127.0.0.1:8080/#token=\(Self.token)")
    }

    @Test func stateListsTransactionsNewestFirstWithTheirState() throws {
        let first = try store.buyProduct(Self.coins, quantity: 2)
        let second = try store.buyProduct(Self.gold)
        try store.refund(transactionID: first.id)
        let response = request("GET", "/api/state")
        #expect(response.status == 200)
        let transactions = try #require(try json(response)["transactions"] as? [[String: Any]])
        #expect(transactions.map { $0["id"] as? Int } == [Int(second.id), Int(first.id)])
        #expect(transactions.map { $0["state"] as? String } == ["active", "refunded"])
        let products = try #require(try json(response)["products"] as? [[String: Any]])
        #expect(products.contains { $0["title"] as? String == "100 Coins" && $0["price"] as? String == "$0.99" })
    }

    @Test func aControlDoesWhatTheCommandDoes() throws {
        let bought = try store.buyProduct(Self.coins)
        let response = request("POST", "/api/control/refund", form: "transactionId=\(bought.id)&reason=issue")
        #expect(response.status == 200)
        #expect(try json(response)["message"] as? String == "refunded transaction \(bought.id)")
        let refunded = try #require(try store.history().first?.transaction)
        #expect(refunded.revocationReason == .refundedDueToIssue)
        // The same control from the command line's arguments.
        let control = try #require(StoreControl.named("buy"))
        #expect(try control.run(store, arguments: [Self.coins, "3"]).message.hasPrefix("bought \(Self.coins) x3"))
        #expect(throws: ControlInputError("unexpected 'more'")) { try control.run(store, arguments: [Self.coins, "3", "more"]) }
        #expect(throws: ControlInputError("QUANTITY is empty")) { try control.run(store, arguments: [Self.coins, ""]) }
        // The command line's refund takes "other" when no reason is given, as its usage line says; a form must choose.
        let second = try store.buyProduct(Self.coins)
        #expect(try #require(StoreControl.named("refund")).run(store, arguments: ["\(second.id)"]).message == "refunded transaction \(second.id)")
        #expect(try store.history().first { $0.transaction.id == second.id }?.transaction.revocationReason == .refundedForOtherReason)
    }

    /// An ended period renews nothing: the page (and `iosiap-store transactions`) said "renews yes" for an expired
    /// subscription whose chain still had auto-renew on (issue 35, item 8). The page asks for no favicon.
    @Test func anExpiredSubscriptionRenewsNothingOnThePage() throws {
        let gold = "com.iosiap.example.club_gold_monthly"
        _ = try store.buyProduct(gold)
        try store.forceRenewal(productID: gold)  // the first period ends now, the renewal runs
        let transactions = try #require(try json(request("GET", "/api/state"))["transactions"] as? [[String: Any]])
        let golds = transactions.filter { $0["productId"] as? String == gold }
        #expect(golds.map { $0["state"] as? String } == ["active", "expired"])
        #expect(golds.map { $0["renews"] as? String } == ["yes", "no"])
        let page = String(decoding: request("GET", "/").body, as: UTF8.self)
        #expect(page.contains("<link rel=\"icon\" href=\"data:,\">"))
    }

    @Test func familySharingIsPlayedFromThePageAsFromTheCommandLine() throws {
        let pro = "com.iosiap.example.pro_upgrade"
        let snapshot = try json(request("GET", "/api/state"))
        let products = try #require(snapshot["products"] as? [[String: Any]])
        #expect(products.first { $0["id"] as? String == pro }?["familyShareable"] as? Bool == true)
        #expect(products.first { $0["id"] as? String == Self.coins }?["familyShareable"] as? Bool == false)
        #expect(request("POST", "/api/control/buy", form: "product=\(Self.coins)&family=on").status == 409)  // not shareable
        let response = request("POST", "/api/control/buy", form: "product=\(pro)&family=on")
        #expect(response.status == 200)
        let shared = try #require(try store.history().last?.transaction)
        #expect(shared.ownershipType == .familyShared && shared.productID == pro)
        #expect(try json(response)["message"] as? String == "a family member bought \(pro) and shares it: transaction \(shared.id)")
        #expect(request("POST", "/api/control/stop-family-sharing", form: "transactionId=\(shared.id)").status == 200)
        #expect(try store.history().last?.transaction.isRevoked == true)
        // The command line's switch is the form's field.
        let control = try #require(StoreControl.named("buy"))
        #expect(try control.run(store, arguments: ["--family", pro]).message.hasPrefix("a family member bought \(pro)"))
        #expect(throws: ControlInputError("unknown option '--friends'")) { try control.run(store, arguments: ["--friends", pro]) }
        #expect(throws: ControlInputError("unknown option '--'")) { try control.run(store, arguments: ["--", pro]) }  // not PRODUCT
        #expect(throws: ControlInputError("a family member shares one: no QUANTITY with --family")) {
            try control.run(store, arguments: ["--family", pro, "2"])
        }
    }

    @Test func theOriginalAppVersionIsSetFromThePageAsFromTheCommandLine() throws {
        let response = request("POST", "/api/control/app-version", form: "original=1.2&current=3.0")
        #expect(response.status == 200)
        let app = try store.signAppTransaction()
        #expect(app.originalAppVersion == "1.2")
        #expect(app.appVersion == "3.0")
        #expect(request("POST", "/api/control/app-version", form: "current=4.0").status == 400)
        #expect(try store.signAppTransaction().appVersion == "3.0")
        #expect(try StoreControl.named("app-version")?.run(store, arguments: ["2.0"]).message == "original app version 2.0")
        #expect(try store.signAppTransaction().originalAppVersion == "2.0")
    }

    @Test func anAppStoreMessageIsRaisedFromThePageAsFromTheCommandLine() throws {
        let response = request("POST", "/api/control/message", form: "kind=billing-issue&product=\(Self.gold)")
        #expect(response.status == 200)
        #expect(try json(response)["message"] as? String == "billing-issue message 1 about \(Self.gold) sent")
        #expect(try store.messages().map(\.reason) == [.billingIssue])
        #expect(request("POST", "/api/control/message", form: "kind=teleport&product=\(Self.gold)").status == 400)
        #expect(request("POST", "/api/control/message", form: "kind=billing-issue&product=\(Self.coins)").status == 409)
        #expect(try StoreControl.named("message")?.run(store, arguments: ["win-back", Self.gold]).message
                == "win-back message 2 about \(Self.gold) sent")
        #expect(try store.messages().map(\.reason) == [.billingIssue, .winBackOffer])
    }

    /// The control QA and the lifecycle simulation extend a subscription with: Apple's rules refuse with a reason,
    /// and an extension moves the end of the newest transaction, which the store signs again.
    @Test func aSubscriptionIsExtendedFromTheCommandLineAsThroughTheServerAPI() throws {
        let extend = try #require(StoreControl.named("extend"))
        let trial = try store.buyProduct(Self.gold)
        #expect(throws: StoreError(.wrongState, "not extended: subscription \(trial.originalID) is in a free trial")) {
            try extend.run(store, arguments: ["\(trial.originalID)", "3"])
        }
        try store.forceRenewal(productID: Self.gold)
        let paid = try #require(try store.allTransactions().last)
        let end = try #require(paid.expirationDate)
        #expect(throws: StoreError.self) { try extend.run(store, arguments: ["\(paid.originalID)", "91"]) }
        #expect(throws: ControlInputError.self) { try extend.run(store, arguments: ["\(paid.originalID)", "three"]) }
        let result = try extend.run(store, arguments: ["\(paid.originalID)", "3"])
        #expect(result.transactionID == paid.id)
        let extended = try #require(try store.allTransactions().last)
        #expect(extended.expirationDate == end.addingTimeInterval(3 * 86_400))
        #expect(extended.signedJWS != paid.signedJWS)
        #expect(try extend.run(store, arguments: ["\(paid.originalID)", "1"]).transactionID == paid.id)
        #expect(throws: StoreError(.wrongState, "\(paid.originalID) was extended twice within a year already")) {
            try extend.run(store, arguments: ["\(paid.originalID)", "1"])
        }
    }

    @Test func badInputIsAMessageAndChangesNothing() throws {
        let bought = try store.buyProduct(Self.coins)
        let cases: [(String, String, Int, String)] = [
            ("refund", "transactionId=one", 400, "refund: transaction id must be a number, not 'one'"),
            ("refund", "transactionId=\(bought.id)&reason=bored", 400, "refund: reason must be issue or other"),
            // The page makes the tester choose a reason; a form without one is refused, never taken as "other".
            ("refund", "transactionId=\(bought.id)", 400, "refund: missing reason (issue or other)"),
            ("approve-refund", "transactionId=\(bought.id)&reason=", 400, "approve-refund: missing reason (issue or other)"),
            ("refund", "", 400, "refund: missing transaction id"),
            ("refund", "transactionId=999&reason=other", 409, ""),
            ("buy", "product=\(Self.coins)&quantity=lots", 400, "buy: quantity must be a number, not 'lots'"),
            ("buy", "product=\(Self.coins)&quantity=11", 400, "buy: quantity must be 1 to 10 (StoreKit's limit), not 11"),
            ("ask-to-buy", "value=maybe", 400, "ask-to-buy: expected on or off, not 'maybe'"),
            ("time-rate", "value=7", 400, ""),
            ("storefront", "value=XYZ", 409, ""),
            ("error", "action=set&api=teleport&error=-104", 400,
             "error: unknown API 'teleport'; known: " + StoreControl.apiNames.keys.sorted().joined(separator: ", ")),
            ("refund", "transactionId=%zz", 400, "the form is not valid URL encoding"),
            ("refund", "transactionId=%ff", 400, "the form is not valid UTF-8"),
            ("refund", "transactionId=1&transactionId=2", 400, "the form gives 'transactionId' twice"),
            ("redeem-code", "product=\(Self.gold)", 400, "redeem-code: missing offer"),
            ("redeem-code", "product=\(Self.gold)&offer=no_such_code", 409, ""),
            ("teleport", "", 404, "no control 'teleport'"),
        ]
        for (control, form, status, message) in cases {
            let response = request("POST", "/api/control/\(control)", form: form)
            #expect(response.status == status, "\(control) \(form)")
            let answer = try json(response)
            #expect(answer["ok"] as? Bool == false)
            let text = try #require(answer["message"] as? String)
            #expect(message.isEmpty ? !text.isEmpty : text == message, "\(control) \(form): \(text)")
        }
        #expect(try store.history().map(\.transaction) == [bought])
        #expect(try store.currentSettings().storefront.code == "USA")
    }

    @Test func tokenHostAndOriginAreChecked() throws {
        let bought = try store.buyProduct(Self.coins)
        let refund = "transactionId=\(bought.id)&reason=other"
        // No token, a wrong one, one of another length: refused, for reading as for changing.
        for headers in [["host": "127.0.0.1"], ["host": "127.0.0.1", "x-iosiap-token": String(repeating: "ab", count: 31) + "ac"],
                        ["host": "127.0.0.1", "x-iosiap-token": "ab"]] {
            #expect(request("GET", "/api/state", headers: headers).status == 403)
            #expect(request("POST", "/api/control/refund", form: refund, headers: headers).status == 403)
        }
        #expect(request("GET", "/api/state", headers: ["host": "localhost"]).status == 403)
        // Another site's page: its Origin or Sec-Fetch-Site gives it away, even with the token.
        let token = ["host": "127.0.0.1:8080", "x-iosiap-token": Self.token]
        #expect(request("POST", "/api/control/refund", form: refund,
                        headers: token.merging(["origin": "http://evil.example"]) { $1 }).status == 403)
        #expect(request("POST", "/api/control/refund", form: refund,
                        headers: token.merging(["sec-fetch-site": "cross-site"]) { $1 }).status == 403)
        // DNS rebinding: a name that is not loopback's, even on the right port.
        for host in ["evil.example:8080", "127.0.0.1.evil.example", "localhost:80x", "127.0.0.1:", "[::2]:8080", "[::1", "192.168.1.5", ""] {
            #expect(request("GET", "/", headers: ["host": host]).status == 421, "\(host)")
        }
        #expect(request("GET", "/", headers: [:]).status == 421)
        #expect(try store.history().allSatisfy { !$0.transaction.isRevoked })
        // The right origin and the token in the form: done.
        let allowed = request("POST", "/api/control/refund", form: refund + "&token=\(Self.token)",
                              headers: ["host": "[::1]:8080", "origin": "http://[::1]:8080", "sec-fetch-site": "same-origin"])
        #expect(allowed.status == 200)
        // A control is a form POST, nothing else.
        #expect(request("GET", "/api/control/clear").status == 405)
        #expect(request("POST", "/api/control/clear", form: "", headers: token.merging(["content-type": "text/plain"]) { $1 }).status == 415)
    }

    @Test func aListenAddressIsAcceptedBesideLoopback() throws {
        let listening = TransactionManagerPage(store: store, token: Self.token, listenAddress: "192.168.1.5")
        for (host, status) in [("192.168.1.5:8080", 200), ("LOCALHOST", 200), ("192.168.1.6:8080", 421), ("192.168.1.5.evil.example", 421)] {
            #expect(listening.handle(ServerAPIRequest(method: "GET", path: "/", authorization: nil, headers: ["host": host])).status == status,
                    "\(host)")
        }
    }

    @Test func thePageCannotReachTheServerAPIAndTheServerAPIIgnoresThePageToken() throws {
        let bought = try store.buyProduct(Self.coins)
        let api = ServerAPI(bundleID: store.bundleID, environment: store.environment, keys: { [] },
                            transactions: { () throws(StoreError) in [] })
        let route = TransactionManagerPage.route(api: api, page: page)
        let headers = ["host": "127.0.0.1", "x-iosiap-token": Self.token]
        // The Server API's paths answer only to its bearer tokens, whatever else comes along.
        let inApps = route(ServerAPIRequest(method: "GET", path: "/inApps/v1/transactions/\(bought.id)", authorization: nil, headers: headers))
        #expect(inApps.status == 401)
        // The page's paths never lead into the Server API.
        #expect(route(ServerAPIRequest(method: "GET", path: "/api/inApps/v1/transactions/1", authorization: nil, headers: headers)).status == 404)
        #expect(route(ServerAPIRequest(method: "GET", path: "/", authorization: nil, headers: headers)).status == 200)
    }

    @Test func payloadIsTheDecodedSignedTransaction() throws {
        let bought = try store.buyProduct(Self.gold)
        let response = request("GET", "/api/payload", query: [("transactionId", String(bought.id))])
        #expect(response.status == 200)
        let transaction = try #require(try json(response)["transaction"] as? [String: Any])
        #expect(transaction["productId"] as? String == Self.gold)
        #expect(try json(response)["renewalInfo"] is [String: Any])
        #expect(request("GET", "/api/payload", query: [("transactionId", "x")]).status == 400)
        #expect(request("GET", "/api/payload", query: [("transactionId", "1"), ("transactionId", "2")]).status == 400)
        #expect(request("GET", "/api/payload", query: [("transactionId", "999")]).status == 404)
    }
}
