/// A stable numeric code for everything that can go wrong in IOSiAP.
///
/// The raw values are the C ABI's status codes (`iosiap_status`): they are negative, never renumbered,
/// and new cases only take unused numbers. Ranges:
/// - `-1 … -99`: the core's own errors (bad input, wrong state, storage).
/// - `-100 … -199`: StoreKit's `SKError.Code`, as `-100 - code` (so `SKErrorPaymentCancelled = 2` is `-102`).
/// - `-200 … -299`: signed-transaction verification, one code per step of Apple's algorithm that can fail.
public enum StoreErrorCode: Int32, Sendable, CaseIterable, Codable {
    // The core's own errors.
    case invalidArgument = -1
    case invalidUTF8 = -2
    case unknownProduct = -3
    case quantityOutOfRange = -4
    case storeNotOpen = -5
    case unknownTransaction = -6
    case wrongState = -7
    case invalidCatalog = -8
    case catalogNotReadable = -9
    case storageFailure = -10
    case quantityNotAllowedForProductType = -11
    case storeUnreachable = -12
    case systemError = -13
    case notEntitled = -14
    case stringTooLong = -15
    case insufficientBalance = -16
    case stateDirectoryInUse = -17
    /// The function needs a part this platform's library is built without (the local App Store and OpenSSL's
    /// verification are Linux and macOS only); on iOS, tvOS and visionOS the store is StoreKit's.
    case unavailableOnPlatform = -18
    /// A refund request for a transaction already refunded or with a request pending (StoreKit:
    /// `Transaction.RefundRequestError.duplicateRequest`).
    case duplicateRefundRequest = -19
    /// `finish` of a transaction the game was never told as purchased or restored (for instance the id of a
    /// `verificationFailed`): refused, so that a genuine purchase whose check has not passed yet is not finished
    /// unseen; it is delivered once a verifier passes it.
    case notDelivered = -20
    /// The App Store will not take a refund request for this transaction (StoreKit 816, iOS 27:
    /// `Transaction.RefundRequestError.ineligible`).
    case refundRequestIneligible = -21
    /// StoreKit cannot show its UI from the UI context given (StoreKit 816, iOS 27:
    /// `StoreKitError.invalidPresentationContext`): pass the game's foreground window scene or view controller.
    case invalidPresentationContext = -22

    // StoreKit's SKError.Code, offset by -100.
    case unknown = -100
    case clientInvalid = -101
    case paymentCancelled = -102
    case paymentInvalid = -103
    case paymentNotAllowed = -104
    case storeProductNotAvailable = -105
    case cloudServicePermissionDenied = -106
    case cloudServiceNetworkConnectionFailed = -107
    case cloudServiceRevoked = -108
    case privacyAcknowledgementRequired = -109
    case unauthorizedRequestData = -110
    case invalidOfferIdentifier = -111
    case invalidSignature = -112
    case missingOfferParams = -113
    case invalidOfferPrice = -114
    case overlayCancelled = -115
    case overlayInvalidConfiguration = -116
    case overlayTimeout = -117
    case ineligibleForOffer = -118
    case unsupportedPlatform = -119
    case overlayPresentedInBackgroundScene = -120
    case paymentMethodBindingConfigurationRequired = -121

    // Signed-transaction verification (Apple's algorithm, one code per failed step).
    case verificationInvalidFormat = -200
    case verificationUnsupportedAlgorithm = -201
    case verificationInvalidCertificate = -202
    case verificationInvalidChainLength = -203
    case verificationUntrustedChain = -204
    case verificationMissingAppleMarker = -205
    case verificationCertificateNotValidAtDate = -206
    case verificationInvalidSignature = -207
    case verificationInvalidAppIdentifier = -208
    case verificationInvalidEnvironment = -209
    case verificationRetryable = -210
    case verificationRejectedByServer = -211
    case verificationInputTooLarge = -212

    /// The `SKError.Code` number this code stands for, or `nil` for the core's own errors.
    public var storeKitCode: Int? {
        (-199 ... -100).contains(rawValue) ? Int(-100 - rawValue) : nil
    }

