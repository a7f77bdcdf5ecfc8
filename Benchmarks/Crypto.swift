import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPVerification

/// Rows 1 and 2: what a verified purchase and a verification cost, against OpenSSL's own ECDSA in this
/// process (the physical limit: a purchase needs one P-256 signature and one verification).
enum CryptoBenchmarks {
    static func rawSignAndVerifyRate(_ count: Int) throws -> (signAndVerify: Double, verify: Double) {
        let chain = try SigningChain.create()
        let message = Array(repeating: UInt8(ascii: "x"), count: 1500)
        let key = try chain.leaf.publicKey()
        let signature = try chain.leafKey.signES256(message)
        let both = try rate(count) {
            let signed = try chain.leafKey.signES256(message)
            precondition(key.verifyES256(signature: signed, message: message))
        }
        let verify = rate(count * 2) { precondition(key.verifyES256(signature: signature, message: message)) }
        return (both, verify)
    }

    static func verificationRate(_ count: Int) throws -> Double {
        let chain = try SigningChain.create()
        let verifier = try SignedDataVerifier(trustedRoots: [chain.root.der], bundleID: "com.iosiap.bench", environment: .sandbox)
        let signed = try (0..<count).map { index in
            var payload = SignedTransactionPayload()
            payload.transactionId = String(index)
            payload.bundleId = "com.iosiap.bench"
            payload.environment = "Sandbox"
            payload.productId = "coins"
            payload.signedDate = Milliseconds(Date())
            return try chain.sign(json: payload)
        }
        _ = try verifier.verifyTransaction(signed[0])  // the chain is checked once, then cached
        var index = 0
        return try rate(count) {
            _ = try verifier.verifyTransaction(signed[index])
            index += 1
        }
    }

    /// Purchases per second through the whole path: request, the local store charges and signs, the
    /// on-device verifier checks, the event is polled, the ledger grants and finishes.
    static func verifiedPurchaseRate(_ count: Int, catalog: URL) async throws -> Double {
        let folder = scratchDirectory("purchase")
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = try StateDirectory(folder)
        let local = try LocalStore(catalog: Catalog.load(contentsOf: catalog), stateDirectory: state, bundleID: "com.iosiap.bench")
        let store = try PurchaseStore(backend: local, stateDirectory: state, verifier: OnDeviceVerifier(try local.makeVerifier()))
        try store.registerGrant(.currency("coins", amountPerUnit: 100), for: "com.iosiap.example.coins_100")
        try await waitForTerminal(store, try store.requestProducts(["com.iosiap.example.coins_100"]))
        let start = ContinuousClock.now
        for _ in 0..<count {
            let events = try await waitForTerminal(store, try store.requestPayment(productID: "com.iosiap.example.coins_100"))
            guard case .granted = events.last else { throw StoreError(.systemError, "purchase ended in \(events.last.map { "\($0)" } ?? "nothing")") }
        }
        let elapsed = (ContinuousClock.now - start).timeInterval
        let balance = try store.balance(of: "coins")
        precondition(balance == Int64(count) * 100)
        store.close()
        return Double(count) / elapsed
    }

    /// Polls like a fast game loop (a 20 µs frame) until the request's terminal event.
    @discardableResult
    static func waitForTerminal(_ store: PurchaseStore, _ request: RequestID) async throws -> [StoreEvent] {
        var events: [StoreEvent] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            var done = false
            store.poll { event in
                events.append(event)
                if event.requestID == request && event.isTerminal { done = true }
            }
            if done { return events }
            try await Task.sleep(for: .microseconds(20))
        }
        throw StoreError(.systemError, "no terminal event within 30 s")
    }
}
