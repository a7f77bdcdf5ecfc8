import Foundation
import IOSiAPCore
import IOSiAPLocalStore
@testable import IOSiAPServerAPI
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// What a client is refused with: every refused bearer token gets the same 401, which names no key id (why goes
/// to the server's log only), and a request naming another host is refused before its token is looked at, on
/// every path.
@Suite struct ServerAPIRefusalTests {
    let base: ServerAPITests

    init() throws {
        base = try ServerAPITests()
    }

    func token(kid: String = "KEY1", signer: PrivateKey? = nil, _ changes: (inout [String: Any]) -> Void = { _ in }) throws -> String {
        try base.credentials.token(kid: kid, signer: signer, changes)
    }

    /// An unknown kid, a known kid with another key's signature, a token of another app, an expired one, none: one
    /// answer, byte for byte, that names no key; the reasons differ in the log.
    @Test func everyRefusalIsAnsweredAlike() throws {
        _ = try base.store.buyProduct(ServerAPITests.coins)
        let logged = Locked<[String]>([])
        let api = ServerAPICredentials.api(over: base.store, in: try base.folder.state,
                                           refusals: { reason in logged.withLock { $0.append(reason) } })
        let stranger = try PrivateKey()
        let refused: [String?] = [
            try token(kid: "NO-SUCH-KEY"), try token(signer: stranger), try token { $0["bid"] = "com.other.game" },
            try token { $0["exp"] = Int(Date().timeIntervalSince1970) - 600 }, nil, "Bearer not.a.jwt",
        ]
        let answers = refused.map { authorization in
            api.handle(ServerAPIRequest(method: "GET", path: "/inApps/v1/transactions/1", authorization: authorization))
        }
        #expect(answers.allSatisfy { $0 == ServerAPI.unauthenticated }, "\(answers.map { String(decoding: $0.body, as: UTF8.self) })")
        #expect(answers.first?.status == 401)
        #expect(!answers.contains { String(decoding: $0.body, as: UTF8.self).contains("KEY1") })
        // Also where the path does not exist: nothing is learnt of paths either.
        #expect(api.handle(ServerAPIRequest(method: "GET", path: "/nope", authorization: try token(kid: "NO-SUCH-KEY")))
            == ServerAPI.unauthenticated)
        let reasons = logged.withLock { $0 }
        #expect(reasons.count == refused.count + 1)
        #expect(Set(reasons).count == refused.count)  // the log tells them apart
        #expect(reasons[1].contains("KEY1"))
    }

    /// Apple's Python client sends no iat: its tokens are taken.
    @Test func aTokenWithoutIatIsTaken() throws {
        _ = try base.store.buyProduct(ServerAPITests.coins)
        #expect(try base.get("/inApps/v1/transactions/1", authorization: try token { $0["iat"] = nil }).status == 200)
    }

    /// With allowed hosts (as `iosiap-store serve` runs it), a request whose Host names another site, or none, is
    /// refused (421) before its token is looked at, whatever the path; loopback's names, with a port or not, pass.
    @Test func theHostIsCheckedOnEveryPath() throws {
        _ = try base.store.buyProduct(ServerAPITests.coins)
        let logged = Locked(0)
        let api = ServerAPICredentials.api(over: base.store, in: try base.folder.state,
                                           allowedHosts: ServerAPI.hostNames(listeningOn: "127.0.0.1"),
                                           refusals: { _ in logged.withLock { $0 += 1 } })
        func get(_ path: String, host: String?, authorization: String? = nil) throws -> ServerAPIResponse {
            api.handle(ServerAPIRequest(method: "GET", path: path, authorization: try authorization ?? token(),
                                        headers: host.map { ["host": $0] } ?? [:]))
        }
        for host in ["127.0.0.1", "127.0.0.1:8080", "localhost:1", "LOCALHOST", "[::1]:80"] {
            #expect(try get("/inApps/v1/transactions/1", host: host).status == 200, "\(host)")
        }
        for host in [nil, "", "evil.example", "evil.example:8080", "127.0.0.1.evil.example", "127.0.0.1:x", "[::1", "localhost:"] {
            for path in ["/inApps/v1/transactions/1", "/inApps/v1/transactions/appTransactions/1", "/nope"] {
                #expect(try get(path, host: host).status == 421, "\(host ?? "nil") \(path)")
                #expect(try get(path, host: host, authorization: try token(kid: "NO-SUCH-KEY")).status == 421)
            }
        }
        #expect(logged.withLock { $0 } == 0)  // no token was looked at
        let listening = ServerAPICredentials.api(over: base.store, in: try base.folder.state,
                                                 allowedHosts: ServerAPI.hostNames(listeningOn: "192.168.1.20"))
        let request = { (host: String) throws in
            listening.handle(ServerAPIRequest(method: "GET", path: "/inApps/v1/transactions/1", authorization: try token(),
                                              headers: ["host": host]))
        }
        #expect(try request("192.168.1.20:9000").status == 200)
        #expect(try request("192.168.1.21:9000").status == 421)
    }

    @Test func hostNames() {
        #expect(ServerAPI.hostName("LocalHost:80") == "localhost")
        #expect(ServerAPI.hostName("[::1]:443") == "[::1]")
        #expect(ServerAPI.hostName("10.0.0.1") == "10.0.0.1")
        for bad in [nil, "", ":80", "[::1]x", "a:b", "a:", String(repeating: "a", count: 2000)] as [String?] {
            #expect(ServerAPI.hostName(bad) == nil, "\(bad ?? "nil")")
        }
    }
}
