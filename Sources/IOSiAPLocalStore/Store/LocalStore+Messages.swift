#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// App Store messages: raised, delivered to the game, displayed.
extension LocalStore {
    /// Raises an App Store message about subscription `productID` (StoreKit: a `Message` with that reason): the
    /// game running on this state directory receives `storeKitMessage` within a second, or else the next game to
    /// open it; it waits, and comes again at each launch, until the game displays it. A win-back offer message
    /// may name one of the product's win-back offers. `iosiap-store message`.
    @discardableResult
    public func sendMessage(_ reason: StoreMessage.Reason, productID: String, offerID: String? = nil) throws(StoreError) -> LocalStoreMessage {
        guard let item = catalog.product(id: productID) else {
            throw StoreError(.unknownProduct, "product '\(productID)' is not in the catalog")
        }
        if reason != .generic, item.subscription == nil {
            throw StoreError(.invalidArgument, "'\(productID)' is not an auto-renewable subscription: a \(reason) message is about one")
        }
        if let offerID {
            guard reason == .winBackOffer else { throw StoreError(.invalidArgument, "only a win-back offer message names an offer") }
            guard item.subscription?.winBackOffers.contains(where: { $0.terms.id == offerID }) == true else {
                throw StoreError(.invalidOfferIdentifier, "'\(productID)' has no win-back offer '\(offerID)'")
            }
        }
        let id = try state.withLock { state throws(StoreError) in
            try state.addMessage(reason, productID: productID, offerID: offerID, at: now())
        }
        try advanceTime()
        guard let message = try messages().first(where: { $0.id == id }) else {
            throw StoreError(.storageFailure, "message \(id) vanished right after it was written")
        }
        return message
    }

    /// Every App Store message raised, oldest first, with when the game displayed it.
    public func messages() throws(StoreError) -> [LocalStoreMessage] {
        try state.withLock { state throws(StoreError) in try state.messages() }
    }

    /// Records that the game displayed message `id` (the local store shows nothing); a message must have been
    /// delivered to this game and not displayed yet.
    public func displayMessage(id: String, uiContext: UIContext?) throws(StoreError) {
        // Matched as given, as StoreKit's backend matches ids: "+3" or "03" is no id a game was told.
        guard let number = Int64(id), String(number) == id, clockwork.toldMessages.withLock({ $0.contains(number) }) else {
            throw StoreError(.invalidArgument, "no App Store message '\(id)' was delivered to this game")
        }
        let displayed = try state.withLock { state throws(StoreError) in try state.markMessageDisplayed(number, at: now()) }
        guard displayed else { throw StoreError(.wrongState, "App Store message \(id) was displayed already") }
    }
}
