import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPServerAPI

/// Row 10: a game's purchases on a 10,000-transaction history with a notification URL set (its sender looking
/// for changes after each purchase and POSTing each notification to a loopback endpoint) against the same game
/// with no URL, in rounds that alternate in this run.
enum NotificationLoadBenchmarks {
    struct Run {
        /// Each purchase's latency in seconds (the request to its `purchased` event), sorted.
        var latencies: [Double]
        /// Notifications recorded meanwhile, one a purchase (the sender POSTs at most 10 a second).
        var recorded = 0

        var average: Double { latencies.isEmpty ? 0 : latencies.reduce(0, +) / Double(latencies.count) }

        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
    }

    static func run(historySize: Int, seconds: Double, catalog: URL) async throws -> (withURL: Run, withoutURL: Run) {
        let folder = try StorageBenchmarks.populatedState(historySize, signedLength: 3700)
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = try StateDirectory(folder)
        let endpoint = try ServerAPIHTTPServer(port: 0) { _ in
            ServerAPIResponse(status: 200, body: [], contentType: "text/plain")
        }
        defer { endpoint.stop() }
        let local = try LocalStore(catalog: Catalog.load(contentsOf: catalog), stateDirectory: state)
        let game = try PurchaseStore(backend: local, stateDirectory: state)  // starts the notification sender
        defer { game.close() }
        try await CryptoBenchmarks.waitForTerminal(game, try game.requestProducts(["com.iosiap.example.coins_100"]))

        let rounds = max(1, Int(seconds.rounded(.up)))
        let slice = seconds / Double(rounds)
        var with: [Double] = []
        var without: [Double] = []
        var recorded = 0
        for _ in 0..<rounds {
            try local.setNotificationURL(nil)
            without += try await buy(game, seconds: slice)
            try local.setNotificationURL("http://127.0.0.1:\(endpoint.port)/n")
            // The sender's first look after the URL is set reads the whole history; the purchases after it are timed.
            let warmUp = try local.notificationRecords().count
            _ = try await buy(game, count: 1)
            let deadline = ContinuousClock.now + .seconds(10)
            while try local.notificationRecords().count == warmUp, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            let before = try local.notificationRecords().count
            let bought = try await buy(game, seconds: slice)
            with += bought
            // Each purchase is notified once: wait for the sender's last looks (it lags behind a buying game).
            let settled = ContinuousClock.now + .seconds(5)
            while try local.notificationRecords().count < before + bought.count, ContinuousClock.now < settled {
                try await Task.sleep(for: .milliseconds(10))
            }
            recorded += try local.notificationRecords().count - before
        }
        return (Run(latencies: with.sorted(), recorded: recorded), Run(latencies: without.sorted()))
    }

    /// The game buys and finishes consumables for `seconds` (or `count` of them), one every `pace` at most (a game
    /// buying a hundred times a second, not flat out: what is measured is whether sending holds a purchase up, not
    /// how two cores are shared by a loop that does nothing else); each one's latency.
    static func buy(_ game: PurchaseStore, seconds: Double = .infinity, count: Int = .max,
                    pace: Duration = .milliseconds(10)) async throws -> [Double] {
        var latencies: [Double] = []
        let start = ContinuousClock.now
        while (ContinuousClock.now - start).timeInterval < seconds, latencies.count < count {
            let began = ContinuousClock.now
            let events = try await CryptoBenchmarks.waitForTerminal(game, try game.requestPayment(productID: "com.iosiap.example.coins_100"))
            guard case .purchased(_, let transaction) = events.last else { throw StoreError(.systemError, "purchase failed") }
            latencies.append((ContinuousClock.now - began).timeInterval)
            try game.finish(transactionID: transaction.id)
            try await Task.sleep(until: began + pace, clock: .continuous)
        }
        return latencies
    }
}
