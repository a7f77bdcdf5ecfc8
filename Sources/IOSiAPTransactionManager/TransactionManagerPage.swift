import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPServerAPI
import IOSiAPSignedData

/// The transaction manager in the browser: the page, its state as JSON and its controls, over one local store.
/// No sockets: `handle` takes a request and returns the response (`ServerAPIHTTPServer` carries them).
///
/// Its own safety, apart from the Server API's bearer tokens (`route` keeps the two apart):
/// - every request must name a loopback host (`Host`) or the address the server was told to listen on, so a
///   page of another site whose name resolves to 127.0.0.1 (DNS rebinding) is refused;
/// - everything but the page's static files needs the per-run token (`X-IOSiAP-Token`, or a `token` form
///   field), so other sites the tester has open can neither read the state nor change it. The files never
///   carry it: only the address `serve` prints does, after `#` (`address(host:port:)`), which browsers do not
///   send; the page's script takes it from there. So a client that merely reaches the port (`serve --listen`
///   on a network address) gets the page but cannot use it;
/// - a control is a POST whose `Origin`, when sent, is this server's own, and whose `Sec-Fetch-Site`, when
///   sent, is same-origin;
/// - bad input is a 400 with a message for the page, checked before the store is touched.
public final class TransactionManagerPage: Sendable {
    private let store: LocalStore
    /// The per-run token of this page (hex; a fresh one each time the server starts).
    public let token: String
    private let now: @Sendable () -> Date
    /// The host names requests may name: loopback's, and the address `serve --listen` was given.
    private let hosts: Set<String>

    /// - Parameter listenAddress: the address the server listens on, when not loopback: requests naming it
    ///   are answered too.
    public init(store: LocalStore, token: String = TransactionManagerPage.randomToken(), listenAddress: String? = nil,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.token = token
        self.now = now
        hosts = Set(["127.0.0.1", "localhost", "[::1]"] + (listenAddress.map { [$0] } ?? []))
    }

    /// The address to open the page at: the token rides after `#`, which the browser keeps to itself.
    public func address(host: String, port: UInt16) -> String {
        "http://\(host):\(port)/#token=\(token)"
    }

