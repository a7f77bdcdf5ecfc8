#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// Subscription renewal date extensions, as the App Store Server API makes them (`RenewalDateExtending`).
extension LocalStore {
    /// Extends a subscription's current period by `days` days (1…90), as the App Store Server API's Extend a
    /// Subscription Renewal Date does, under Apple's rules (`RenewalExtender`): the subscription `originalTransactionID`
    /// names must be active and paid, and be extended at most twice in 365 days; a repeated `requestIdentifier`
    /// answers its first result without extending again. Its newest transaction is re-signed with the later end,
    /// and a game on the state directory receives it as a `purchased` update (its record learns the new end).
    public func extendRenewalDate(originalTransactionID: UInt64, days: Int,
                                  requestIdentifier: String) throws(StoreError) -> RenewalExtensionOutcome {
        try RenewalExtender(clockwork: clockwork).extend(originalTransactionID, days: days, requestIdentifier: requestIdentifier)
    }

    /// Extends the renewal date of every active subscriber of `productID` (in `storefronts`, alpha-3 codes;
    /// `nil`: all) by `days` days, as Extend Subscription Renewal Dates for All Active Subscribers does; at once.
    public func extendRenewalDates(productID: String, days: Int, requestIdentifier: String,
                                   storefronts: Set<String>? = nil) throws(StoreError) -> MassRenewalExtension {
        try RenewalExtender(clockwork: clockwork).extendAll(productID: productID, days: days, requestIdentifier: requestIdentifier,
                                                            storefronts: storefronts)
    }

    /// The request to extend every subscriber of `productID` that `requestIdentifier` made, or `nil`.
    public func massRenewalExtension(productID: String, requestIdentifier: String) throws(StoreError) -> MassRenewalExtension? {
        try RenewalExtender(clockwork: clockwork).status(productID: productID, requestIdentifier: requestIdentifier)
    }

    /// Extends a subscription's current period by `days` days with a new request (a control, for tests and QA):
    /// `wrongState` when Apple's rules refuse it. Returns its newest transaction, re-signed.
    @discardableResult
    public func extendRenewalDate(originalTransactionID: UInt64, days: Int) throws(StoreError) -> StoreTransaction {
        let outcome = try extendRenewalDate(originalTransactionID: originalTransactionID, days: days, requestIdentifier: UUID().uuidString)
        let made: RenewalExtension
        switch outcome {
        case .extended(let done): made = done
        case .ineligible(let why): throw StoreError(.wrongState, "not extended: \(why)")
        case .maximumReached: throw StoreError(.wrongState, "\(originalTransactionID) was extended twice within a year already")
        case .familyShared: throw StoreError(.wrongState, "\(originalTransactionID) is family-shared: only its purchaser's is extended")
        }
        guard let extended = try state.withLock({ state throws(StoreError) in try state.transaction(id: made.transactionID) }) else {
            throw StoreError(.wrongState, "\(originalTransactionID)'s extended transaction \(made.transactionID) is gone")
        }
        return extended
    }
}
