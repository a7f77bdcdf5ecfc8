import Foundation
import IOSiAPCore
import IOSiAPStoreKit
import IOSiAPTestSupport
import Testing

/// StoreKit gives its verdict on the copy it hands over; the core's verifier passes only that copy.
@Suite struct StoreKitVerdictTests {
    let storeKit = ScriptedStoreKit()

    /// A verdict on one copy of a transaction does not pass another copy of it: a copy the journal kept from a
    /// restore StoreKit called unverified, rechecked at a launch where StoreKit handed over the genuine one.
    @Test func aVerdictOnOneCopyDoesNotPassAnotherCopyOfTheSameTransaction() async throws {
        storeKit.script.withLock { $0.unfinished = [.verified(ScriptedStoreKit.transaction(7, "pro", .nonConsumable))] }
        let backend = StoreKitBackend(api: storeKit)
        let genuine = try #require(try await backend.unfinishedTransactions().first)
        var forged = genuine
        forged.signedJWS = "header.forged-payload-of-7.signature"
        #expect(await backend.verifier.verify(genuine) == .verified)
        #expect(await backend.verifier.verify(genuine, recorded: .notVerified) == .verified)
        for recorded in [RecordedVerdict.notVerified, .none] {
            guard case .failed(let error) = await backend.verifier.verify(forged, recorded: recorded) else {
                Issue.record("a copy StoreKit never judged passed with the recorded verdict \(recorded)")
                continue
            }
            #expect(error.code == .verificationInvalidSignature)
        }
        // The journal's own verdict from an earlier launch still stands for the copy it judged.
        #expect(await backend.verifier.verify(forged, recorded: .verified) == .verified)
    }
}
