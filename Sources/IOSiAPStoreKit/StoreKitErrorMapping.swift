import IOSiAPCore

/// StoreKit's errors and verification failures in IOSiAP's codes (the C status numbers).
enum StoreKitErrorMapping {
    static func error(_ failure: StoreKitFailure) -> StoreError {
        switch failure {
        case .unknown: StoreError(.unknown, "StoreKit: unknown error")
        case .userCancelled: StoreError(.paymentCancelled, "StoreKit: the user cancelled")
        case .networkError(let detail): StoreError(.storeUnreachable, "StoreKit: network error: \(detail)")
        case .systemError(let detail): StoreError(.systemError, "StoreKit: system error: \(detail)")
        case .notAvailableInStorefront: StoreError(.storeProductNotAvailable, "StoreKit: not available in this storefront")
        case .notEntitled: StoreError(.notEntitled, "StoreKit: the app is not entitled to this")
        case .unsupported: StoreError(.unsupportedPlatform, "StoreKit: not supported on this device or platform")
        case .unsupportedOption(let detail): StoreError(.unsupportedPlatform, "StoreKit: \(detail)")
        case .uiContextRequired(let detail): StoreError(.unsupportedPlatform, "StoreKit: \(detail)")
        case .invalidUIContext(let detail): StoreError(.invalidArgument, "StoreKit: \(detail)")
        case .invalidPresentationContext:
            StoreError(.invalidPresentationContext, "StoreKit cannot present its UI from this UI context, or none was given "
                + "and no single foreground-active window scene was found: pass the game's foreground window scene or view controller")
        case .invalidQuantity: StoreError(.quantityOutOfRange, "StoreKit: invalid quantity")
        case .productUnavailable: StoreError(.storeProductNotAvailable, "StoreKit: the product is unavailable")
        case .purchaseNotAllowed: StoreError(.paymentNotAllowed, "StoreKit: purchases are not allowed")
        case .ineligibleForOffer: StoreError(.ineligibleForOffer, "StoreKit: ineligible for the offer")
        case .invalidOfferIdentifier: StoreError(.invalidOfferIdentifier, "StoreKit: invalid offer identifier")
        case .invalidOfferPrice: StoreError(.invalidOfferPrice, "StoreKit: invalid offer price")
        case .invalidOfferSignature: StoreError(.invalidSignature, "StoreKit: invalid offer signature")
        case .missingOfferParameters: StoreError(.missingOfferParams, "StoreKit: missing offer parameters")
        case .paymentMethodBindingConfigurationRequired:
            StoreError(.paymentMethodBindingConfigurationRequired, "StoreKit: the user must add a payment method to their Apple Account first")
        case .refundRequestDuplicate: StoreError(.duplicateRefundRequest, "StoreKit: a refund was already requested for this transaction")
        case .refundRequestFailed: StoreError(.unknown, "StoreKit: the refund request failed")
        case .refundRequestIneligible: StoreError(.refundRequestIneligible, "StoreKit: the transaction is not eligible for a refund request")
        case .other(let detail): StoreError(.unknown, "StoreKit: \(detail)")
        }
    }

    /// A transaction whose environment StoreKit names with a value this library does not know.
    static func unknownEnvironment(_ name: String) -> StoreError {
        StoreError(.verificationInvalidEnvironment, "StoreKit: the transaction comes from an unknown environment '\(name)'")
    }

    static func error(_ failure: StoreKitVerificationFailure) -> StoreError {
        switch failure {
        case .invalidCertificateChain: StoreError(.verificationUntrustedChain, "StoreKit could not verify the certificate chain")
        case .invalidDeviceVerification: StoreError(.verificationInvalidSignature, "StoreKit: the device verification does not match")
        case .invalidEncoding: StoreError(.verificationInvalidFormat, "StoreKit: the signed data is not valid")
        case .invalidSignature: StoreError(.verificationInvalidSignature, "StoreKit: the signature does not match")
        case .missingRequiredProperties: StoreError(.verificationInvalidFormat, "StoreKit: required properties are missing")
        case .revokedCertificate: StoreError(.verificationUntrustedChain, "StoreKit: a certificate was revoked")
        }
    }
}
