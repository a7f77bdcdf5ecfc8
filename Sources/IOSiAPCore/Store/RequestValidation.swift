/// The checks every request passes before anything reaches a store: bad input is refused with a clear
/// error and charges nothing.
enum RequestValidation {
    /// Product ids longer than this (in UTF-8 bytes) are refused (C: `IOSIAP_MAX_PRODUCT_ID_LENGTH`).
    static let maximumIdentifierLength = 255

    static func validateProductID(_ id: String) throws(StoreError) {
        if id.isEmpty {
            throw StoreError(.invalidArgument, "product id is empty")
        }
        if id.utf8.count > maximumIdentifierLength {
            throw StoreError(.stringTooLong,
                             "product id is \(id.utf8.count) bytes long; at most \(maximumIdentifierLength) are allowed")
        }
        if id.utf8.contains(0) {
            throw StoreError(.invalidArgument, "product id contains a NUL character")
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
        return product
    }
}
