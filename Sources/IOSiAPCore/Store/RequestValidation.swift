/// The checks every request passes before anything reaches a store: bad input is refused with a clear
/// error and charges nothing.
enum RequestValidation {
    /// Product ids longer than this (in UTF-8 bytes) are refused (C: `IOSIAP_MAX_PRODUCT_ID_LENGTH`).
    static let maximumIdentifierLength = 255

    static func validateProductID(_ id: String) throws(StoreError) {
        try validateIdentifier(id, "product id")
    }

    /// A subscription group id, as a status or eligibility query names it: the same rules as a product id.
    static func validateGroupID(_ id: String) throws(StoreError) {
        try validateIdentifier(id, "subscription group id")
    }

    private static func validateIdentifier(_ id: String, _ name: String) throws(StoreError) {
        if id.isEmpty {
            throw StoreError(.invalidArgument, "\(name) is empty")
        }
        if id.utf8.count > maximumIdentifierLength {
            throw StoreError(.stringTooLong,
                             "\(name) is \(id.utf8.count) bytes long; at most \(maximumIdentifierLength) are allowed")
        }
        if id.utf8.contains(0) {
            throw StoreError(.invalidArgument, "\(name) contains a NUL character")
        }
    }

    /// Validates a products request and returns its ids in first-seen order, each once.
    static func uniqueProductIDs(_ ids: [String]) throws(StoreError) -> [String] {
        guard !ids.isEmpty else { throw StoreError(.invalidArgument, "no product ids to request") }
        var seen = Set<String>()
        var unique: [String] = []
        for id in ids {
            try validateProductID(id)
            if seen.insert(id).inserted { unique.append(id) }
        }
        return unique
    }

    /// Validates a payment against the loaded product it names.
    static func validatePayment(_ request: PaymentRequest, product: StoreProduct?) throws(StoreError) -> StoreProduct {
        try validateProductID(request.productID)
        guard PaymentRequest.allowedQuantities.contains(request.quantity) else {
            throw StoreError(.quantityOutOfRange, "quantity \(request.quantity) is outside 1...10")
        }
        guard let product else {
            throw StoreError(.unknownProduct,
                             "product '\(request.productID)' is not among the products loaded by a products request; request it first")
        }
        if request.quantity > 1 && !product.type.allowsQuantity {
            throw StoreError(.quantityNotAllowedForProductType,
                             "quantity \(request.quantity) asked for '\(product.id)'; only consumables can be bought more than once at a time")
        }
        if let offer = request.promotionalOffer {
            try validatePromotionalOffer(offer, for: product)
        }
        if let offerID = request.winBackOfferID {
            try validateWinBackOffer(offerID, for: product, alongside: request.promotionalOffer)
        }
        return product
    }

    /// StoreKit's checks of a promotional offer before it asks the App Store: every parameter present, and
    /// an offer the product has. The signature itself is the store's to check.
    private static func validatePromotionalOffer(_ offer: SignedPromotionalOffer, for product: StoreProduct) throws(StoreError) {
        if offer.offerID.isEmpty || offer.keyID.isEmpty || offer.signature.isEmpty || offer.timestamp <= 0 {
            let missing = [offer.offerID.isEmpty ? "offer id" : nil, offer.keyID.isEmpty ? "key id" : nil,
                           offer.signature.isEmpty ? "signature" : nil, offer.timestamp <= 0 ? "timestamp" : nil]
            throw StoreError(.missingOfferParams, "promotional offer lacks its \(missing.compactMap { $0 }.joined(separator: ", "))")
        }
        try validateIdentifier(offer.offerID, "offer id")
        try validateIdentifier(offer.keyID, "key id")
        guard let subscription = product.subscription, product.type == .autoRenewable else {
            throw StoreError(.invalidOfferIdentifier,
                             "'\(product.id)' is not an auto-renewable subscription; promotional offers apply to those only")
        }
        guard subscription.promotionalOffers.contains(where: { $0.id == offer.offerID }) else {
            let known = subscription.promotionalOffers.compactMap(\.id)
            throw StoreError(.invalidOfferIdentifier,
                             "'\(product.id)' has no promotional offer '\(offer.offerID)'"
                             + (known.isEmpty ? "; it has none" : "; it has: \(known.joined(separator: ", "))"))
        }
    }

    /// StoreKit's checks of a win-back offer before it asks the App Store: one offer per payment, and an
    /// offer the product has. Eligibility is the store's to decide.
    private static func validateWinBackOffer(_ offerID: String, for product: StoreProduct,
                                             alongside promotional: SignedPromotionalOffer?) throws(StoreError) {
        try validateIdentifier(offerID, "win-back offer id")
        guard promotional == nil else {
            throw StoreError(.invalidArgument, "a payment redeems one offer: a promotional offer or a win-back offer, not both")
        }
        guard let subscription = product.subscription, product.type == .autoRenewable else {
            throw StoreError(.invalidOfferIdentifier,
                             "'\(product.id)' is not an auto-renewable subscription; win-back offers apply to those only")
        }
        guard subscription.winBackOffers.contains(where: { $0.id == offerID }) else {
            let known = subscription.winBackOffers.compactMap(\.id)
            throw StoreError(.invalidOfferIdentifier,
                             "'\(product.id)' has no win-back offer '\(offerID)'"
                             + (known.isEmpty ? "; it has none" : "; it has: \(known.joined(separator: ", "))"))
        }
    }
}
