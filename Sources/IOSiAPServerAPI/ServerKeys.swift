import Foundation
import IOSiAPCore
import IOSiAPVerification

/// One App Store Server API key a backend signs its bearer tokens with: App Store Connect's key id, the
/// issuer id of the team, and the public half of the key.
public struct ServerAPIKey: Sendable {
    public let keyID: String
    public let issuerID: String
    let publicKey: PublicKey
}

/// The keys a state directory accepts bearer tokens from, in `server-api-keys.json` in the directory
/// (written by `iosiap-store server-key add`): `[{"keyId", "issuerId", "publicKey": base64 SubjectPublicKeyInfo}]`.
public enum ServerAPIKeys {
    static let fileName = "server-api-keys.json"
    /// A key file larger than this is refused unread (one key is about 200 bytes).
    static let maximumFileSize = 1 << 20

    private struct Stored: Codable {
        var keyId: String
        var issuerId: String
        var publicKey: String
    }

    /// The keys configured in `directory`; none when the file does not exist.
    public static func load(from directory: StateDirectory) throws(StoreError) -> [ServerAPIKey] {
        try read(directory).map { stored throws(StoreError) in
            guard let der = Data(base64Encoded: stored.publicKey) else {
                throw StoreError(.storageFailure, "\(fileName): the key \(stored.keyId) is not base64")
            }
            return ServerAPIKey(keyID: stored.keyId, issuerID: stored.issuerId, publicKey: try PublicKey(spkiOrPKCS8: Array(der)))
        }
    }

    /// Adds (or replaces) the key `keyID` of `issuerID`. `pem` is the key's PEM text: a `PUBLIC KEY`, or the
    /// `PRIVATE KEY` of App Store Connect's `.p8` file, of which only the public half is kept.
    public static func add(keyID: String, issuerID: String, pem: String, to directory: StateDirectory) throws(StoreError) {
        guard !keyID.isEmpty, keyID.utf8.count <= 256, !issuerID.isEmpty, issuerID.utf8.count <= 256 else {
            throw StoreError(.invalidArgument, "the key id and issuer id must be 1 to 256 bytes")
        }
        let key = try PublicKey(spkiOrPKCS8: try pemBody(pem))
        guard key.isP256 else { throw StoreError(.invalidArgument, "the key is not a P-256 (ES256) key") }
        var keys = try read(directory).filter { $0.keyId != keyID }
        keys.append(Stored(keyId: keyID, issuerId: issuerID, publicKey: Data(key.spki).base64EncodedString()))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try encoder.encode(keys).write(to: URL(fileURLWithPath: directory.file(fileName)), options: .atomic)
        } catch {
            throw StoreError(.storageFailure, "cannot write \(fileName): \(error.localizedDescription)")
        }
    }

    /// Removes the key `keyID`; whether it was there.
    @discardableResult
    public static func remove(keyID: String, from directory: StateDirectory) throws(StoreError) -> Bool {
        let keys = try read(directory)
        let kept = keys.filter { $0.keyId != keyID }
        guard kept.count != keys.count else { return false }
        do {
            try JSONEncoder().encode(kept).write(to: URL(fileURLWithPath: directory.file(fileName)), options: .atomic)
        } catch {
            throw StoreError(.storageFailure, "cannot write \(fileName): \(error.localizedDescription)")
        }
        return true
    }

    private static func read(_ directory: StateDirectory) throws(StoreError) -> [Stored] {
        let url = URL(fileURLWithPath: directory.file(fileName))
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        do {
            let data = try Data(contentsOf: url)
            guard data.count <= maximumFileSize else { throw StoreError(.storageFailure, "\(fileName) is too large") }
            return try JSONDecoder().decode([Stored].self, from: data)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.storageFailure, "cannot read \(fileName): \(error.localizedDescription)")
        }
    }

    /// The DER bytes of the first PEM block in `pem` (or `pem` itself read as base64, without armour).
    static func pemBody(_ pem: String) throws(StoreError) -> [UInt8] {
        var lines = pem.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        if let begin = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN") }) {
            lines = Array(lines[(begin + 1)...].prefix { !$0.hasPrefix("-----END") })
        }
        let base64 = lines.joined()
        guard let der = Data(base64Encoded: base64), !der.isEmpty else {
            throw StoreError(.invalidArgument, "not a PEM key: expected -----BEGIN PUBLIC KEY----- or -----BEGIN PRIVATE KEY-----")
        }
        return Array(der)
    }
}
