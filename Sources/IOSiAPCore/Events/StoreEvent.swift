/// Everything the store tells the game, one event type for all requests (C: `iosiap_event`).
///
/// Every products request, payment and restore ends in exactly one terminal event:
/// - products request: `productsReceived` or `productsFailed`;
/// - payment: `purchased` (or `granted`, with the ledger), `verificationFailed` (with a verifier),
///   `cancelled`, `failed` or `deferred`;
/// - restore: `restoreFinished` (after zero or more `restored`).
/// - refund request: `refundRequestFinished`.
///
/// Events without a request (`requestID == nil`) come from the store itself: an Ask to Buy approval or
/// decline, a transaction left unfinished by an earlier launch, a refund, a journal row that cannot be read,
/// an App Store message, a storefront change.
public enum StoreEvent: Sendable, Equatable {
    /// The products found and the ids the store does not know.
    case productsReceived(requestID: RequestID, products: [StoreProduct], invalidProductIDs: [String])
    /// The products request failed as a whole.
    case productsFailed(requestID: RequestID, error: StoreError)
    /// A payment was accepted and is being processed.
    case purchasing(requestID: RequestID, productID: String, quantity: Int)
    /// A purchase completed. Grant it, then call finish. `requestID` is `nil` when the purchase was not
    /// answered within its request: an Ask to Buy approval, or redelivery of an unfinished transaction.
    case purchased(requestID: RequestID?, transaction: StoreTransaction)
    /// A transaction failed verification (or could not be verified yet: `error.code ==
    /// .verificationRetryable`, and a `purchased` event follows once it is). It is neither granted nor
    /// finished, and its id is not one to finish: `finish` refuses it (`notDelivered`) until it is told as
    /// `purchased`. It ends a payment; during a restore it carries no request id.
    case verificationFailed(requestID: RequestID?, transaction: StoreTransaction, error: StoreError)
    /// A purchase the grant ledger granted and finished (for products registered with the ledger,
    /// instead of `purchased`): show it, there is nothing left to do.
    case granted(requestID: RequestID?, transaction: StoreTransaction, grant: Grant)
    /// The user cancelled the payment: nothing was charged. Not a failure.
    case cancelled(requestID: RequestID, productID: String)
    /// The payment failed. Nothing was charged, unless `error` says otherwise: a charge the library could not
    /// record or grant comes back at the next launch (as an unfinished purchase), and one answered with a transaction
    /// the ledger granted before is refused with `wrongState` (the store's ids restarted).
    case failed(requestID: RequestID, productID: String, error: StoreError)
    /// The payment waits for approval (Ask to Buy). A later `purchased` or `declined` event carries the outcome;
    /// over StoreKit a decline is told as nothing (StoreKit tells no app of one).
    case deferred(requestID: RequestID, productID: String)
    /// A deferred payment was declined: nothing was charged. The local store's only.
    case declined(productID: String)
    /// A product the user owns, found by a restore.
    case restored(requestID: RequestID, transaction: StoreTransaction)
    /// The restore is over: how many transactions it restored, or why it failed.
    case restoreFinished(requestID: RequestID, result: Result<Int, StoreError>)
    /// The App Store revoked a transaction (a refund): take back what it granted, keyed by its id. Told exactly
    /// once to a handler that returned (its grant in the ledger taken back once): again at the next launch if the
    /// handler did not return (or the store closed, or the process ended, before it did).
    case revoked(transaction: StoreTransaction)
    /// An auto-renewable subscription ended without renewing: it no longer entitles the user.
    case expired(transaction: StoreTransaction)
    /// The user started a purchase of `product` in the App Store, outside the game. The game decides:
    /// continue now (`requestPayment` for it), later (keep it), or not at all (ignore it). `offer` is the
    /// subscription offer the user chose there (StoreKit: `PurchaseIntent.offer`, iOS 18 and macOS 15), else
    /// `nil`: Apple documents it as a win-back offer, paid for with `PaymentRequest.winBackOfferID` set to its id.
    /// C: `iosiap_event.intent_offer_type`, `intent_offer_id`.
    case purchaseIntent(product: StoreProduct, offer: TransactionOffer?)
    /// At launch, a transaction the journal holds unfinished could not be read (its stored copy is damaged)
    /// and the store no longer holds it, so it cannot be delivered again. Its row stays in the journal;
    /// `transactionID` and `productID` say which purchase it was (for support, or to finish it and hear of
    /// it no more). Told at every launch while the row is unfinished.
    case journalRowUnreadable(transactionID: UInt64, productID: String, error: StoreError)
    /// A refund request ended: the user sent it (`.success(.submitted)`; a refund Apple grants later arrives as
    /// `revoked`), closed the sheet (`.success(.cancelled)`, not a failure), or it could not be made (`.failure`).
    case refundRequestFinished(requestID: RequestID, transactionID: UInt64, result: Result<RefundRequestOutcome, StoreError>)
    /// The manage subscriptions sheet `requestID` showed closed, or could not be shown (`error`): refresh what the
    /// game shows. What the user changed there arrives as its own events (an `expired` later, a plan change as
    /// `purchased`).
    case manageSubscriptionsClosed(requestID: RequestID, error: StoreError?)
    /// The App Store has a message for the user (a price increase to agree to, a billing issue, a win-back
    /// offer), held back so that nothing covers the game: show it when it suits the game with
    /// `PurchaseStore.displayMessage(id:uiContext:)`, or ignore it (StoreKit offers it again at a later launch).
    case storeKitMessage(message: StoreMessage)
    /// The user's App Store storefront changed (ISO 3166-1 alpha-3): prices and availability may differ, so
    /// request the products again.
    case storefrontChanged(storefront: String)

    /// The request this event answers, if any.
    public var requestID: RequestID? {
        switch self {
        case .refundRequestFinished(let id, _, _), .manageSubscriptionsClosed(let id, _):
            id
        case .productsReceived(let id, _, _), .productsFailed(let id, _), .purchasing(let id, _, _),
             .cancelled(let id, _), .failed(let id, _, _), .deferred(let id, _), .restored(let id, _),
             .restoreFinished(let id, _):
            id
        case .purchased(let id, _), .granted(let id, _, _), .verificationFailed(let id, _, _):
            id
        case .declined, .revoked, .expired, .purchaseIntent, .journalRowUnreadable, .storeKitMessage, .storefrontChanged:
            nil
        }
    }

    /// Whether this event ends its request.
    public var isTerminal: Bool {
        switch self {
        case .refundRequestFinished, .manageSubscriptionsClosed:
            true
        case .productsReceived, .productsFailed, .purchased, .granted, .cancelled, .failed, .deferred, .restoreFinished:
            true
        case .verificationFailed(let id, _, _):
            id != nil
        case .purchasing, .restored, .declined, .revoked, .expired, .purchaseIntent, .journalRowUnreadable,
             .storeKitMessage, .storefrontChanged:
            false
        }
    }
}
