import Foundation
import IOSiAPCore
import IOSiAPLocalStore
@testable import IOSiAPServerAPI
import IOSiAPVerification

/// A backend's credentials for the Server API under test: a key the state directory trusts (`server-key add KEY1
/// issuer-1`), and bearer tokens signed with it as Apple's libraries make them.
struct ServerAPICredentials {
    static let bundleID = "com.example.game"
    let key: PrivateKey

    /// A new key, added to `directory`'s Server API keys as KEY1 of issuer-1.
    init(addedTo directory: StateDirectory) throws {
        key = try PrivateKey()
        try ServerAPIKeys.add(keyID: "KEY1", issuerID: "issuer-1", pem: Self.pem(key), to: directory)
    }

    static func pem(_ key: PrivateKey) -> String {
        "-----BEGIN PRIVATE KEY-----\n\(Data(key.pkcs8).base64EncodedString(options: .lineLength64Characters))\n-----END PRIVATE KEY-----\n"
    }

    /// A bearer token with `changes` applied to the claims, signed by `signer` (this key by default).
    func token(kid: String = "KEY1", alg: String = "ES256", signer: PrivateKey? = nil,
               _ changes: (inout [String: Any]) -> Void = { _ in }) throws -> String {
        var claims: [String: Any] = ["iss": "issuer-1", "aud": "appstoreconnect-v1", "bid": Self.bundleID,
                                     "iat": Int(Date().timeIntervalSince1970), "exp": Int(Date().timeIntervalSince1970) + 300]
        changes(&claims)
        let header = try JSONSerialization.data(withJSONObject: ["alg": alg, "kid": kid, "typ": "JWT"])
        let input = Base64URL.encode(Array(header)) + "." + Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: claims)))
        return "Bearer " + input + "." + Base64URL.encode(try (signer ?? key).signES256(Array(input.utf8)))
    }

    /// The Server API over `store`'s history and App Transaction, trusting `directory`'s keys; pages read from
    /// `pages` when given; Host checked when `allowedHosts` are given, refusals told to `refusals`.
    static func api(over store: LocalStore, in directory: StateDirectory, pages: (any TransactionHistoryPaging)? = nil,
                    allowedHosts: Set<String>? = nil, refusals: (@Sendable (String) -> Void)? = nil) -> ServerAPI {
        ServerAPI(bundleID: bundleID, environment: store.environment,
                  keys: { () throws(StoreError) in try ServerAPIKeys.load(from: directory) },
                  transactions: { () throws(StoreError) in try store.history().map(ServerAPITransaction.init) },
                  extensions: store, pages: pages,
                  appTransaction: { () throws(StoreError) in try store.signAppTransaction() },
                  allowedHosts: allowedHosts, refusals: refusals)
    }
}
