#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// Verifies transactions on the developer's server: POSTs the signed transaction (or, for servers built
/// for the legacy receipt endpoint, a `{"receipt-data", "password"}` body) and reads a verifyReceipt-style
/// answer, `{"status": 0}` for a valid transaction.
///
/// Answers follow the legacy endpoint's status codes: 0 valid; 21007 ("a sandbox receipt sent to
/// production") sends the request again to `sandboxURL`; 21002, 21005, 21009 and 21100–21199 mean "try
/// again"; any other status rejects the transaction. A timeout, a connection failure, an HTTP 5xx, 408 or
/// 429, or an answer that is not such JSON (or is about another transaction) is tried again with backoff,
/// then reported as retryable: the transaction stays queued and nothing is lost.
public struct ServerVerifier: TransactionVerifier {
    /// What the server receives.
    public enum BodyFormat: Sendable, Equatable {
        /// `{"signedTransaction": "<JWS>", "transactionId": "<id>"}`.
        case signedTransaction
        /// `{"receipt-data": "<base64 of the JWS>", "password": "<shared secret>"}`, for legacy servers.
        case legacyReceipt(password: String?)
    }

    public var url: URL
    public var sandboxURL: URL?
    public var format: BodyFormat
    /// Each attempt's (see `JSONPoster`); on Linux a deadline for the whole POST, at least a millisecond.
    public var timeout: Duration
    public var attempts: Int
    public var backoff: Duration

    public init(url: URL, sandboxURL: URL? = nil, format: BodyFormat = .signedTransaction,
                timeout: Duration = .seconds(10), attempts: Int = 3, backoff: Duration = .milliseconds(500)) {
        self.url = url
        self.sandboxURL = sandboxURL
        self.format = format
        self.timeout = timeout
        self.attempts = max(attempts, 1)
        self.backoff = backoff
    }

    public func verify(_ transaction: StoreTransaction) async -> VerificationOutcome {
        guard let jws = transaction.signedJWS else {
            return .failed(StoreError(.verificationInvalidFormat, "transaction \(transaction.id) carries no signed JWS"))
        }
        let body: [String: String] = switch format {
        case .signedTransaction: ["signedTransaction": jws, "transactionId": String(transaction.id)]
        case .legacyReceipt(let password): ["receipt-data": Data(jws.utf8).base64EncodedString(), "password": password ?? ""]
        }
        var target = url
        var redirected = false
        var lastProblem = "no answer"
        var attempt = 0
        while attempt < attempts {
            switch await ask(target, body: body, transactionID: transaction.id) {
            case .valid:
                return Self.bind(transaction, to: jws)
            case .rejected(let status):
                return .failed(StoreError(.verificationRejectedByServer, "\(target.absoluteString) answered status \(status)"))
            case .sandboxReceiptSentToProduction where !redirected:
                guard let sandboxURL else {
                    return .failed(StoreError(.verificationRejectedByServer,
                                              "\(target.absoluteString) answered 21007 (a sandbox transaction) and no sandbox URL is set"))
                }
                target = sandboxURL
                redirected = true
                continue  // not a failed attempt
            case .sandboxReceiptSentToProduction:
                return .failed(StoreError(.verificationRejectedByServer, "\(target.absoluteString) answered 21007 again"))
            case .retry(let problem):
                lastProblem = problem
                attempt += 1
                if attempt < attempts {
                    try? await Task.sleep(for: backoff * (1 << (attempt - 1)))
                }
            }
        }
        return .retryLater(StoreError(.verificationRetryable,
                                      "verification at \(target.absoluteString) did not complete after \(attempts) attempts: \(lastProblem)"))
    }

    private enum Answer {
        case valid
        case rejected(Int)
        case sandboxReceiptSentToProduction
        case retry(String)
    }

    private func ask(_ target: URL, body: [String: String], transactionID: UInt64) async -> Answer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let json = try? encoder.encode(body) else { return .retry("the request could not be encoded") }
        let (status, data): (Int, [UInt8])
        switch await JSONPoster().post(json, to: target, timeout: timeout) {
        case .noAnswer(let problem): return .retry(problem)
        case .answered(let answerStatus, let answerBody): (status, data) = (answerStatus, answerBody)
        }
        switch status {
        case 200: break
        case 408, 429, 500...599: return .retry("HTTP \(status)")
        default: return .rejected(status)
        }
        guard let answer = try? JSONDecoder().decode(ServerAnswer.self, from: Data(data)), let answerStatus = answer.status else {
            return .retry("the answer is not JSON with a status")
        }
        if let echoed = answer.transactionID, echoed != String(transactionID) {
            return .retry("the answer is about transaction \(echoed), not \(transactionID)")
        }
        switch answerStatus {
        case 0: return .valid
        case 21007: return .sandboxReceiptSentToProduction
        case 21002, 21005, 21009, 21100...21199: return .retry("status \(answerStatus)")
        default: return .rejected(answerStatus)
        }
    }

    /// The fields of a verifyReceipt-style answer read here: `status`, a whole number (`0` or `0.0`), and
    /// `transactionId` when it is a string; anything else in the object is ignored.
    private struct ServerAnswer: Decodable {
        var status: Int?
        var transactionID: String?

        private enum CodingKeys: String, CodingKey {
            case status
            case transactionID = "transactionId"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let whole = try? container.decode(Int.self, forKey: .status) {
                status = whole
            } else if let number = try? container.decode(Double.self, forKey: .status), let whole = Int(exactly: number) {
                status = whole
            }
            transactionID = try? container.decode(String.self, forKey: .transactionID)
        }
    }
}

extension ServerVerifier {
    /// The server vouched for `jws`: the transaction is verified when every field the game or the ledger
    /// reads is the one that JWS says (the payload, decoded without a second check of its signature).
    static func bind(_ transaction: StoreTransaction, to jws: String) -> VerificationOutcome {
        let payload: SignedTransactionPayload
        do {
            payload = try CompactJWS.decodeUnverified(jws, as: SignedTransactionPayload.self)
        } catch {
            return .failed(StoreError(.verificationInvalidFormat, "the JWS the server accepted does not decode: \(error.message)"))
        }
        if let difference = payload.firstDifference(from: transaction) {
            return .failed(StoreError(.verificationInvalidSignature,
                                      "transaction \(transaction.id) is not what the JWS the server accepted says (\(difference))"))
        }
        return .verified
    }
}
