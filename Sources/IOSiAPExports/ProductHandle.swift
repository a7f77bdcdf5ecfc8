import CIOSiAP
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// What an `iosiap_product *` points to: a product and C copies of its strings and offers, owned by its
/// store until it closes.
///
/// `@unchecked Sendable`: immutable after init; C only reads what it holds.
final class ProductHandle: @unchecked Sendable {
    let product: StoreProduct
    let id: UnsafePointer<CChar>
    let title: UnsafePointer<CChar>
    let description: UnsafePointer<CChar>
    let price: UnsafePointer<CChar>
    let currencyCode: UnsafePointer<CChar>
    let displayPrice: UnsafePointer<CChar>
    let groupID: UnsafePointer<CChar>?
    let groupName: UnsafePointer<CChar>?
    let introductoryOffer: iosiap_offer?
    let promotionalOffers: [iosiap_offer]
    let winBackOffers: [iosiap_offer]
    /// Owns every string above.
    private let strings = CStringArena()

    init(_ product: StoreProduct) {
        self.product = product
        id = strings.copy(product.id)
        title = strings.copy(product.displayName)
        description = strings.copy(product.description)
        price = strings.copy("\(product.price)")
        currencyCode = strings.copy(product.currencyCode)
        displayPrice = strings.copy(product.displayPrice)
        groupID = strings.copy(product.subscription?.groupID)
        groupName = strings.copy(product.subscription?.groupName)
        let strings = self.strings
        func offer(_ offer: SubscriptionOffer) -> iosiap_offer {
            iosiap_offer(size: MemoryLayout<iosiap_offer>.size, id: strings.copy(offer.id),
                         payment_mode: offer.paymentMode.rawValue, period_value: CInt(clamping: offer.period.value),
                         period_unit: offer.period.unit.rawValue, period_count: CInt(clamping: offer.periodCount),
                         price: strings.copy("\(offer.price)"), display_price: strings.copy(offer.displayPrice))
        }
        introductoryOffer = product.subscription?.introductoryOffer.map(offer)
        promotionalOffers = product.subscription?.promotionalOffers.map(offer) ?? []
        winBackOffers = product.subscription?.winBackOffers.map(offer) ?? []
    }

    /// The opaque pointer C sees; valid while the store keeps this handle.
    var opaque: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    static func from(_ pointer: OpaquePointer?) -> ProductHandle? {
        pointer.map { Unmanaged<ProductHandle>.fromOpaque(UnsafeRawPointer($0)).takeUnretainedValue() }
    }
}
