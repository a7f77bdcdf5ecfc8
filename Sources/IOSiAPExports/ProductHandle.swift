import CIOSiAP
import Foundation
import IOSiAPCore

/// What an `iosiap_product *` points to: a product and C copies of its strings, owned by its store.
///
/// `@unchecked Sendable`: immutable after init; C only reads the strings.
final class ProductHandle: @unchecked Sendable {
    let product: StoreProduct
    let id: UnsafeMutablePointer<CChar>
    let title: UnsafeMutablePointer<CChar>
    let description: UnsafeMutablePointer<CChar>
    let price: UnsafeMutablePointer<CChar>
    let currencyCode: UnsafeMutablePointer<CChar>
    let displayPrice: UnsafeMutablePointer<CChar>
    let groupID: UnsafeMutablePointer<CChar>?
    let introDisplayPrice: UnsafeMutablePointer<CChar>?

    init(_ product: StoreProduct) {
        self.product = product
        id = strdup(product.id)
        title = strdup(product.displayName)
        description = strdup(product.description)
        price = strdup("\(product.price)")
        currencyCode = strdup(product.currencyCode)
        displayPrice = strdup(product.displayPrice)
        groupID = product.subscription.map { strdup($0.groupID) }
        introDisplayPrice = product.subscription?.introductoryOffer.map { strdup($0.displayPrice) }
    }

    deinit {
        for pointer in [id, title, description, price, currencyCode, displayPrice, groupID, introDisplayPrice] {
            free(pointer)
        }
    }

    /// The opaque pointer C sees; valid while the store keeps this handle.
    var opaque: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    static func from(_ pointer: OpaquePointer?) -> ProductHandle? {
        pointer.map { Unmanaged<ProductHandle>.fromOpaque(UnsafeRawPointer($0)).takeUnretainedValue() }
    }
}
