import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPServerAPI
import IOSiAPVerification

/// Row 9: `iosiap-store serve`'s Get Transaction History (v2, paged) over loopback HTTP, on a 10,000-transaction
/// history, while a game on the same state directory keeps buying; each side against itself alone, in this run.
enum ServerAPILoadBenchmarks {
    struct Run {
        /// History pages answered per second, and each page's latency in seconds, sorted.
        var pagesPerSecond: Double
        var latencies: [Double]
        /// Purchases per second of the game meanwhile (0 when it did not buy).
        var purchasesPerSecond: Double

        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
    }

    /// The three phases over one history of `historySize` transactions: pages alone, the game buying alone, both at
    /// once; `seconds` each in all, taken in rounds of one second or less that alternate the phases, so that a
    /// shared machine's load falls on all three alike.
    static func run(historySize: Int, seconds: Double, catalog: URL) async throws -> (pages: Run, purchases: Run, both: Run) {
        let folder = try StorageBenchmarks.populatedState(historySize, signedLength: 3700)
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = try StateDirectory(folder)
        let key = try PrivateKey()
        let pem = "-----BEGIN PRIVATE KEY-----\n\(Data(key.pkcs8).base64EncodedString(options: .lineLength64Characters))\n-----END PRIVATE KEY-----\n"
        try ServerAPIKeys.add(keyID: "BENCH", issuerID: "bench", pem: pem, to: state)
        // The server's store, as `serve` opens it: its own connection to the state directory.
        let served = try LocalStore(catalog: Catalog.load(contentsOf: catalog), stateDirectory: state)
        let api = ServerAPI(bundleID: served.bundleID, environment: served.environment,
                            keys: { () throws(StoreError) in try ServerAPIKeys.load(from: state) },
                            transactions: { () throws(StoreError) in
                                try served.history().map(ServerAPITransaction.init)
                            }, extensions: served, pages: served)
        let server = try ServerAPIHTTPServer(port: 0, handler: api.handle)
        defer { server.stop() }
        let token = try bearerToken(key, bundleID: served.bundleID)

        let local = try LocalStore(catalog: Catalog.load(contentsOf: catalog), stateDirectory: state)
        let game = try PurchaseStore(backend: local, stateDirectory: state)
        defer { game.close() }
        try await CryptoBenchmarks.waitForTerminal(game, try game.requestProducts(["com.iosiap.example.coins_100"]))

        let rounds = max(1, Int(seconds.rounded(.up)))
        let slice = seconds / Double(rounds)
        var pages: [Run] = []
        var purchases: [Run] = []
        var both: [Run] = []
        for _ in 0..<rounds {
            pages.append(try await readPages(port: server.port, token: token, seconds: slice))
            purchases.append(try await buy(game, seconds: slice))
            async let reading = readPages(port: server.port, token: token, seconds: slice)
            let buying = try await buy(game, seconds: slice)
            var together = try await reading
            together.purchasesPerSecond = buying.purchasesPerSecond
            both.append(together)
        }
        return (combined(pages), combined(purchases), combined(both))
    }

    /// Rounds of equal length as one run.
    static func combined(_ runs: [Run]) -> Run {
        Run(pagesPerSecond: runs.map(\.pagesPerSecond).reduce(0, +) / Double(runs.count),
            latencies: runs.flatMap(\.latencies).sorted(),
            purchasesPerSecond: runs.map(\.purchasesPerSecond).reduce(0, +) / Double(runs.count))
    }

    /// Pages through the history as a backend does (v2, 20 a page, following `revision`), from the first page
    /// again once it reaches the end, for `seconds`, over one kept-alive connection.
    static func readPages(port: UInt16, token: String, seconds: Double) async throws -> Run {
        try await Task.detached {
            let client = try LoopbackClient(port: port)
            var latencies: [Double] = []
            var revision: String?
            let start = ContinuousClock.now
            while (ContinuousClock.now - start).timeInterval < seconds {
                let path = "/inApps/v2/history/1" + (revision.map { "?revision=\($0)" } ?? "")
                let began = ContinuousClock.now
                let body = try client.get(path, authorization: token)
                latencies.append((ContinuousClock.now - began).timeInterval)
                guard let page = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
                      (page["signedTransactions"] as? [String])?.count ?? 0 > 0 else {
                    throw StoreError(.systemError, "no history page: \(String(decoding: body.prefix(200), as: UTF8.self))")
                }
                revision = page["hasMore"] as? Bool == true ? page["revision"] as? String : nil
            }
            let elapsed = (ContinuousClock.now - start).timeInterval
            return Run(pagesPerSecond: Double(latencies.count) / elapsed, latencies: latencies.sorted(), purchasesPerSecond: 0)
        }.value
    }

    /// The game buys and finishes consumables for `seconds`.
    static func buy(_ game: PurchaseStore, seconds: Double) async throws -> Run {
        var count = 0
        let start = ContinuousClock.now
        while (ContinuousClock.now - start).timeInterval < seconds {
            let events = try await CryptoBenchmarks.waitForTerminal(game, try game.requestPayment(productID: "com.iosiap.example.coins_100"))
            guard case .purchased(_, let transaction) = events.last else { throw StoreError(.systemError, "purchase failed") }
            try game.finish(transactionID: transaction.id)
            count += 1
        }
        return Run(pagesPerSecond: 0, latencies: [], purchasesPerSecond: Double(count) / (ContinuousClock.now - start).timeInterval)
    }

    /// A bearer token as Apple's libraries make one (ES256, kid, iss, aud, bid, exp).
    static func bearerToken(_ key: PrivateKey, bundleID: String) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "kid": "BENCH", "typ": "JWT"])
        let claims = try JSONSerialization.data(withJSONObject: ["iss": "bench", "aud": "appstoreconnect-v1", "bid": bundleID,
                                                                 "iat": now, "exp": now + 3000])
        let input = Base64URL.encode(Array(header)) + "." + Base64URL.encode(Array(claims))
        return "Bearer " + input + "." + Base64URL.encode(try key.signES256(Array(input.utf8)))
    }
}

/// A minimal HTTP/1.1 client over one kept-alive loopback connection: enough for a benchmark's GETs, and no
/// client library's own cost in the figures.
final class LoopbackClient {
    private let socket: Int32
    private var buffer: [UInt8] = []

    init(port: UInt16) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard socket >= 0, connected == 0 else { throw StoreError(.systemError, "cannot connect to 127.0.0.1:\(port)") }
    }

    deinit { close(socket) }

    /// GETs `path` and returns the body of a 200 answer.
    func get(_ path: String, authorization: String) throws -> [UInt8] {
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: \(authorization)\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, 0) }) == request.count else {
            throw StoreError(.systemError, "send failed")
        }
        let end = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        while headerEnd == nil {
            headerEnd = buffer.indices.dropLast(3).first { buffer[$0..<$0 + 4].elementsEqual(end) }
            if headerEnd == nil { try receive() }
        }
        let head = String(decoding: buffer[..<headerEnd!], as: UTF8.self)
        guard head.hasPrefix("HTTP/1.1 200"),
              let lengthLine = head.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
              let length = Int(lengthLine.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) else {
            throw StoreError(.systemError, "unexpected answer: \(head.prefix(200))")
        }
        let bodyStart = headerEnd! + 4
        while buffer.count < bodyStart + length { try receive() }
        let body = Array(buffer[bodyStart..<bodyStart + length])
        buffer.removeFirst(bodyStart + length)
        return body
    }

    private func receive() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw StoreError(.systemError, "connection closed") }
        buffer.append(contentsOf: chunk[..<count])
    }
}