    /// 32 random bytes from the system's secure generator, in hex.
    public static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }

    /// A handler for `ServerAPIHTTPServer` serving both: the Server API's paths (`/inApps/…`, bearer tokens,
    /// answered by `api` alone) and the page (everything else, its own token). Neither reaches the other.
    public static func route(api: ServerAPI, page: TransactionManagerPage) -> ServerAPIHTTPServer.Handler {
        { request in request.path.hasPrefix("/inApps/") ? api.handle(request) : page.handle(request) }
    }

    /// Answers one request of the page. Never throws and never traps on what a client sends.
    public func handle(_ request: ServerAPIRequest) -> ServerAPIResponse {
        guard let host = ServerAPI.hostName(request.headers["host"]), hosts.contains(host) else {
            return Self.text(421, "this server answers requests for \(hosts.sorted().joined(separator: ", ")) only")
        }
        switch (request.method, request.path) {
        case ("GET", "/"): return Self.respond(200, Array(PageResources.html(bundleID: store.bundleID).utf8),
                                               "text/html; charset=utf-8")
        case ("GET", "/app.js"): return Self.respond(200, Array(PageResources.script.utf8), "text/javascript; charset=utf-8")
        case ("GET", "/app.css"): return Self.respond(200, Array(PageResources.style.utf8), "text/css; charset=utf-8")
        case (_, "/"), (_, "/app.js"), (_, "/app.css"): return Self.text(405, "Method Not Allowed")
        default: break
        }
        guard request.path.hasPrefix("/api/") else { return Self.text(404, "Not Found") }
        let fields: [String: String]
        if request.method == "POST" {
            guard request.headers["content-type"]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else {
                return Self.message(415, "a control is sent as a form (application/x-www-form-urlencoded)")
            }
            do {
                fields = try FormBody.parse(request.body)
            } catch {
                return Self.message(400, error.message)
            }
        } else {
            fields = [:]
        }
        guard Self.constantTimeEqual(request.headers["x-iosiap-token"] ?? fields["token"], token) else {
            return Self.message(403, "missing or wrong page token: open the address iosiap-store serve printed, which carries it after #token= "
                + "(a restarted server prints a new one)")
        }
        switch (request.method, request.path) {
        case ("GET", "/api/state"):
            return state()
        case ("GET", "/api/payload"):
            return payload(request.values("transactionId"))
        case ("POST", let path) where path.hasPrefix("/api/control/"):
            guard sameOrigin(request) else { return Self.message(403, "cross-site requests are refused") }
            return control(String(path.dropFirst("/api/control/".count)), fields)
        case (_, "/api/state"), (_, "/api/payload"):
            return Self.message(405, "Method Not Allowed")
        case (_, let path) where path.hasPrefix("/api/control/"):
            return Self.message(405, "Method Not Allowed")
        default:
            return Self.message(404, "Not Found")
        }
    }

    private func state() -> ServerAPIResponse {
        do {
            return Self.json(200, try StoreSnapshot(store, at: now()))
        } catch {
            return Self.message(500, "cannot read the state directory: \(error.message)")
        }
    }

    /// The decoded payloads of a transaction's signed transaction and renewal info, as the store signed them.
    private func payload(_ ids: [String?]) -> ServerAPIResponse {
        guard ids.count == 1, let text = ids[0], let id = UInt64(text) else {
            return Self.message(400, "transactionId must be one transaction id")
        }
        let history: [LocalStore.HistoryEntry]
        do {
            history = try store.history()
        } catch {
            return Self.message(500, "cannot read the state directory: \(error.message)")
        }
        guard let transaction = history.first(where: { $0.transaction.id == id })?.transaction else {
            return Self.message(404, "no transaction \(id)")
        }
        func decoded(_ jws: String?) -> Any {
            guard let jws, let parsed = try? CompactJWS(jws),
                  let object = try? JSONSerialization.jsonObject(with: Data(parsed.payload)) else { return NSNull() }
            return object
        }
        let object: [String: Any] = ["transaction": decoded(transaction.signedJWS), "renewalInfo": decoded(transaction.signedRenewalInfo)]
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data("{}".utf8)
        return Self.respond(200, Array(body), "application/json")
    }

    private func control(_ name: String, _ fields: [String: String]) -> ServerAPIResponse {
        guard let control = StoreControl.named(name) else { return Self.message(404, "no control '\(name)'") }
        do {
            let result = try control.run(store, fields: fields)
            return Self.json(200, ControlAnswer(ok: true, message: result.message, transactionId: result.transactionID))
        } catch let error as ControlInputError {
            return Self.message(400, "\(name): \(error.message)")
        } catch let error as StoreError {
            return Self.message(409, "\(name): \(error.message)")
        } catch {
            return Self.message(500, "\(name): \(error)")
        }
    }

    /// Whether `Origin` and `Sec-Fetch-Site`, where the browser sent them, say the request comes from this page.
    private func sameOrigin(_ request: ServerAPIRequest) -> Bool {
        if let site = request.headers["sec-fetch-site"], site != "same-origin", site != "none" { return false }
        if let origin = request.headers["origin"], origin != "http://" + (request.headers["host"] ?? "") { return false }
        return true
    }

    /// Compares the token sent with ours in time that does not depend on where they differ.
    static func constantTimeEqual(_ sent: String?, _ expected: String) -> Bool {
        guard let sent else { return false }
        let (a, b) = (Array(sent.utf8), Array(expected.utf8))
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private struct ControlAnswer: Encodable {
        let ok: Bool
        let message: String
        let transactionId: UInt64?
    }

    private struct Failure: Encodable {
        var ok = false
        let message: String
    }

    /// Headers on every answer: no caching of state, no framing (clickjacking), no sniffing, scripts and
    /// styles from this server only.
    static let securityHeaders = [
        "Cache-Control": "no-store",
        "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
            + "form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer",
    ]

    private static func respond(_ status: Int, _ body: [UInt8], _ contentType: String) -> ServerAPIResponse {
        ServerAPIResponse(status: status, body: body, contentType: contentType, headers: securityHeaders)
    }

    private static func text(_ status: Int, _ text: String) -> ServerAPIResponse {
        respond(status, Array((text + "\n").utf8), "text/plain; charset=utf-8")
    }

    private static func message(_ status: Int, _ message: String) -> ServerAPIResponse {
        json(status, Failure(message: message))
    }

    private static func json(_ status: Int, _ value: some Encodable) -> ServerAPIResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Plain structs of strings, numbers and booleans: encoding cannot fail.
        return respond(status, (try? encoder.encode(value)).map(Array.init) ?? Array("{}".utf8), "application/json")
    }
}
