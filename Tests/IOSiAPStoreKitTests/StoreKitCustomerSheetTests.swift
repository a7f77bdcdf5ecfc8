import Foundation
import IOSiAPCore
import IOSiAPStoreKit
import IOSiAPTestSupport
import Testing

/// The StoreKit backend's part in refund requests and the manage subscriptions sheet: what it asks StoreKit for,
/// and how StoreKit's answers reach the game as one event each.
@Suite struct StoreKitCustomerSheetTests {
    let folder = TemporaryDirectory()
    let storeKit = ScriptedStoreKit()
    let scene = UIContext(UnsafeMutableRawPointer(bitPattern: 0x5CE0)!)  // the game's UIWindowScene, opaque here

    func open() throws -> PurchaseStore {
        let backend = StoreKitBackend(api: storeKit)
        return try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: backend.verifier)
    }

    func refund(_ answer: Result<StoreKitRefundRequestStatus, StoreKitFailure>) async throws -> Result<RefundRequestOutcome, StoreError> {
        storeKit.script.withLock { $0.refundAnswer = answer }
        let store = try open()
        defer { store.close() }
        let request = try store.beginRefundRequest(transactionID: 77, uiContext: scene)
        let events = try await store.pollUntilTerminal(of: request)
        #expect(events.count == 1, "\(events)")
        guard case .refundRequestFinished(request, 77, let result) = events.last else { throw EventTimeout(description: "\(events)") }
        let asked = storeKit.script.withLock { $0.refundRequests.last }
        #expect(asked?.transactionID == 77 && asked?.uiContext == scene)
        return result
    }

    @Test func aRequestTheUserSendsIsSubmitted() async throws {
        #expect(try await refund(.success(.success)) == .success(.submitted))
    }

    @Test func theUserClosingTheSheetIsCancelledNotFailed() async throws {
        #expect(try await refund(.success(.userCancelled)) == .success(.cancelled))
        #expect(try await refund(.failure(.userCancelled)) == .success(.cancelled))  // thrown instead of returned
    }

    @Test(arguments: [
        (StoreKitFailure.refundRequestDuplicate, StoreErrorCode.duplicateRefundRequest),
        (.refundRequestFailed, .unknown),
        (.refundRequestIneligible, .refundRequestIneligible),  // iOS 27's RefundRequestError.ineligible
        (.invalidPresentationContext, .invalidPresentationContext),  // iOS 27's StoreKitError.invalidPresentationContext
        (.unsupported, .unsupportedPlatform),
        (.uiContextRequired("needs a UIWindowScene"), .unsupportedPlatform),
        (.invalidUIContext("not a UIWindowScene"), .invalidArgument),
        (.networkError("offline"), .storeUnreachable),
    ])
    func aRequestStoreKitRefusesFailsWithItsReason(failure: StoreKitFailure, code: StoreErrorCode) async throws {
        let result = try await refund(.failure(failure))
        guard case .failure(let error) = result else { Issue.record("\(result)"); return }
        #expect(error.code == code)
    }

    @Test func theManageSubscriptionsSheetClosingIsTold() async throws {
        let store = try open()
        defer { store.close() }
        let request = try store.showManageSubscriptions(uiContext: scene)
        let events = try await store.pollUntil { if case .manageSubscriptionsClosed = $0 { true } else { false } }
        #expect(events == [.manageSubscriptionsClosed(requestID: request, error: nil)])
        #expect(storeKit.script.withLock { $0.manageSubscriptionsSheets } == [scene])
    }

    @Test func aManageSubscriptionsSheetStoreKitCannotShowIsToldWithItsReason() async throws {
        storeKit.script.withLock { $0.manageSubscriptionsFailure = .unsupported }  // macOS, tvOS
        let store = try open()
        defer { store.close() }
        let request = try store.showManageSubscriptions()
        let events = try await store.pollUntil { if case .manageSubscriptionsClosed = $0 { true } else { false } }
        guard case .manageSubscriptionsClosed(let closed, let error) = events.last else { Issue.record("\(events)"); return }
        #expect(closed == request && error?.code == .unsupportedPlatform)
    }
}
