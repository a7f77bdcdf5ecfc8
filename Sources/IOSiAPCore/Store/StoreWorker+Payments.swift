#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Payments: products requests, purchases, and the request-less deliveries held while one is in progress.
extension StoreWorker {
    func requestProducts(_ requestID: RequestID, _ ids: [String]) async {
        do {
            let found = try await backend.products(for: ids)
            let byID = Dictionary(found.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let products = ids.compactMap { byID[$0] }
            state.withLock { state in
                for product in products { state.products[product.id] = product }
            }
            events.push(.productsReceived(requestID: requestID, products: products,
                                          invalidProductIDs: ids.filter { byID[$0] == nil }))
        } catch {
            events.push(.productsFailed(requestID: requestID, error: error))
        }
    }

    func pay(_ requestID: RequestID, _ request: PaymentRequest, _ product: StoreProduct) async {
        events.push(.purchasing(requestID: requestID, productID: product.id, quantity: request.quantity))
        flights.withLock { $0.startPurchase(of: product.id) }
        let outcome: PurchaseOutcome
        do {
            outcome = try await backend.purchase(request, product: product)
        } catch {
            releaseHeldDeliveries(purchasing: product.id, paid: nil)
            events.push(.failed(requestID: requestID, productID: product.id, error: error))
            return
        }
        if case .purchased(let transaction) = outcome {
            releaseHeldDeliveries(purchasing: product.id, paid: transaction.id)
        } else {
            releaseHeldDeliveries(purchasing: product.id, paid: nil)
        }
        switch outcome {
        case .purchased(let transaction):
            @Sendable func deliverPayment() async {
                await deliver(transaction, requestID: requestID)
                flights.withLock { $0.remove(.deliveredByPayment, transaction.id) }
            }
            if verifier == nil {
                // Nothing to wait for: delivered at once, before any update the purchase caused (an
                // upgrade's `expired`).
                await deliverPayment()
            } else {
                // Verified beside the job loop: a slow server holds up no later request. The store keeps
                // the transaction unfinished until the game finishes it, so a close meanwhile loses nothing.
                runBeside(.requests) { await deliverPayment() }
            }
        case .cancelled:
            events.push(.cancelled(requestID: requestID, productID: product.id))
        case .deferred:
            events.push(.deferred(requestID: requestID, productID: product.id))
        }
    }

    /// Ends a purchase of `productID` in progress: its charge (`paid`), if any, is now told by its payment, and
    /// once no purchase of the product is in progress, the request-less deliveries held meanwhile go out, but
    /// not the payment's own charge.
    private func releaseHeldDeliveries(purchasing productID: String, paid: UInt64?) {
        let released = flights.withLock { flights in
            if let paid { _ = flights.insert(.deliveredByPayment, paid) }
            return flights.endPurchase(of: productID).map { transaction in
                // One that ends a deferral is told again, unless a payment's answer (this one's) is that transaction.
                let tellAgain = flights.contains(.endsDeferral, transaction.id) && !flights.contains(.deliveredByPayment, transaction.id)
                flights.remove(.endsDeferral, transaction.id)
                if tellAgain { _ = flights.insert(.delivered, transaction.id) }
                return (transaction, tellAgain)
            }
        }
        for (transaction, tellAgain) in released {
            if tellAgain {
                tellPurchase(.purchased(requestID: nil, transaction: transaction))
            } else {
                queuePurchasedOnce(transaction, requestID: nil)
            }
        }
    }
}
