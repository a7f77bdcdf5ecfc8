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

    /// StoreKit's APIs may hand over differently signed copies of one transaction (a restore's entitlement, then
    /// the unfinished list): a verdict on the second does not erase the one on the first.
    @Test func eachCopyStoreKitJudgedKeepsItsVerdict() async throws {
        var entitlement = ScriptedStoreKit.transaction(7, "pro", .nonConsumable)
        entitlement.signedCopy = "header.entitlement-copy-of-7.signature"
        var unfinished = entitlement
        unfinished.signedCopy = "header.unfinished-copy-of-7.signature"
        let backend = StoreKitBackend(api: storeKit)
        storeKit.script.withLock { $0.unfinished = [.verified(entitlement)] }
        let first = try #require(try await backend.unfinishedTransactions().first)
        storeKit.script.withLock { $0.unfinished = [.verified(unfinished)] }
        let second = try #require(try await backend.unfinishedTransactions().first)
        #expect(first.signedJWS != second.signedJWS)
        #expect(await backend.verifier.verify(first) == .verified)
        #expect(await backend.verifier.verify(second) == .verified)
    }
}
