#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPSignedData

/// Verifies signed transactions, renewal infos, App Transactions and notifications as Apple's App Store Server
/// Library does, step by step,
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
    /// The app's App Store id, which a production App Transaction must carry (`nil`: none is accepted).
    public let appAppleID: UInt64?
    private let validationDate: ValidationDate
    private let chains: ChainVerifier
    private let headers = HeaderCache()

    /// A verifier trusting `trustedRoots` (DER certificates). `appAppleID` is the app's App Store id, needed
    /// only to verify App Transactions from Production.
    public init(trustedRoots: [[UInt8]] = [AppleRootCertificate.g3DER], bundleID: String,
                environment: StoreEnvironment, appAppleID: UInt64? = nil, validationDate: ValidationDate = .signedDate,
                chainCacheCapacity: Int = 32) throws(StoreError) {
        self.bundleID = bundleID
        self.environment = environment
        self.appAppleID = appAppleID
        self.validationDate = validationDate
        chains = try ChainVerifier(trustedRoots: trustedRoots, capacity: chainCacheCapacity)
    }

    /// The payload of a verified signed transaction. C: `iosiap_verify_transaction`.
    public func verifyTransaction(_ signedTransaction: String) throws(StoreError) -> SignedTransactionPayload {
        let payload: SignedTransactionPayload = try verify(signedTransaction) { $0.signedDate?.date }
        try checkBundleID(payload.bundleId, of: "the transaction")
        try checkEnvironment(payload.environment)
        return payload
    }

    /// The payload of verified signed renewal info (it carries no bundle id).
    public func verifyRenewalInfo(_ signedRenewalInfo: String) throws(StoreError) -> RenewalInfoPayload {
        let payload: RenewalInfoPayload = try verify(signedRenewalInfo) { $0.signedDate?.date }
        try checkEnvironment(payload.environment)
        return payload
    }

    /// The payload of a verified signed App Transaction (StoreKit's `StoreAppTransaction` as a JWS; Apple's
    /// `verifyAndDecodeAppTransaction`): the chain valid at its `receiptCreationDate`, the signature, its
    /// bundle id, in Production its App Store id (`appAppleID`), and its environment (`receiptType`).
    public func verifyAppTransaction(_ signedAppTransaction: String) throws(StoreError) -> AppTransactionPayload {
        let payload: AppTransactionPayload = try verify(signedAppTransaction) { $0.receiptCreationDate?.date }
        try checkBundleID(payload.bundleId, of: "the App Transaction")
        try checkAppAppleID(payload.appAppleId, of: "the App Transaction")
        try checkEnvironment(payload.receiptType)
        return payload
    }

    /// The payload of a verified App Store Server Notification V2 (its `signedPayload`; Apple's
    /// `verifyAndDecodeNotification`): the chain valid at its `signedDate`, the signature, then the bundle id,
    /// in Production the App Store id (`appAppleID`), and the environment of the object that names the app.
    /// Which one, in Apple's order (apple/app-store-server-library-python, `verify_and_decode_notification`):
    /// `data`, else `summary`, else `externalPurchaseToken`, whose environment is Sandbox when its
    /// `externalPurchaseId` starts with "SANDBOX" and Production otherwise, else `appData`. A payload with none
    /// of them names no app: `verificationInvalidAppIdentifier`, as in Apple's libraries.
    public func verifyNotification(_ signedPayload: String) throws(StoreError) -> NotificationPayload {
        let payload: NotificationPayload = try verify(signedPayload) { $0.signedDate?.date }
        let named: (what: String, bundleID: String?, appAppleID: UInt64?, environment: String?)
        if let data = payload.data {
            named = ("the notification's data", data.bundleId, data.appAppleId, data.environment)
        } else if let summary = payload.summary {
            named = ("the notification's summary", summary.bundleId, summary.appAppleId, summary.environment)
        } else if let token = payload.externalPurchaseToken {
            let sandbox = token.externalPurchaseId?.hasPrefix("SANDBOX") == true
            named = ("the notification's externalPurchaseToken", token.bundleId, token.appAppleId,
                     (sandbox ? StoreEnvironment.sandbox : .production).rawValue)
        } else if let app = payload.appData {
            named = ("the notification's appData", app.bundleId, app.appAppleId, app.environment)
        } else {
            throw StoreError(.verificationInvalidAppIdentifier,
                             "the notification has no data, summary, externalPurchaseToken or appData naming its app")
        }
        try checkBundleID(named.bundleID, of: named.what)
        try checkAppAppleID(named.appAppleID, of: named.what)
        try checkEnvironment(named.environment)
        return payload
    }

    /// Decodes a JWS without verifying anything: for looking at data, never for granting.
    public static func decodeUnverified<Payload: Decodable>(_ jws: String, as type: Payload.Type) throws(StoreError) -> Payload {
        try CompactJWS.decodeUnverified(jws, as: type)
    }

    private func verify<Payload: Decodable>(_ text: String, signedDate: (Payload) -> Date?) throws(StoreError) -> Payload {
        let jws = try CompactJWS(text, headers: headers)
        guard jws.header.alg == "ES256" else {
            throw StoreError(.verificationUnsupportedAlgorithm, "alg is '\(jws.header.alg ?? "missing")'; only ES256 is accepted")
        }
        let payload: Payload = try jws.decodedPayload()
        let date: Date = switch validationDate {
        case .signedDate: signedDate(payload) ?? Date()
        case .now: Date()
        case .fixed(let date): date
        }
        let key = try chains.leafKey(x5c: jws.header.x5c, at: date)
        guard key.verifyES256(signature: jws.signature, message: jws.signingInput) else {
            throw StoreError(.verificationInvalidSignature, "the ES256 signature does not match the signed data")
        }
        return payload
    }

    private func checkBundleID(_ value: String?, of what: String) throws(StoreError) {
        guard value == bundleID else {
            throw StoreError(.verificationInvalidAppIdentifier, "\(what) is for '\(value ?? "no bundle id")', not '\(bundleID)'")
        }
    }

    /// Apple's libraries check the App Store id in Production only: elsewhere the App Store signs none.
    private func checkAppAppleID(_ value: UInt64?, of what: String) throws(StoreError) {
        guard environment == .production else { return }
        guard let appAppleID else {
            throw StoreError(.verificationInvalidAppIdentifier,
                             "in Production \(what) is checked against the app's App Store id: pass appAppleID")
        }
        guard value == appAppleID else {
            throw StoreError(.verificationInvalidAppIdentifier,
                             "\(what) is for App Store id \(value.map(String.init) ?? "none"), not \(appAppleID)")
        }
    }

    private func checkEnvironment(_ value: String?) throws(StoreError) {
        guard value == environment.rawValue else {
            throw StoreError(.verificationInvalidEnvironment,
                             "the data comes from '\(value ?? "no environment")', not '\(environment.rawValue)'")
        }
    }
}
