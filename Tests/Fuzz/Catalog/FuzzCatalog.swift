// libFuzzer target: the .storekit parser. Any input must load or be refused with a StoreError; loaded
// catalogs are read through, as the local store would. Built by scripts/fuzz.sh.
import Foundation
import FuzzDriver
import IOSiAPCore
import IOSiAPLocalStore

@main enum FuzzCatalog {
    static func main() { FuzzDriver.run(fuzzCatalog) }
}

/// libFuzzer's own `main`, linked in but not used, refers to this name.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt { fuzzCatalog(input, size) }

private func fuzzCatalog(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data = input else { return 0 }
    guard let catalog = try? Catalog(data: Data(bytes: data, count: size), fileName: "fuzz.storekit") else { return 0 }
    for product in catalog.products {
        _ = product.localization(for: catalog.settings.locale)
        _ = PriceFormatter.format(product.price, currencyCode: catalog.settings.storefront.currencyCode, locale: catalog.settings.locale)
        if let subscription = product.subscription {
            _ = catalog.settings.timeRate.end(of: subscription.period, from: Date())
        }
    }
    return 0
}
