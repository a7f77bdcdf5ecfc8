import Foundation
import IOSiAPCore
import IOSiAPStoreKit
import IOSiAPTestSupport
import Testing

/// StoreKit gives its verdict on the copy it hands over; the core's verifier passes only that copy.
@Suite struct StoreKitVerdictTests {
    let storeKit = ScriptedStoreKit()

    /// A verdict on one copy of a transaction does not pass another copy of it that says something else: a copy the
    /// journal kept from a restore StoreKit called unverified (a forged date), rechecked at a launch where StoreKit
    /// handed over the genuine one. A copy signed apart that says the same (StoreKit signs anew) passes.
    @Test func aVerdictOnOneCopyDoesNotPassAnotherCopyOfTheSameTransaction() async throws {
        var handedOver = ScriptedStoreKit.transaction(7, "pro", .nonConsumable)
        handedOver.signedCopy = ScriptedStoreKit.signedCopy(of: 7, at: 2_000)
        storeKit.script.withLock { $0.unfinished = [.verified(handedOver)] }
        let backend = StoreKitBackend(api: storeKit)
        let genuine = try #require(try await backend.unfinishedTransactions().first)
        var resigned = genuine
        resigned.signedJWS = ScriptedStoreKit.signedCopy(of: 7, at: 1_000)
        #expect(await backend.verifier.verify(resigned, recorded: .notVerified) == .verified)
        var forged = genuine
        forged.signedJWS = "header.forged-payload-of-7.signature"
        forged.originalPurchaseDate = genuine.originalPurchaseDate.addingTimeInterval(-86_400)
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
        storeKit.script.withLock { $0.entitlements = [.verified(entitlement)] }
        let first = try #require(try await backend.restore().first)
        storeKit.script.withLock { $0.unfinished = [.verified(unfinished)] }
        let second = try #require(try await backend.unfinishedTransactions().first)
        #expect(first.signedJWS != second.signedJWS)
        #expect(await backend.verifier.verify(first) == .verified)
        #expect(await backend.verifier.verify(second) == .verified)
    }

    /// A forged copy of a genuine transaction, which StoreKit calls unverified, neither fails the genuine copy nor
    /// passes on its verdict, whichever of the two StoreKit hands over first.
    @Test(arguments: [true, false])
    func aForgedCopyAndTheGenuineOneKeepTheirOwnVerdicts(genuineFirst: Bool) async throws {
        let genuine = ScriptedStoreKit.transaction(7, "pro", .nonConsumable)
        var forged = genuine
        forged.signedCopy = "header.forged-payload-of-7.signature"
        let handedOver: [StoreKitVerified<ScriptedStoreKit.FakeTransaction>] = [.verified(genuine), .unverified(forged, .invalidSignature)]
        let backend = StoreKitBackend(api: storeKit)
        var copies: [StoreTransaction] = []
        for result in genuineFirst ? handedOver : handedOver.reversed() {
            storeKit.script.withLock { $0.unfinished = [result] }
            copies.append(try #require(try await backend.unfinishedTransactions().first))
        }
        let (genuineCopy, forgedCopy) = genuineFirst ? (copies[0], copies[1]) : (copies[1], copies[0])
        #expect(await backend.verifier.verify(genuineCopy) == .verified)
        #expect(await backend.verifier.verify(genuineCopy, recorded: .notVerified) == .verified)
        guard case .failed(let error) = await backend.verifier.verify(forgedCopy, recorded: .notVerified) else {
            Issue.record("the forged copy passed")
            return
        }
        #expect(error.code == .verificationInvalidSignature)
        #expect(!error.message.contains("has not verified"))  // StoreKit's own verdict on it, not the lack of one
    }
}
