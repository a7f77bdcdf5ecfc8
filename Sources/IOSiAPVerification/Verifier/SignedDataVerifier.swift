import Foundation
import IOSiAPCore

/// Verifies signed transactions and renewal infos as Apple's App Store Server Library does, step by step,
/// with a distinct error code for each step that fails: three-part JWS, ES256 only, exactly three
/// certificates, the root from the caller's trusted certificates (Apple Root CA - G3 by default), Apple's
/// marker extensions, the chain valid at the payload's signing date (or now), the signature, then the bundle
/// id and the environment. Usable by a game's backend on Linux as well as on the device.
public final class SignedDataVerifier: Sendable {
    /// The moment the certificate chain must be valid at.
    public enum ValidationDate: Sendable {
        /// The payload's `signedDate` (now when it has none), as Apple's libraries do offline.
        case signedDate
        /// The current time.
        case now
        /// A fixed time, for tests and replays.
        case fixed(Date)
    }

    /// The bundle id transactions must carry.
    public let bundleID: String
    /// The environment transactions must come from.
    public let environment: StoreEnvironment
    private let validationDate: ValidationDate
    private let chains: ChainVerifier
    private let headers = HeaderCache()

    /// A verifier trusting `trustedRoots` (DER certificates).
    public init(trustedRoots: [[UInt8]] = [AppleRootCertificate.g3DER], bundleID: String,
                environment: StoreEnvironment, validationDate: ValidationDate = .signedDate,
                chainCacheCapacity: Int = 32) throws(StoreError) {
        self.bundleID = bundleID
        self.environment = environment
        self.validationDate = validationDate
        chains = try ChainVerifier(trustedRoots: trustedRoots, capacity: chainCacheCapacity)
    }

    /// The payload of a verified signed transaction. C: `iosiap_verify_transaction`.
    public func verifyTransaction(_ signedTransaction: String) throws(StoreError) -> SignedTransactionPayload {
        let payload: SignedTransactionPayload = try verify(signedTransaction) { $0.signedDate }
        guard payload.bundleId == bundleID else {
            throw StoreError(.verificationInvalidAppIdentifier,
                             "the transaction is for '\(payload.bundleId ?? "no bundle id")', not '\(bundleID)'")
        }
        try checkEnvironment(payload.environment)
        return payload
    }

    /// The payload of verified signed renewal info (it carries no bundle id).
    public func verifyRenewalInfo(_ signedRenewalInfo: String) throws(StoreError) -> RenewalInfoPayload {
        let payload: RenewalInfoPayload = try verify(signedRenewalInfo) { $0.signedDate }
        try checkEnvironment(payload.environment)
        return payload
    }

    /// Decodes a JWS without verifying anything: for looking at data, never for granting.
    public static func decodeUnverified<Payload: Decodable>(_ jws: String, as type: Payload.Type) throws(StoreError) -> Payload {
        try decodePayload(CompactJWS(jws))
    }

    private func verify<Payload: Decodable>(_ text: String, signedDate: (Payload) -> Milliseconds?) throws(StoreError) -> Payload {
        let jws = try CompactJWS(text, headers: headers)
        guard jws.header.alg == "ES256" else {
            throw StoreError(.verificationUnsupportedAlgorithm, "alg is '\(jws.header.alg ?? "missing")'; only ES256 is accepted")
        }
        let payload: Payload = try Self.decodePayload(jws)
        let date: Date = switch validationDate {
        case .signedDate: signedDate(payload)?.date ?? Date()
        case .now: Date()
        case .fixed(let date): date
        }
        let key = try chains.leafKey(x5c: jws.header.x5c, at: date)
        guard key.verifyES256(signature: jws.signature, message: jws.signingInput) else {
            throw StoreError(.verificationInvalidSignature, "the ES256 signature does not match the signed data")
        }
        return payload
    }

    /// Shared: decoding leaves it unchanged, and a new one per call is an allocation per verification.
    private static let decoder = JSONDecoder()

    /// The fast decoder first; what it does not read exactly as `JSONDecoder` does, `JSONDecoder`.
    private static func decodePayload<Payload: Decodable>(_ jws: CompactJWS) throws(StoreError) -> Payload {
        if let payload = try? PayloadDecoder.decode(Payload.self, from: jws.payload) { return payload }
        do {
            return try decoder.decode(Payload.self, from: Data(jws.payload))
        } catch {
            throw StoreError(.verificationInvalidFormat, describe(error, Payload.self, jws.payload))
        }
    }

    /// Why the payload was refused, naming the field at fault (a number out of range, a value of the wrong
    /// type) where the decoder says which, or where removing one number lets the payload decode.
    private static func describe<Payload: Decodable>(_ error: any Error, _ type: Payload.Type, _ bytes: [UInt8]) -> String {
        let context: DecodingError.Context? = switch error as? DecodingError {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
             .keyNotFound(_, let context): context
        default: nil
        }
        if let context, !context.codingPath.isEmpty {
            let field = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return "the JWS payload's field '\(field)' is invalid: \(context.debugDescription)"
        }
        // Only for payloads of an App Store's size: the search decodes again, before the signature is checked.
        guard bytes.count <= RefusedFieldFinder.maximumPayloadLength else { return "the JWS payload is not the expected JSON" }
        let field = RefusedFieldFinder.field(in: bytes) { candidate in
            (try? decoder.decode(Payload.self, from: Data(candidate))) != nil
        }
        guard let field else { return "the JWS payload is not the expected JSON" }
        return "the JWS payload's field '\(field)' is invalid: a number out of its range"
    }

    private func checkEnvironment(_ value: String?) throws(StoreError) {
        guard value == environment.rawValue else {
            throw StoreError(.verificationInvalidEnvironment,
                             "the data comes from '\(value ?? "no environment")', not '\(environment.rawValue)'")
        }
    }
}
