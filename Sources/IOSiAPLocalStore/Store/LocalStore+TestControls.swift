#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// StoreKitTest's settings controls (SKTestSession): Ask to Buy, simulated errors, storefront, locale, time rate, billing.
extension LocalStore {
    /// The settings in force: the catalog's with the controls' overrides.
    public func currentSettings() throws(StoreError) -> LocalStoreSettings {
        try clockwork.settings()
    }

    /// Turns Ask to Buy on or off (SKTestSession `askToBuyEnabled`).
    public func setAskToBuyEnabled(_ enabled: Bool) throws(StoreError) {
        try setOverride(LocalStoreSettings.Key.askToBuy, enabled ? "1" : "0")
    }

    /// Interrupts purchases on or off (SKTestSession `interruptedPurchasesEnabled`): an interrupted purchase
    /// ends in `deferred` until `resolveInterruptedPurchase`, then reaches the game as `purchased`.
    public func setInterruptedPurchasesEnabled(_ enabled: Bool) throws(StoreError) {
        try setOverride(LocalStoreSettings.Key.interrupted, enabled ? "1" : "0")
    }

    /// Makes `api` fail with `error`, or stops it failing with `nil`
    /// (StoreKitTest `setSimulatedError(_:forAPI:)`).
    public func setSimulatedError(_ error: StoreErrorCode?, for api: FailableAPI) throws(StoreError) {
        try setOverride(LocalStoreSettings.Key.simulatedError(api), error.map { String($0.rawValue) } ?? "none")
    }

    func failIfSimulated(_ api: FailableAPI, _ settings: LocalStoreSettings) throws(StoreError) {
        if let error = simulatedError(api, settings) { throw error }
    }

    private func simulatedError(_ api: FailableAPI, _ settings: LocalStoreSettings) -> StoreError? {
        settings.simulatedErrors[api].map { StoreError($0, "simulated \(api.catalogName) error: \($0.summary)") }
    }

    /// A simulated verification error (`setSimulatedError(_:for: .verification)`) fails every transaction's
    /// verification with that code, as StoreKitTest makes `VerificationResult` unverified.
    public func forcedVerificationFailure(of transaction: StoreTransaction) -> StoreError? {
        (try? currentSettings()).flatMap { simulatedError(.verification, $0) }
    }

    /// Sets what the simulated user answers in the purchase sheet.
    public func setPurchaseDialogResponse(_ response: PurchaseDialogResponse) throws(StoreError) {
        try setOverride(LocalStoreSettings.Key.purchaseDialog, response.rawValue)
    }

    /// Changes the storefront (SKTestSession `storefront`): prices use its currency from the next request. A game
    /// running on this state directory receives `storefrontChanged` when it differs from the one in force (from
    /// another process, such as `iosiap-store storefront`, within a second).
    public func setStorefront(_ code: String) throws(StoreError) {
        let storefront = try Self.knownStorefront(code)
        try state.withLock { state throws(StoreError) in
            try state.setOverride(LocalStoreSettings.Key.storefront, storefront.code)
            try clockwork.tellStorefrontChange(in: state)
        }
    }

    private static func knownStorefront(_ code: String) throws(StoreError) -> AppStoreStorefront {
        guard let storefront = AppStoreStorefront(code: code) else {
            throw StoreError(.invalidArgument, AppStoreStorefront.unknownMessage(code))
        }
        return storefront
    }

    /// Changes the locale titles and prices are shown in (SKTestSession `locale`).
    public func setLocale(_ locale: String) throws(StoreError) {
        guard LocaleIdentifier.isWellFormed(locale) else {
            throw StoreError(.invalidArgument, "malformed locale '\(locale)': a language with an optional script and region, "
                             + "e.g. en_US, de or zh_Hans_CN")
        }
        try setOverride(LocalStoreSettings.Key.locale, locale)
    }

    /// The locale override, or the catalog's (`nil`), for a store being opened.
    func setLocaleOverride(_ locale: String?) throws(StoreError) {
        if let locale { try setLocale(locale) } else { try setOverride(LocalStoreSettings.Key.locale, nil) }
    }

    /// The storefront override, or the catalog's (`nil`), for a store being opened: the game opens with it, so
    /// it is not told as a change.
    func setStorefrontOverride(_ code: String?) throws(StoreError) {
        let storefront = try code.map(Self.knownStorefront)
        try state.withLock { state throws(StoreError) in
            try state.setOverride(LocalStoreSettings.Key.storefront, storefront?.code)
            try clockwork.rememberStorefront(in: state)
        }
    }

    /// Sets how fast subscription time runs (SKTestSession `timeRate`).
    public func setTimeRate(_ rate: TimeRate) throws(StoreError) {
        try setOverride(LocalStoreSettings.Key.timeRate, String(rate.rawValue))
    }

    /// Makes renewals fail to charge (SKTestSession `shouldEnterBillingRetryOnRenewal`): a subscription whose
    /// period ends enters billing retry instead of renewing, and ends (`expired`) unless a grace period keeps it.
    /// The App Store keeps retrying for 60 days: turned off within them, the next retry (the next tick)
    /// renews the subscription from that moment; after them the subscription has ended for good.
    public func setBillingIssuesEnabled(_ enabled: Bool) throws(StoreError) {
        try setOverride(LocalStoreSettings.Key.billingIssues, enabled ? "1" : "0")
    }

    /// Lets a subscription in billing retry stay active through a grace period (SKTestSession
    /// `billingGracePeriodIsEnabled`).
    public func setBillingGracePeriodEnabled(_ enabled: Bool) throws(StoreError) {
        try setOverride(LocalStoreSettings.Key.gracePeriod, enabled ? "1" : "0")
    }

    /// Drops every override: the catalog's settings apply again (SKTestSession `resetToDefaultState`,
    /// without touching transactions).
    public func resetSettings() throws(StoreError) {
        try state.withLock { state throws(StoreError) in
            try state.database.execute("DELETE FROM settings")
        }
        try rememberCatalog()
    }

    /// Records this store's catalog file and bundle id as the ones the state directory was last opened with
    /// (`remembered(in:)`), as a game's store does when it starts listening: `iosiap-store` given `--catalog`
    /// once opens the directory with it afterwards.
    public func rememberCatalog() throws(StoreError) {
        try setOverride(LocalStoreSettings.Key.catalogPath, catalog.sourcePath)
        try setOverride(LocalStoreSettings.Key.bundleID, bundleID)
    }

    private func setOverride(_ key: String, _ value: String?) throws(StoreError) {
        try state.withLock { state throws(StoreError) in try state.setOverride(key, value) }
    }
}
