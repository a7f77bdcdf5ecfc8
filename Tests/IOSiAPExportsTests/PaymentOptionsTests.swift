import CIOSiAP
import Foundation
import IOSiAPCore
@testable import IOSiAPExports
import Testing

/// `iosiap_payment_options` as the library reads it, in every published version.
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
    }

    @Test func versionThreeCarriesTheWinBackOffer() throws {
        let request = try "come_back".withCString { offer in
            try withOptions({ $0.win_back_offer_id = offer }) { try PaymentOptions.request(productID: "monthly", $0) }
        }
        #expect(request.winBackOfferID == "come_back" && request.promotionalOffer == nil)
    }

    @Test func versionFourCarriesTheOfferJWSAndTheIntroductoryOfferEligibilityJWS() throws {
        let request = try "loyal".withCString { offer in
            try "h.offer.s".withCString { offerJWS in
                try "h.intro.s".withCString { introJWS in
                    try withOptions({
                        $0.offer_id = offer
                        $0.offer_jws = offerJWS
                        $0.intro_offer_eligibility_jws = introJWS
                    }) { try PaymentOptions.request(productID: "monthly", $0) }
                }
            }
        }
        #expect(request.promotionalOfferJWS == PromotionalOfferJWS(offerID: "loyal", compactJWS: "h.offer.s"))
        #expect(request.introductoryOfferEligibilityJWS == "h.intro.s" && request.promotionalOffer == nil)
        #expect(IOSIAP_PAYMENT_OPTIONS_VERSION == 4)
    }

    /// The JWS form names its offer, replaces the older form's fields rather than sits beside them, and is at
    /// most IOSIAP_MAX_OFFER_JWS_LENGTH bytes.
    @Test func anOfferJWSWithoutItsOfferBesideTheOlderFormOrTooLongIsRefused() {
        func refusal(_ fill: (inout iosiap_payment_options) -> Void) -> StoreError? {
            do {
                _ = try withOptions(fill) { try PaymentOptions.request(productID: "monthly", $0) }
                return nil
            } catch {
                return error as? StoreError
            }
        }
        let offer = strdup("loyal"), jws = strdup("h.p.s"), long = strdup(String(repeating: "j", count: Int(IOSIAP_MAX_OFFER_JWS_LENGTH) + 1))
        defer { for copy in [offer, jws, long] { free(copy) } }
        #expect(refusal { $0.offer_jws = UnsafePointer(jws) }?.code == .missingOfferParams)
        let beside = refusal {
            $0.offer_id = UnsafePointer(offer)
            $0.offer_jws = UnsafePointer(jws)
            $0.offer_timestamp_ms = 1
        }
        #expect(beside?.code == .invalidArgument && beside?.message.contains("offer_key_id") == true)
        let tooLong = refusal { $0.intro_offer_eligibility_jws = UnsafePointer(long) }
        #expect(tooLong?.code == .stringTooLong && tooLong?.message.contains("intro_offer_eligibility_jws") == true)
    }

    /// A version 3 caller's struct ends after win_back_offer_id: non-null pointers where version 4 has its JWS
    /// are not its own and are never read.
    @Test func versionThreeIsReadUpToItsEndAndNotAByteFurther() throws {
        let request = try withOptions({ options in
            options.version = 3
            options.offer_jws = UnsafePointer(bitPattern: 0xDEAD_BEE0)  // beyond a v3 struct
            options.intro_offer_eligibility_jws = UnsafePointer(bitPattern: 0xDEAD_BEF0)
        }) { try PaymentOptions.request(productID: "coins", $0) }
        #expect(request.promotionalOfferJWS == nil && request.introductoryOfferEligibilityJWS == nil)
        #expect(PaymentOptions.size(ofVersion: 3) == MemoryLayout<iosiap_payment_options>.offset(of: \.offer_jws)!)
        #expect(PaymentOptions.size(ofVersion: 4) == MemoryLayout<iosiap_payment_options>.size)
    }

    /// A version 2 caller's struct ends after ui_context: a non-null pointer where version 3 has
    /// win_back_offer_id is not its own and is never read.
    @Test func versionTwoIsReadUpToItsEndAndNotAByteFurther() throws {
        let request = try withOptions({ options in
            options.version = 2
            options.ui_context = UnsafeMutableRawPointer(bitPattern: 0x5CE0)
            options.win_back_offer_id = UnsafePointer(bitPattern: 0xDEAD_BEE0)  // beyond a v2 struct
        }) { try PaymentOptions.request(productID: "coins", $0) }
        #expect(request.uiContext?.pointer == UnsafeMutableRawPointer(bitPattern: 0x5CE0))
        #expect(request.winBackOfferID == nil)
        #expect(PaymentOptions.size(ofVersion: 2) == MemoryLayout<iosiap_payment_options>.offset(of: \.win_back_offer_id)!)
    }

    @Test func aWinBackOfferIDOfBadUTF8IsRefused() {
        let bytes: [CChar] = [0x63, CChar(bitPattern: 0xFF), 0]
        let error = bytes.withUnsafeBufferPointer { offer in
            withOptions({ $0.win_back_offer_id = offer.baseAddress }) { options in
                #expect(throws: StoreError.self) { try PaymentOptions.request(productID: "coins", options) }
            }
        }
        #expect(error?.code == .invalidUTF8 && error?.message.contains("win_back_offer_id") == true)
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
    }

    @Test(arguments: [0, 5, 99] as [CUnsignedInt])
    func anUnknownVersionIsRefused(_ version: CUnsignedInt) {
        let error = withOptions({ $0.version = version }) { options in
            #expect(throws: StoreError.self) { try PaymentOptions.request(productID: "coins", options) }
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("IOSIAP_PAYMENT_OPTIONS_INIT") == true)
        #expect(error?.message.contains("versions 1 to 4") == true)
    }
}
