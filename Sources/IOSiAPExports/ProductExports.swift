import CIOSiAP
import IOSiAPCore

// Product accessors: the strings belong to the product, which its store keeps until it closes.

@c(iosiap_product_id)
public func iosiap_product_id(_ product: OpaquePointer?) -> UnsafePointer<CChar>? {
    ProductHandle.from(product)?.id
}

@c(iosiap_product_type_of)
public func iosiap_product_type_of(_ product: OpaquePointer?) -> CInt {
    ProductHandle.from(product)?.product.type.rawValue ?? -1
}

@c(iosiap_product_title)
public func iosiap_product_title(_ product: OpaquePointer?) -> UnsafePointer<CChar>? {
    ProductHandle.from(product)?.title
}

@c(iosiap_product_description)
public func iosiap_product_description(_ product: OpaquePointer?) -> UnsafePointer<CChar>? {
    ProductHandle.from(product)?.description
}

@c(iosiap_product_price)
public func iosiap_product_price(_ product: OpaquePointer?) -> UnsafePointer<CChar>? {
    ProductHandle.from(product)?.price
}

@c(iosiap_product_currency_code)
public func iosiap_product_currency_code(_ product: OpaquePointer?) -> UnsafePointer<CChar>? {
    ProductHandle.from(product)?.currencyCode
}

@c(iosiap_product_display_price)
public func iosiap_product_display_price(_ product: OpaquePointer?) -> UnsafePointer<CChar>? {
    ProductHandle.from(product)?.displayPrice
}

@c(iosiap_product_subscription_period)
public func iosiap_product_subscription_period(_ outValue: UnsafeMutablePointer<CInt>?,
                                               _ outUnit: UnsafeMutablePointer<CInt>?,
                                               _ product: OpaquePointer?) -> CInt {
    withStatus { () throws(StoreError) in
        let handle = try requireProduct(product)
        guard let period = handle.product.subscription?.period else {
            throw StoreError(.wrongState, "product '\(handle.product.id)' is not an auto-renewable subscription")
        }
        outValue?.pointee = CInt(clamping: period.value)
        outUnit?.pointee = period.unit.rawValue
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_product_subscription_group)
public func iosiap_product_subscription_group(_ product: OpaquePointer?) -> UnsafePointer<CChar>? {
    ProductHandle.from(product)?.groupID
}

@c(iosiap_product_subscription_level)
public func iosiap_product_subscription_level(_ product: OpaquePointer?) -> CInt {
    guard let handle = ProductHandle.from(product) else { return -1 }
    return CInt(clamping: handle.product.subscription?.level ?? 0)
}

@c(iosiap_product_subscription_group_name)
public func iosiap_product_subscription_group_name(_ product: OpaquePointer?) -> UnsafePointer<CChar>? {
    ProductHandle.from(product)?.groupName
}

@c(iosiap_product_intro_offer)
public func iosiap_product_intro_offer(_ out: UnsafeMutablePointer<iosiap_offer>?, _ product: OpaquePointer?) -> CInt {
    withStatus { () throws(StoreError) in
        let handle = try requireProduct(product)
        guard let offer = handle.introductoryOffer else {
            throw StoreError(.wrongState, "product '\(handle.product.id)' has no introductory offer")
        }
        try OutStruct.write(offer, to: out, minimumSize: OutStruct.offerMinimumSize, "iosiap_offer")
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_product_promotional_offer_count)
public func iosiap_product_promotional_offer_count(_ product: OpaquePointer?) -> UInt {
    UInt(ProductHandle.from(product)?.promotionalOffers.count ?? 0)
}

@c(iosiap_product_promotional_offer)
public func iosiap_product_promotional_offer(_ out: UnsafeMutablePointer<iosiap_offer>?, _ product: OpaquePointer?,
                                             _ index: UInt) -> CInt {
    writeOffer(index, of: \.promotionalOffers, "promotional", from: product, to: out)
}

@c(iosiap_product_win_back_offer_count)
public func iosiap_product_win_back_offer_count(_ product: OpaquePointer?) -> UInt {
    UInt(ProductHandle.from(product)?.winBackOffers.count ?? 0)
}

@c(iosiap_product_win_back_offer)
public func iosiap_product_win_back_offer(_ out: UnsafeMutablePointer<iosiap_offer>?, _ product: OpaquePointer?,
                                          _ index: UInt) -> CInt {
    writeOffer(index, of: \.winBackOffers, "win-back", from: product, to: out)
}

/// Fills `out` with offer `index` of one of a product's offer lists (`kind` names it in the error).
private func writeOffer(_ index: UInt, of offers: KeyPath<ProductHandle, [iosiap_offer]>, _ kind: String,
                        from product: OpaquePointer?, to out: UnsafeMutablePointer<iosiap_offer>?) -> CInt {
    withStatus { () throws(StoreError) in
        let handle = try requireProduct(product)
        let list = handle[keyPath: offers]
        guard index < UInt(list.count) else {
            throw StoreError(.invalidArgument, "offer index \(index) is out of range: '\(handle.product.id)' has "
                + "\(list.count) \(kind) offers")
        }
        try OutStruct.write(list[Int(index)], to: out, minimumSize: OutStruct.offerMinimumSize, "iosiap_offer")
        return IOSIAP_OK.rawValue
    }
}

private func requireProduct(_ product: OpaquePointer?) throws(StoreError) -> ProductHandle {
    guard let handle = ProductHandle.from(product) else { throw StoreError(.invalidArgument, "product is NULL") }
    return handle
}
