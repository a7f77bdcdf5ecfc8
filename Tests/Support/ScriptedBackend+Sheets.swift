import IOSiAPCore

/// The refund request and manage subscriptions sheets of the scripted store: they close at once (a refund
/// request is submitted), or stay open from `holdSheets` until `closeSheets`.
extension ScriptedBackend {
    /// Keeps the sheets shown from now on open until `closeSheets`.
    public func holdSheets() { sheetGate.withLock { $0 = $0 ?? [] } }

    /// Closes the open sheets; later ones close at once.
    public func closeSheets() {
        let open = sheetGate.withLock { gate in
            defer { gate = nil }
            return gate ?? []
        }
        open.forEach { $0.resume() }
    }

    /// How many sheets are open.
    public var openSheets: Int { sheetGate.withLock { $0?.count ?? 0 } }

    /// How many sheets have closed and returned to the store (their call of the backend has returned).
    public var closedSheets: Int { sheetsReturned.withLock { $0 } }

    public func beginRefundRequest(transactionID: UInt64, uiContext: UIContext?) async throws(StoreError) -> RefundRequestOutcome {
        await waitWhileSheetsHeld()
        return .submitted
    }

    public func showManageSubscriptions(uiContext: UIContext?) async throws(StoreError) {
        await waitWhileSheetsHeld()
    }

    private func waitWhileSheetsHeld() async {
        await withCheckedContinuation { continuation in
            let closed = sheetGate.withLock { gate in
                gate?.append(continuation)
                return gate == nil
            }
            if closed { continuation.resume() }
        }
        sheetsReturned.withLock { $0 += 1 }
    }
}
