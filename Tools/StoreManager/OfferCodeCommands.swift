import Foundation
import IOSiAPCore
import IOSiAPLocalStore

/// The offer code command: QA plays the user entering a code in the App Store's redemption sheet (or
/// opening a code's URL). The game running on the state directory receives the purchase within a second.
let offerCodeCommands: [Command] = [
    Command(name: "redeem-code", arguments: "PRODUCT OFFER",
            help: "Redeems offer code OFFER (its codeOffers reference name) of subscription PRODUCT, as the user would in\n"
                + "the App Store: the game receives a purchase with offer type 3. Refused, charging nothing, when the\n"
                + "code's eligibility (new, existing or expired subscribers of the group) does not fit this user.") { store, args, out in
        let product = try argument(args, 0, "PRODUCT")
        let offer = try argument(args, 1, "OFFER")
        let transaction = try store.redeemOfferCode(productID: product, referenceName: offer)
        out.done("redeemed offer code \(offer) of \(product): transaction \(transaction.id)", ["transactionId": transaction.id])
    },
]
