import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPServerAPI
import IOSiAPTransactionManager
import IOSiAPVerification

extension Command {
    /// A command that also needs the state directory (the App Store Server API's keys are kept there).
    init(name: String, arguments: String, help: String,
         inDirectory: @escaping @Sendable (LocalStore, StateDirectory, [String], Output) throws -> Void) {
        self.init(name: name, arguments: arguments, help: help, run: { _, _, _ in }, runInDirectory: inDirectory)
    }
}

/// The App Store Server API: `serve` and the keys its bearer tokens are checked with.
let serverAPICommands: [Command] = [
    Command(name: "serve", arguments: "[--port N] [--listen ADDRESS]",
            help: "Serves the App Store Server API and the transaction manager's page on 127.0.0.1 (port 0 or none:\n"
                + "a free one; --listen: another IPv4 address of this machine, reachable from others) until interrupted.\n"
                + "The page (at the address printed, whose #token= part is its key) shows and controls the store, live.\n"
                + "The Server API (/inApps/...): "
                + "Get Transaction Info, Get Transaction History (v1, v2), Get All Subscription Statuses, Get Refund History,\n"
                + "Get App Transaction Info, Send Consumption Information, Extend a Subscription Renewal Date (and for all\n"
                + "active subscribers of a product, with the status of such a request),\n"
                + "Request a Test Notification and its status.\n"
                + "Requests need a bearer token signed with a key added by server-key add, and a Host naming this server.\n"
                + "While it serves, the store's clock moves as in a running game: subscriptions renew, expire and retry\n"
                + "billing on time at the store's time rate, and are notified. Prints the URLs first.") { store, directory, args, _ in
        var port: UInt16 = 0
        var address = "127.0.0.1"
        var options = args[...]
        while let option = options.popFirst() {
            guard ["--port", "--listen"].contains(option) else { throw UsageError(message: "unexpected '\(option)'") }
            guard let value = options.popFirst() else { throw UsageError(message: "missing \(option == "--port" ? "N" : "ADDRESS")") }
            if option == "--port" { port = try number(value, "N") } else { address = value }
        }
        // Read at each request through the store's own state layer, as the other commands read it: a game
        // may be buying on the same state directory meanwhile.
        let history: @Sendable () throws(StoreError) -> [ServerAPITransaction] = { () throws(StoreError) in
            try store.history().map(ServerAPITransaction.init)
        }
        // Notifications: this process sends the state directory's outbox too (with a game running, whichever
        // leases a notification first sends it), and records what changes while no game runs.
        try store.startNotificationSender()
        // No game reads this process's updates (the game learns what serve changes from the state): not kept.
        store.discardUpdates()
        // Time moves as in a running game: renewals, ends, billing retries and grace periods happen (and are
        // notified) on time, also while no game runs and no control is used.
        let clock = store.startClock()
        let notifications = ServerNotifications(store: store)
        // Why a bearer token was refused goes to this log only: the client gets the same 401 whatever the reason.
        let refusals: @Sendable (String) -> Void = { reason in
            FileHandle.standardError.write(Data("iosiap-store: refused a Server API request: \(reason)\n".utf8))
        }
        let api = ServerAPI(bundleID: store.bundleID, environment: store.environment,
                            keys: { () throws(StoreError) in try ServerAPIKeys.load(from: directory) },
                            transactions: history, notifications: notifications,
                            extensions: store, pages: store,
                            appTransaction: { () throws(StoreError) in try store.signAppTransaction() },
                            allowedHosts: ServerAPI.hostNames(listeningOn: address), refusals: refusals)
        // One port: /inApps/... is the Server API (bearer tokens), the rest the page (its own per-run token).
        let page = TransactionManagerPage(store: store, listenAddress: address)
        let server = try ServerAPIHTTPServer(address: address, port: port, handler: TransactionManagerPage.route(api: api, page: page))
        if address != "127.0.0.1" {
            FileHandle.standardError.write(Data(("iosiap-store: listening on \(address): whoever has the page's address below (its token) "
                + "can change the store\n").utf8))
        }
        if try ServerAPIKeys.load(from: directory).isEmpty {
            FileHandle.standardError.write(Data("iosiap-store: no server key yet: every request gets 401 until one is added (server-key add)\n".utf8))
        }
        // Unbuffered: a script waiting for the URL reads it at once.
        FileHandle.standardOutput.write(Data(("App Store Server API for \(store.bundleID) on http://\(address):\(server.port)\n"
            + "Transaction manager on \(page.address(host: address, port: server.port))\n").utf8))
        waitForTermination()
        clock.stop()
        store.stopNotificationSender()
        server.stop()
    },
    Command(name: "notifications", arguments: "[url URL|off | list]",
            help: "Shows or sets the URL App Store Server Notifications V2 are POSTed to: purchases, renewals, refunds,\n"
                + "renewal changes, expiries of the state directory (also those made while nothing runs), and TEST on request.\n"
                + "They are recorded in the state directory from the moment a URL is set and sent, with retries, by serve\n"
                + "or a running game; `notifications list` lists them and their send attempts.") { store, _, args, out in
        if args.isEmpty {
            out.table(["setting", "value"], [["url", try store.notificationURL()?.absoluteString ?? "off"]])
            return
        }
        if args == ["list"] {
            try store.recordNotifications()
            out.table(["notificationUUID", "type", "subtype", "transactionId", "delivered", "attempts"], try store.notificationRecords().map {
                [$0.notificationUUID, $0.notificationType, $0.subtype ?? "", $0.transactionID.map(String.init) ?? "",
                 $0.isDelivered ? "yes" : ($0.isPending ? "pending" : "no"), $0.sendAttempts.map(\.sendAttemptResult).joined(separator: " ")]
            })
            return
        }
        guard try argument(args, 0, "url") == "url" else { throw UsageError(message: "expected url, not '\(args[0])'") }
        let value = try argument(args, 1, "URL|off")
        try store.setNotificationURL(value == "off" ? nil : value)
        out.done("notification URL \(value == "off" ? "cleared" : "set")", [:])
    },
    Command(name: "server-key", arguments: "add KEY_ID ISSUER_ID KEY.pem | remove KEY_ID | list",
            help: "Manages the keys App Store Server API bearer tokens may be signed with: a P-256 public key in PEM,\n"
                + "or App Store Connect's .p8 private key (only its public half is kept), with its key id and issuer id.") { _, directory, args, out in
        switch try argument(args, 0, "add|remove|list") {
        case "add":
            let file = try argument(args, 3, "KEY.pem")
            guard let pem = try? String(contentsOfFile: file, encoding: .utf8) else { throw UsageError(message: "cannot read '\(file)'") }
            try ServerAPIKeys.add(keyID: try argument(args, 1, "KEY_ID"), issuerID: try argument(args, 2, "ISSUER_ID"), pem: pem, to: directory)
            out.done("server key \(args[1]) added", [:])
        case "remove":
            guard try ServerAPIKeys.remove(keyID: try argument(args, 1, "KEY_ID"), from: directory) else {
                throw StoreError(.invalidArgument, "no server key '\(args[1])'")
            }
            out.done("server key \(args[1]) removed", [:])
        case "list":
            out.table(["keyId", "issuerId"], try ServerAPIKeys.load(from: directory).map { [$0.keyID, $0.issuerID] })
        case let other:
            throw UsageError(message: "expected add, remove or list, not '\(other)'")
        }
    },
]

/// Blocks until SIGINT or SIGTERM.
func waitForTermination() {
    let stop = DispatchSemaphore(value: 0)
    let sources = [SIGINT, SIGTERM].map { signalNumber in
        signal(signalNumber, SIG_IGN)  // the dispatch source is told instead of the default action
        let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
        source.setEventHandler { stop.signal() }
        source.resume()
        return source
    }
    stop.wait()
    sources.forEach { $0.cancel() }
}
