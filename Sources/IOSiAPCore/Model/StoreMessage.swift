/// A message the App Store has for the user (StoreKit 2: `Message`), held back until the game shows it.
///
/// StoreKit shows these sheets over the app as soon as they arrive unless the app listens for them; the
/// store listens from the moment it opens, so each reaches the game as a `storeKitMessage` event instead,
/// and is shown only when the game calls `PurchaseStore.displayMessage(id:uiContext:)`.
public struct StoreMessage: Sendable, Equatable {
    /// Why the App Store sends it (StoreKit 2: `Message.Reason`). C: `iosiap_message_reason`.
    public enum Reason: Int32, Sendable, Equatable, CaseIterable {
        /// `Message.Reason.generic`: anything else the App Store wants to say.
        case generic = 0
        /// `Message.Reason.priceIncreaseConsent`: a subscription's price goes up and the user must agree.
        case priceIncreaseConsent = 1
        /// `Message.Reason.billingIssue` (iOS 16.4): a renewal could not be charged.
        case billingIssue = 2
        /// `Message.Reason.winBackOffer` (iOS 18): a lapsed subscriber may redeem a win-back offer.
        case winBackOffer = 3
    }

    /// The id to show it with: made by the store that delivered it, good while that store is open.
    public let id: String
    /// Why it was sent.
    public let reason: Reason

    public init(id: String, reason: Reason) {
        self.id = id
        self.reason = reason
    }
}
