import CIOSiAP
import Foundation
import IOSiAPCore
@testable import IOSiAPExports
import Testing

/// `iosiap_payment_options` as the library reads it, in both published versions.
@Suite struct PaymentOptionsTests {
    static let token = "6E3A1C2B-9F0D-4C8E-A1B2-3C4D5E6F7081"

    /// Runs `body` with a caller's options: this library's struct, zeroed, then `fill`ed.
    func withOptions<T>(_ fill: (inout iosiap_payment_options) -> Void,
                        _ body: (UnsafePointer<iosiap_payment_options>) throws -> T) rethrows -> T {
        var options = iosiap_payment_options()
        options.version = CUnsignedInt(IOSIAP_PAYMENT_OPTIONS_VERSION)
        options.quantity = 1
        fill(&options)
        return try body(&options)
    }

    @Test func versionTwoCarriesTheUIContext() throws {
        var viewController = 0  // any address stands for the game's object: the library does not dereference it
        try withUnsafeMutablePointer(to: &viewController) { object in
            let request = try withOptions({ $0.ui_context = UnsafeMutableRawPointer(object) }) { options in
                try PaymentOptions.request(productID: "coins", options)
            }
            #expect(request.uiContext == UIContext(UnsafeMutableRawPointer(object)))
            #expect(request.uiContext?.pointer == UnsafeMutableRawPointer(object))
        }
        #expect(IOSIAP_PAYMENT_OPTIONS_VERSION == 2)
    }

    @Test func withoutAUIContextTheRequestHasNone() throws {
        let request = try withOptions({ _ in }) { try PaymentOptions.request(productID: "coins", $0) }
        #expect(request.uiContext == nil)
    }

    /// A version 1 caller's struct ends after offer_signature: what follows in memory is not its own and is
    /// never read (here, a non-null pointer sits where version 2 has ui_context).
    @Test func versionOneIsReadUpToItsEndAndNotAByteFurther() throws {
        let versionOneSize = MemoryLayout<iosiap_payment_options>.offset(of: \.ui_context)!
        #expect(versionOneSize == MemoryLayout<iosiap_payment_options>.offset(of: \.offer_signature)! + MemoryLayout<UnsafePointer<CChar>>.size)
        let request = try Self.token.withCString { token in
            try withOptions({ options in
                options.version = 1
                options.quantity = 3
                options.app_account_token = token
                options.ui_context = UnsafeMutableRawPointer(bitPattern: 0xDEAD_BEE0)  // beyond a v1 struct
            }) { try PaymentOptions.request(productID: "coins", $0) }
        }
        #expect(request.quantity == 3)
        #expect(request.appAccountToken == UUID(uuidString: Self.token))
        #expect(request.uiContext == nil)
        #expect(PaymentOptions.size(ofVersion: 1) == versionOneSize)
        #expect(PaymentOptions.size(ofVersion: 2) == MemoryLayout<iosiap_payment_options>.size)
    }

    @Test(arguments: [0, 3, 99] as [CUnsignedInt])
    func anUnknownVersionIsRefused(_ version: CUnsignedInt) {
        let error = withOptions({ $0.version = version }) { options in
            #expect(throws: StoreError.self) { try PaymentOptions.request(productID: "coins", options) }
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("IOSIAP_PAYMENT_OPTIONS_INIT") == true)
        #expect(error?.message.contains("versions 1 to 2") == true)
    }
}
