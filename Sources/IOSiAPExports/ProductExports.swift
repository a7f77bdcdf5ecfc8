import CIOSiAP
import IOSiAPCore

// Product accessors: the strings belong to the product, which its store keeps until it closes.

@c(iosiap_product_id)
public func iosiap_product_id(_ product: OpaquePointer?) -> UnsafePointer<CChar>? {
    ProductHandle.from(product).map { UnsafePointer($0.id) }
}

@c(iosiap_product_type_of)
public func iosiap_product_type_of(_ product: OpaquePointer?) -> CInt {
    ProductHandle.from(product)?.product.type.rawValue ?? -1
}

@c(iosiap_product_title)
public func iosiap_product_title(_ product: OpaquePointer?) -> UnsafePointer<CChar>? {
    ProductHandle.from(product).map { UnsafePointer($0.title) }
}

@c(iosiap_product_description)
public func iosiap_product_description(_ product: OpaquePointer?) -> UnsafePointer<CChar>? {
    ProductHandle.from(product).map { UnsafePointer($0.description) }
}

@c(iosiap_product_price)
public func iosiap_product_price(_ product: OpaquePointer?) -> UnsafePointer<CChar>? {
    ProductHandle.from(product).map { UnsafePointer($0.price) }
}

@c(iosiap_product_currency_code)
public func iosiap_product_currency_code(_ product: OpaquePointer?) -> UnsafePointer<CChar>? {
    ProductHandle.from(product).map { UnsafePointer($0.currencyCode) }
}

@c(iosiap_product_display_price)
public func iosiap_product_display_price(_ product: OpaquePointer?) -> UnsafePointer<CChar>? {
    ProductHandle.from(product).map { UnsafePointer($0.displayPrice) }
}

@c(iosiap_product_subscription_period)
public func iosiap_product_subscription_period(_ outValue: UnsafeMutablePointer<CInt>?,
                                               _ outUnit: UnsafeMutablePointer<CInt>?,
                                               _ product: OpaquePointer?) -> CInt {
    withStatus { () throws(StoreError) in
        guard let handle = ProductHandle.from(product) else { throw StoreError(.invalidArgument, "product is NULL") }
        guard let period = handle.product.subscription?.period else {
            throw StoreError(.wrongState, "product '\(handle.product.id)' is not an auto-renewable subscription")
        }
        outValue?.pointee = Int32(period.value)
        outUnit?.pointee = period.unit.rawValue
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_product_subscription_group)
public func iosiap_product_subscription_group(_ product: OpaquePointer?) -> UnsafePointer<CChar>? {
    ProductHandle.from(product)?.groupID.map { UnsafePointer($0) }
}

@c(iosiap_product_subscription_level)
public func iosiap_product_subscription_level(_ product: OpaquePointer?) -> CInt {
    guard let handle = ProductHandle.from(product) else { return -1 }
    return Int32(handle.product.subscription?.level ?? 0)
}

@c(iosiap_product_intro_offer_display_price)
public func iosiap_product_intro_offer_display_price(_ product: OpaquePointer?) -> UnsafePointer<CChar>? {
    ProductHandle.from(product)?.introDisplayPrice.map { UnsafePointer($0) }
}