    /// The code for an `SKError.Code` number, or `nil` when StoreKit has no such code.
    public init?(storeKitCode: Int) {
        guard (0...99).contains(storeKitCode) else { return nil }
        self.init(rawValue: Int32(-100 - storeKitCode))
    }

    /// A short English description that does not depend on the failing call (C: `iosiap_status_text`).
    public var summary: String {
        switch self {
        case .invalidArgument: "invalid argument"
        case .invalidUTF8: "string is not valid UTF-8"
        case .unknownProduct: "unknown product"
        case .quantityOutOfRange: "quantity outside 1...10"
        case .storeNotOpen: "store is not open"
        case .unknownTransaction: "unknown transaction"
        case .wrongState: "call not allowed in the current state"
        case .invalidCatalog: "the .storekit catalog is malformed"
        case .catalogNotReadable: "the .storekit catalog cannot be read"
        case .storageFailure: "the state directory cannot be read or written"
        case .quantityNotAllowedForProductType: "quantity above 1 is allowed for consumables only"
        case .storeUnreachable: "the store cannot be reached"
        case .systemError: "system error"
        case .notEntitled: "not entitled"
        case .stringTooLong: "string too long"
        case .insufficientBalance: "the balance is too low"
        case .stateDirectoryInUse: "another process uses the state directory"
        case .unavailableOnPlatform: "not available on this platform"
        case .duplicateRefundRequest: "a refund was already requested for this transaction"
        case .notDelivered: "the transaction was never delivered as purchased or restored"
        case .refundRequestIneligible: "the transaction is not eligible for a refund request"
        case .invalidPresentationContext: "StoreKit cannot present its UI from this UI context"
        case .unknown: "unknown store error"
        case .clientInvalid: "client is not allowed to make the request"
        case .paymentCancelled: "payment cancelled by the user"
        case .paymentInvalid: "payment parameters not recognized"
        case .paymentNotAllowed: "this device is not allowed to make the payment"
        case .storeProductNotAvailable: "product not available in the current storefront"
        case .cloudServicePermissionDenied: "cloud service permission denied"
        case .cloudServiceNetworkConnectionFailed: "cannot connect to the network"
        case .cloudServiceRevoked: "cloud service revoked"
        case .privacyAcknowledgementRequired: "the user has not acknowledged Apple's privacy policy"
        case .unauthorizedRequestData: "the app is not authorized to request data"
        case .invalidOfferIdentifier: "invalid offer identifier"
        case .invalidSignature: "invalid offer signature"
        case .missingOfferParams: "missing offer parameters"
        case .invalidOfferPrice: "invalid offer price"
        case .overlayCancelled: "overlay cancelled"
        case .overlayInvalidConfiguration: "invalid overlay configuration"
        case .overlayTimeout: "overlay timed out"
        case .ineligibleForOffer: "the user is not eligible for the offer"
        case .unsupportedPlatform: "unsupported platform"
        case .overlayPresentedInBackgroundScene: "overlay presented in a background scene"
        case .paymentMethodBindingConfigurationRequired: "payment method binding configuration required"
        case .verificationInvalidFormat: "the signed data is not a valid JWS"
        case .verificationUnsupportedAlgorithm: "the JWS is not signed with ES256"
        case .verificationInvalidCertificate: "a certificate of the JWS cannot be read"
        case .verificationInvalidChainLength: "the JWS does not carry exactly three certificates"
        case .verificationUntrustedChain: "the certificate chain does not lead to a trusted root"
        case .verificationMissingAppleMarker: "a certificate lacks Apple's marker extension"
        case .verificationCertificateNotValidAtDate: "a certificate of the chain is not valid at the signing date"
        case .verificationInvalidSignature: "the signature does not match the signed data"
        case .verificationInvalidAppIdentifier: "the transaction belongs to another app"
        case .verificationInvalidEnvironment: "the transaction comes from another environment"
        case .verificationRetryable: "verification could not complete; it will be retried"
        case .verificationRejectedByServer: "the verification server rejected the transaction"
        case .verificationInputTooLarge: "the signed data is too large"
        }
    }
}
