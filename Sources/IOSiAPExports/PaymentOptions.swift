import CIOSiAP
import Foundation
import IOSiAPCore

/// Turns `iosiap_payment_options` into the core's payment request.
enum PaymentOptions {
    /// The versions this library reads: 1 ends after `offer_signature`, 2 adds `ui_context`, 3 `win_back_offer_id`.
    static let readableVersions: ClosedRange<CUnsignedInt> = 1...CUnsignedInt(IOSIAP_PAYMENT_OPTIONS_VERSION)

    /// How many bytes a caller's struct of `version` has: a version 1 caller's struct is shorter than this
    /// library's, and nothing past its end is read.
    static func size(ofVersion version: CUnsignedInt) -> Int {
        switch version {
        case 1: MemoryLayout<iosiap_payment_options>.offset(of: \.ui_context)!
        case 2: MemoryLayout<iosiap_payment_options>.offset(of: \.win_back_offer_id)!
        default: MemoryLayout<iosiap_payment_options>.size
        }
    }

    static func request(productID: String, _ options: UnsafePointer<iosiap_payment_options>?) throws(StoreError) -> PaymentRequest {
        guard let options else { throw StoreError(.invalidArgument, "options is NULL") }
        let version = UnsafeRawPointer(options).load(as: CUnsignedInt.self)
        guard readableVersions.contains(version) else {
            throw StoreError(.invalidArgument, "payment options version \(version) is not supported; "
                + "this library reads versions \(readableVersions.lowerBound) to \(readableVersions.upperBound) "
                + "(use IOSIAP_PAYMENT_OPTIONS_INIT)")
        }
        // The caller's bytes over a zeroed struct: the fields its version lacks stay zero (NULL).
        var settings = iosiap_payment_options()
        withUnsafeMutableBytes(of: &settings) { bytes in
            bytes.copyMemory(from: UnsafeRawBufferPointer(start: options, count: size(ofVersion: version)))
        }
        return PaymentRequest(productID: productID, quantity: Int(settings.quantity),
                              appAccountToken: try CStringInput.uuid(settings.app_account_token, "app_account_token"),
                              promotionalOffer: try promotionalOffer(settings),
                              uiContext: settings.ui_context.map(UIContext.init),
                              winBackOfferID: try CStringInput.optional(settings.win_back_offer_id, "win_back_offer_id", maximumLength: 255))
    }
    /// The offer named by `offer_id`, with what its server signed. A missing part is StoreKit's
    /// `missingOfferParams`; malformed text (a nonce that is no UUID, a signature that is no base64) is
    /// `invalidArgument`.
    private static func promotionalOffer(_ settings: iosiap_payment_options) throws(StoreError) -> SignedPromotionalOffer? {
        guard let offerID = try CStringInput.optional(settings.offer_id, "offer_id", maximumLength: 255) else { return nil }
        let keyID = try CStringInput.optional(settings.offer_key_id, "offer_key_id", maximumLength: 255)
        let nonce = try CStringInput.uuid(settings.offer_nonce, "offer_nonce")
        let signatureText = try CStringInput.optional(settings.offer_signature, "offer_signature", maximumLength: 1024)
        guard let keyID, let nonce, let signatureText else {
            let missing = [keyID == nil ? "offer_key_id" : nil, nonce == nil ? "offer_nonce" : nil,
                           signatureText == nil ? "offer_signature" : nil].compactMap { $0 }
            throw StoreError(.missingOfferParams, "offer '\(offerID)' lacks \(missing.joined(separator: ", "))")
        }
        guard let signature = Data(base64Encoded: signatureText) else {
            throw StoreError(.invalidArgument, "offer_signature is not base64 text")
        }
        return SignedPromotionalOffer(offerID: offerID, keyID: keyID, nonce: nonce,
                                      timestamp: settings.offer_timestamp_ms, signature: signature)
    }
}
