import Foundation
import IOSiAPCore
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// The promotional offer signer a game's server (or the local store's QA tools) uses, and its check.
@Suite struct PromotionalOfferSignerTests {
    static let key = "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgIDxKuNzXIlcCKaJGfV6wU1T1AN93I0z4qaKh4vHW2bahRANCAASR/tnmcPud6undFEIlN+MJ1cIAPUmG9UwamtJgfpqIJjzyKZvxAfXHRqM2i/jgNwCY+kNLSTbvp1BcVJLdpUgt"

    let signer: PromotionalOfferSigner

    init() throws {
        signer = try PromotionalOfferSigner(privateKey: Self.key, keyID: "ABCD1234", bundleID: "com.example.game")
    }

    @Test func aSignatureChecksForExactlyWhatWasSigned() throws {
        let token = UUID()
        let offer = try signer.sign(productID: "gold", offerID: "winback", appAccountToken: token,
                                    timestamp: Date(timeIntervalSince1970: 1_767_225_600.1234))
        #expect(offer.timestamp == 1_767_225_600_123 && offer.keyID == "ABCD1234" && offer.offerID == "winback")
        #expect(signer.isSignatureValid(offer, productID: "gold", appAccountToken: token))
        #expect(!signer.isSignatureValid(offer, productID: "silver", appAccountToken: token))
        #expect(!signer.isSignatureValid(offer, productID: "gold", appAccountToken: nil))
        let changes = [
            SignedPromotionalOffer(offerID: "other", keyID: offer.keyID, nonce: offer.nonce, timestamp: offer.timestamp, signature: offer.signature),
            SignedPromotionalOffer(offerID: offer.offerID, keyID: "OTHER", nonce: offer.nonce, timestamp: offer.timestamp, signature: offer.signature),
            SignedPromotionalOffer(offerID: offer.offerID, keyID: offer.keyID, nonce: UUID(), timestamp: offer.timestamp, signature: offer.signature),
            SignedPromotionalOffer(offerID: offer.offerID, keyID: offer.keyID, nonce: offer.nonce, timestamp: offer.timestamp + 1, signature: offer.signature),
            SignedPromotionalOffer(offerID: offer.offerID, keyID: offer.keyID, nonce: offer.nonce, timestamp: offer.timestamp, signature: Data([0x30, 0x00])),
        ]
        for changed in changes {
            #expect(!signer.isSignatureValid(changed, productID: "gold", appAccountToken: token))
        }
    }

    @Test func aP8FilesPEMTextIsTheSameKey() throws {
        let pem = "-----BEGIN PRIVATE KEY-----\n" + stride(from: 0, to: Self.key.count, by: 64).map { start in
            let from = Self.key.index(Self.key.startIndex, offsetBy: start)
            return String(Self.key[from..<(Self.key.index(from, offsetBy: 64, limitedBy: Self.key.endIndex) ?? Self.key.endIndex)])
        }.joined(separator: "\n") + "\n-----END PRIVATE KEY-----\n"
        let fromPEM = try PromotionalOfferSigner(privateKey: pem, keyID: "ABCD1234", bundleID: "com.example.game")
        let offer = try fromPEM.sign(productID: "gold", offerID: "winback")
        #expect(signer.isSignatureValid(offer, productID: "gold", appAccountToken: nil))
    }

    @Test func somethingThatIsNotAP256KeyIsRefused() {
        for text in ["", "not base64 at all", "AAAA", Data(repeating: 7, count: 40).base64EncodedString()] {
            #expect(thrownCode { _ = try PromotionalOfferSigner(privateKey: text, keyID: "k", bundleID: "b") } == .invalidArgument)
        }
    }
}
