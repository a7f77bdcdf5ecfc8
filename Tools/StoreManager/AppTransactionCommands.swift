import Foundation
import IOSiAPCore
import IOSiAPLocalStore

/// The App Transaction's commands: QA sets the version the user first got (a paid-to-free migration), and
/// looks at what the game would receive.
let appTransactionCommands: [Command] = [
    Command(name: "app-version", arguments: "ORIGINAL [CURRENT]",
            help: "Sets the app version the user first got (App Transactions' originalAppVersion), and the current one.") { store, args, out in
        let original = try argument(args, 0, "ORIGINAL")
        try store.setOriginalAppVersion(original, appVersion: args.count > 1 ? args[1] : nil)
        out.done("original app version \(original)", [:])
    },
    Command(name: "app-transaction", arguments: "",
            help: "Shows the App Transaction the game receives now: its fields and, last, its JWS.") { store, _, out in
        let app = try store.signAppTransaction()
        func milliseconds(_ date: Date) -> String { String(Int64((date.timeIntervalSince1970 * 1000).rounded(.down))) }
        out.table(["field", "value"], [
            ["environment", app.environment.rawValue], ["bundleId", app.bundleID], ["appVersion", app.appVersion],
            ["originalAppVersion", app.originalAppVersion], ["originalPurchaseDate", milliseconds(app.originalPurchaseDate)],
            ["signedDate", milliseconds(app.signedDate)], ["appTransactionId", app.appTransactionID ?? ""],
            ["originalPlatform", app.originalPlatform ?? ""], ["jws", app.signedJWS],
        ])
    },
]
