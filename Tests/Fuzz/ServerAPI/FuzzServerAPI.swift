// libFuzzer target: the App Store Server API's request router (IOSiAPServerAPI), behind the HTTP layer: the
// method, the path, the Authorization header and the query arguments are the input. An input whose
// Authorization line is `valid` carries a token the server accepts, so that inputs get past the bearer check
// to the routes, their parameters and revision tokens. Every answer must be a status the API gives, and
// JSON when it says so. Built by scripts/fuzz.sh.
import Foundation
import FuzzDriver
import IOSiAPCore
import IOSiAPServerAPI
import IOSiAPVerification

/// The server's clock: fixed, so the token below never expires however long the fuzzer runs.
private let now = Date(timeIntervalSince1970: 1_800_000_000)
private let bundleID = "com.iosiap.fuzz"

private let setup: (api: ServerAPI, token: String) = {
    let key = try! PrivateKey()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iosiap-fuzz-server-api-\(getpid())")
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let directory = try! StateDirectory(folder)
    let pem = "-----BEGIN PRIVATE KEY-----\n\(Data(key.pkcs8).base64EncodedString())\n-----END PRIVATE KEY-----\n"
    try! ServerAPIKeys.add(keyID: "FUZZKEY", issuerID: "fuzz-issuer", pem: pem, to: directory)
    let keys = try! ServerAPIKeys.load(from: directory)
    try? FileManager.default.removeItem(at: folder)
    // A small history: consumables, a subscription renewed once, a refund; fake signatures (the router only
    // passes them on).
    let start = now.addingTimeInterval(-86_400)
    var history: [ServerAPITransaction] = []
    for id in UInt64(1)...6 {
        let subscription = id >= 5
        var transaction = StoreTransaction(
            id: id, originalID: subscription ? 5 : id, productID: subscription ? "gold" : "coins",
            productType: subscription ? .autoRenewable : .consumable, quantity: 1,
            purchaseDate: start.addingTimeInterval(Double(id) * 600), originalPurchaseDate: start,
            expirationDate: subscription ? start.addingTimeInterval(Double(id) * 43_200) : nil,
            environment: .sandbox, storefront: "USA", subscriptionGroupID: subscription ? "group" : nil)
        transaction.signedJWS = "jws.\(id).x"
        transaction.signedRenewalInfo = subscription ? "not.a.jws" : nil
        if id == 3 { transaction.revocationDate = start.addingTimeInterval(7_200) }
        // Revisions in the order of the writes: the refund of 3, the last write, re-signed it.
        history.append(ServerAPITransaction(transaction, isFinished: id % 2 == 0, revision: id == 3 ? 7 : Int64(id)))
    }
    let served = history
    let api = ServerAPI(bundleID: bundleID, environment: .sandbox, keys: { keys }, transactions: { served }, now: { now })
    let header = Base64URL.encode(Array(#"{"alg":"ES256","kid":"FUZZKEY","typ":"JWT"}"#.utf8))
    let claims = Base64URL.encode(Array(#"{"iss":"fuzz-issuer","aud":"appstoreconnect-v1","bid":"\#(bundleID)","exp":1800000300}"#.utf8))
    let input = header + "." + claims
    return (api, "Bearer " + input + "." + Base64URL.encode(try! key.signES256(Array(input.utf8))))
}()

@main enum FuzzServerAPI {
    static func main() { FuzzDriver.run(fuzzServerAPI) }
}

/// libFuzzer's own `main`, linked in but not used, refers to this name.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt { fuzzServerAPI(input, size) }

/// The input's lines: method, path, Authorization (`valid`: the good token; `none`: no header), then one
/// query argument per line, `name=value` or `name` alone.
private func fuzzServerAPI(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let input else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: input, count: size), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.count >= 2 else { return 0 }
    let authorization: String? = switch lines.count > 2 ? lines[2] : "valid" {
    case "valid": setup.token
    case "none": nil
    case let other: other
    }
    let query = lines.dropFirst(3).map { line -> ServerAPIRequest.QueryItem in
        let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        return .init(String(parts[0]), parts.count > 1 ? String(parts[1]) : nil)
    }
    let response = setup.api.handle(ServerAPIRequest(method: lines[0], path: lines[1], query: query, authorization: authorization))
    precondition([200, 202, 400, 401, 404, 405].contains(response.status), "unexpected status \(response.status)")
    if response.contentType == "application/json" {
        precondition((try? JSONSerialization.jsonObject(with: Data(response.body))) != nil, "a JSON answer that is not JSON")
    }
    return 0
}
