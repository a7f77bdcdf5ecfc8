import Foundation
import IOSiAPCore
import IOSiAPLocalStore

/// The App Transaction as the game would receive it (QA sets the version the user first got with the
/// `app-version` control, shared with the page).
let appTransactionCommands: [Command] = [
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
