import CIOSiAP
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// Turns `iosiap_payment_options` into the core's payment request.
enum PaymentOptions {
    /// The versions this library reads: 1 ends after `offer_signature`, 2 adds `ui_context`, 3 `win_back_offer_id`,
    /// 4 `offer_jws` and `intro_offer_eligibility_jws`.
    static let readableVersions: ClosedRange<CUnsignedInt> = 1...CUnsignedInt(IOSIAP_PAYMENT_OPTIONS_VERSION)

    /// How many bytes a caller's struct of `version` has: a version 1 caller's struct is shorter than this
    /// library's, and nothing past its end is read.
    static func size(ofVersion version: CUnsignedInt) -> Int {
        switch version {
        case 1: MemoryLayout<iosiap_payment_options>.offset(of: \.ui_context)!
        case 2: MemoryLayout<iosiap_payment_options>.offset(of: \.win_back_offer_id)!
        case 3: MemoryLayout<iosiap_payment_options>.offset(of: \.offer_jws)!
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
        let offerJWS = try promotionalOfferJWS(settings)
        return PaymentRequest(productID: productID, quantity: Int(settings.quantity),
                              appAccountToken: try CStringInput.uuid(settings.app_account_token, "app_account_token"),
                              promotionalOffer: offerJWS == nil ? try promotionalOffer(settings) : nil,
                              uiContext: settings.ui_context.map(UIContext.init),
                              winBackOfferID: try CStringInput.optional(settings.win_back_offer_id, "win_back_offer_id", maximumLength: 255),
                              promotionalOfferJWS: offerJWS,
                              introductoryOfferEligibilityJWS: try jws(settings.intro_offer_eligibility_jws, "intro_offer_eligibility_jws"))
    }

    /// An optional JWS of at most `IOSIAP_MAX_OFFER_JWS_LENGTH` bytes.
    private static func jws(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(StoreError) -> String? {
        try CStringInput.optional(pointer, name, maximumLength: Int(IOSIAP_MAX_OFFER_JWS_LENGTH))
    }

    /// The offer named by `offer_id`, signed as the JWS `offer_jws`, or `nil` without `offer_jws`. The older form's
    /// fields set beside it are `invalidArgument` (which form did the game mean?); `offer_jws` without `offer_id`
    /// is StoreKit's `missingOfferParams`.
    private static func promotionalOfferJWS(_ settings: iosiap_payment_options) throws(StoreError) -> PromotionalOfferJWS? {
        guard let jws = try jws(settings.offer_jws, "offer_jws") else { return nil }
        guard let offerID = try CStringInput.optional(settings.offer_id, "offer_id", maximumLength: 255) else {
            throw StoreError(.missingOfferParams, "offer_jws is set without the offer_id it signs")
        }
        func isUnset(_ field: UnsafePointer<CChar>?) -> Bool { field.map { $0.pointee == 0 } ?? true }  // empty as NULL
        guard isUnset(settings.offer_key_id), isUnset(settings.offer_nonce), settings.offer_timestamp_ms == 0,
              isUnset(settings.offer_signature) else {
            throw StoreError(.invalidArgument, "offer_jws replaces offer_key_id, offer_nonce, offer_timestamp_ms and offer_signature; "
                + "set one form of the offer's signature, not both")
        }
        return PromotionalOfferJWS(offerID: offerID, compactJWS: jws)
    }

    /// A promotional offer's field as errors name it: the C field, and the `iosiap::PromotionalOffer` member the C++
    /// layer fills it from (a C++ game never sees the C name).
    private static func offerField(_ cName: String, _ cppName: String) -> String {
        "\(cName) (C++: PromotionalOffer::\(cppName))"
    }

    /// The offer named by `offer_id`, with what its server signed. A missing (NULL or empty) part is StoreKit's
    /// `missingOfferParams`; malformed text (a nonce that is no UUID, a signature that is no base64) is
    /// `invalidArgument`.
    private static func promotionalOffer(_ settings: iosiap_payment_options) throws(StoreError) -> SignedPromotionalOffer? {
        guard let offerID = try CStringInput.optional(settings.offer_id, "offer_id", maximumLength: 255) else { return nil }
        let keyIDName = offerField("offer_key_id", "keyId"), nonceName = offerField("offer_nonce", "nonce")
        let signatureName = offerField("offer_signature", "signature")
        // An empty field is a missing one, as NULL is.
        let keyID = try CStringInput.optional(settings.offer_key_id, keyIDName, maximumLength: 255).flatMap { $0.isEmpty ? nil : $0 }
        let nonce = settings.offer_nonce.map { $0.pointee == 0 } == true ? nil : try CStringInput.uuid(settings.offer_nonce, nonceName)
        let signatureText = try CStringInput.optional(settings.offer_signature, signatureName, maximumLength: 1024)
            .flatMap { $0.isEmpty ? nil : $0 }
        guard let keyID, let nonce, let signatureText else {
            let missing = [keyID == nil ? keyIDName : nil, nonce == nil ? nonceName : nil,
                           signatureText == nil ? signatureName : nil].compactMap { $0 }
            throw StoreError(.missingOfferParams, "offer '\(offerID)' lacks \(missing.joined(separator: ", "))")
        }
        guard let signature = Data(base64Encoded: signatureText) else {
            throw StoreError(.invalidArgument, "\(signatureName) is not base64 text")
        }
        return SignedPromotionalOffer(offerID: offerID, keyID: keyID, nonce: nonce,
                                      timestamp: settings.offer_timestamp_ms, signature: signature)
    }
}
