/// The checks every request passes before anything reaches a store: bad input is refused with a clear
/// error and charges nothing.
enum RequestValidation {
    /// Product ids longer than this (in UTF-8 bytes) are refused (C: `IOSIAP_MAX_PRODUCT_ID_LENGTH`).
    static let maximumIdentifierLength = 255
    /// A promotional offer or introductory offer eligibility JWS longer than this (in UTF-8 bytes) is refused
    /// (C: `IOSIAP_MAX_OFFER_JWS_LENGTH`); the servers' JWS are well under 1 KiB.
    static let maximumOfferJWSLength = 8192

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
        if let offer = request.promotionalOfferJWS {
            guard request.promotionalOffer == nil else {
                throw StoreError(.invalidArgument, "a payment redeems one promotional offer: signed as a JWS or with the older signature, not both")
            }
            try validatePromotionalOffer(offer, for: product)
        }
        if let jws = request.introductoryOfferEligibilityJWS {
            try validateIntroductoryOfferEligibility(jws, for: product)
        }
        if let offerID = request.winBackOfferID {
            try validateWinBackOffer(offerID, for: product,
                                     alongsidePromotionalOffer: request.promotionalOffer != nil || request.promotionalOfferJWS != nil)
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
        try validateIdentifier(offer.keyID, "key id")
        try requirePromotionalOffer(offer.offerID, of: product)
    }

    /// The same checks for an offer signed as a JWS: an offer id and a JWS of a sane length. The JWS itself is
    /// the store's to check.
    private static func validatePromotionalOffer(_ offer: PromotionalOfferJWS, for product: StoreProduct) throws(StoreError) {
        if offer.offerID.isEmpty || offer.compactJWS.isEmpty {
            let missing = [offer.offerID.isEmpty ? "offer id" : nil, offer.compactJWS.isEmpty ? "JWS" : nil]
            throw StoreError(.missingOfferParams, "promotional offer lacks its \(missing.compactMap { $0 }.joined(separator: ", "))")
        }
        try validateOfferJWS(offer.compactJWS, "promotional offer JWS")
        try requirePromotionalOffer(offer.offerID, of: product)
    }

    /// An introductory offer eligibility JWS: present, of a sane length, for an auto-renewable subscription
    /// (the only products with introductory offers). The JWS itself is the store's to check.
    private static func validateIntroductoryOfferEligibility(_ jws: String, for product: StoreProduct) throws(StoreError) {
        guard !jws.isEmpty else { throw StoreError(.invalidArgument, "the introductory offer eligibility JWS is empty") }
        try validateOfferJWS(jws, "introductory offer eligibility JWS")
        guard product.type == .autoRenewable else {
            throw StoreError(.invalidArgument,
                             "'\(product.id)' is not an auto-renewable subscription; introductory offers apply to those only")
        }
    }

    private static func validateOfferJWS(_ jws: String, _ name: String) throws(StoreError) {
        guard jws.utf8.count <= maximumOfferJWSLength else {
            throw StoreError(.stringTooLong,
                             "\(name) is \(jws.utf8.count) bytes long; at most \(maximumOfferJWSLength) are allowed")
        }
    }

    /// `offerID` names one of the product's promotional offers.
    private static func requirePromotionalOffer(_ offerID: String, of product: StoreProduct) throws(StoreError) {
        try validateIdentifier(offerID, "offer id")
        guard let subscription = product.subscription, product.type == .autoRenewable else {
            throw StoreError(.invalidOfferIdentifier,
                             "'\(product.id)' is not an auto-renewable subscription; promotional offers apply to those only")
        }
        guard subscription.promotionalOffers.contains(where: { $0.id == offerID }) else {
            let known = subscription.promotionalOffers.compactMap(\.id)
            throw StoreError(.invalidOfferIdentifier,
                             "'\(product.id)' has no promotional offer '\(offerID)'"
                             + (known.isEmpty ? "; it has none" : "; it has: \(known.joined(separator: ", "))"))
        }
    }

    /// StoreKit's checks of a win-back offer before it asks the App Store: one offer per payment, and an
    /// offer the product has. Eligibility is the store's to decide.
    private static func validateWinBackOffer(_ offerID: String, for product: StoreProduct,
                                             alongsidePromotionalOffer: Bool) throws(StoreError) {
        try validateIdentifier(offerID, "win-back offer id")
        guard !alongsidePromotionalOffer else {
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
