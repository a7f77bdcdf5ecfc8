import Foundation
import IOSiAPCore
import IOSiAPTestSupport
@testable import IOSiAPVerification
import Testing

/// The server verifier against a real HTTP server on loopback (Tests/python/verification_server.py).
@Suite(.serialized) final class ServerVerifierTests {
    let server = Process()
    let input = Pipe()
    let port: Int

    init() async throws {
        let output = Pipe()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", Fixtures.repositoryRoot.appendingPathComponent("Tests/python/verification_server.py").path,
                            "--stop-on-stdin-eof"]
        server.standardOutput = output
        server.standardInput = input
        try ProcessLaunch.run(server)
        // The server prints its port once it listens (Python starts in seconds on a busy machine): the blocking read
        // waits on a thread of its own, not on one of the concurrency pool.
        let reading = output.fileHandleForReading
        let line = await onThreadOfItsOwn { String(decoding: reading.availableData, as: UTF8.self) }
        port = Int(line.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
    }

    deinit {
        // The server ends at the end of its input; Foundation reaps it. Not waited for here: a deinit runs on a thread
        // of the concurrency pool, which it must not block.
        try? input.fileHandleForWriting.close()
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// A transaction with the JWS signed for it (by a test chain: the server vouches for it here).
    static let transaction: StoreTransaction = {
        var transaction = StoreTransaction(id: 77, originalID: 77, productID: "coins", productType: .consumable, quantity: 1,
                                           purchaseDate: Date(), originalPurchaseDate: Date(), environment: .sandbox, storefront: "USA")
        transaction.signedJWS = try? SigningChain.create().sign(json: SignedTransactionPayload(transaction, bundleID: "com.iosiap.tests",
                                                                                               signedDate: Date()))
        return transaction
    }()
    var transaction: StoreTransaction { Self.transaction }

    func verify(_ path: String, sandbox: String? = nil, format: ServerVerifier.BodyFormat = .signedTransaction,
                timeout: Duration = .seconds(5), transaction: StoreTransaction = ServerVerifierTests.transaction) async -> VerificationOutcome {
        await ServerVerifier(url: url(path), sandboxURL: sandbox.map(url), format: format, timeout: timeout,
                             attempts: 2, backoff: .milliseconds(20)).verify(transaction)
    }

    @Test func aTransactionIsVerifiedOnlyAsTheJWSTheServerAcceptedSaysIt() async {
        var moreCoins = transaction
        moreCoins.quantity = 10
        guard case .failed(let error) = await verify("/valid", transaction: moreCoins) else { Issue.record("verified"); return }
        #expect(error.code == .verificationInvalidSignature && error.message.contains("quantity"))
        var unreadable = transaction
        unreadable.signedJWS = "aGVhZGVy.cGF5bG9hZA.c2ln"
        #expect(code(await verify("/valid", transaction: unreadable)) == .verificationInvalidFormat)
    }

    func code(_ outcome: VerificationOutcome) -> StoreErrorCode? {
        switch outcome {
        case .verified: nil
        case .failed(let error), .retryLater(let error): error.code
        }
    }

    @Test func aValidAnswerVerifies() async {
        #expect(port > 0)
        #expect(await verify("/valid") == .verified)
    }

    @Test func aRejectionFails() async {
        guard case .failed(let error) = await verify("/rejected") else { Issue.record("not failed"); return }
        #expect(error.code == .verificationRejectedByServer)
        #expect(error.message.contains("21003"))
    }

    @Test func aSandboxReceiptSentToProductionIsSentToTheSandbox() async {
        #expect(await verify("/production", sandbox: "/sandbox") == .verified)
        #expect(code(await verify("/production")) == .verificationRejectedByServer)
    }

    @Test func slowBrokenMalformedAndWrongAnswersAreRetriedThenRetryable() async {
        for path in ["/error500", "/malformed", "/wrong"] {
            guard case .retryLater(let error) = await verify(path) else { Issue.record("\(path) is not retryable"); continue }
            #expect(error.code == .verificationRetryable)
            #expect(error.message.contains("2 attempts"))
        }
        #expect(code(await verify("/slow", timeout: .milliseconds(300))) == .verificationRetryable)
        #expect(code(await ServerVerifier(url: URL(string: "http://127.0.0.1:1/")!, attempts: 1).verify(transaction))
                == .verificationRetryable)
    }

    @Test func aServerThatFailsOnceIsRetriedWithinOneVerification() async {
        #expect(await verify("/flaky") == .verified)
    }

    @Test func theLegacyReceiptBodyCarriesTheJWSAndTheSharedSecret() async {
        #expect(await verify("/legacy", format: .legacyReceipt(password: "secret")) == .verified)
        #expect(code(await verify("/legacy", format: .legacyReceipt(password: "wrong"))) == .verificationRejectedByServer)
    }

    @Test func aRedirectIsFollowedAndTheRequestSaysWhatItIs() async {
        #expect(await verify("/redirect") == .verified)
        #expect(await verify("/agent") == .verified)
    }

    @Test func theTimeoutBoundsTheWholeAnswerAndALongAnswerIsNotRead() async {
        // Each byte comes well within the timeout; the answer as a whole does not.
        guard case .retryLater(let trickled) = await verify("/trickle", timeout: .seconds(1)) else { Issue.record("not retryable"); return }
        #expect(trickled.message.contains("Timeout"))
        guard case .retryLater(let huge) = await verify("/huge") else { Issue.record("not retryable"); return }
        #expect(huge.message.contains("longer than"))
    }

    @Test func aStatusIsAWholeNumberOrTheAnswerIsTriedAgain() async {
        #expect(code(await verify("/whole")) == nil)
        for path in ["/half", "/true", "/text"] {
            #expect(code(await verify(path)) == .verificationRetryable, "\(path)")
        }
    }
}
