#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The App Store's sheets (refund request, manage subscriptions), shown in tasks of their own.
extension StoreWorker {
    /// Shows a refund request or manage subscriptions sheet in a task of its own, where it may wait for the user
    /// for minutes without holding up later requests, the verifications beside them (it takes no turn of
    /// theirs) or close, and queues the one event that says how it ended. A close meanwhile cancels it like any
    /// request in progress: no further event.
    func showSheet(_ job: StoreJob) {
        switch job {
        case .refundRequest(let requestID, let transactionID, let uiContext):
            runUntilClose {
                let result: Result<RefundRequestOutcome, StoreError>
                do throws(StoreError) {
                    result = .success(try await self.backend.beginRefundRequest(transactionID: transactionID, uiContext: uiContext))
                } catch {
                    result = .failure(error)
                }
                self.events.push(.refundRequestFinished(requestID: requestID, transactionID: transactionID, result: result))
            }
        case .manageSubscriptions(let requestID, let uiContext):
            runUntilClose {
                var failure: StoreError?
                do throws(StoreError) {
                    try await self.backend.showManageSubscriptions(uiContext: uiContext)
                } catch {
                    failure = error
                }
                self.events.push(.manageSubscriptionsClosed(requestID: requestID, error: failure))
            }
        default:
            return
        }
    }
}
