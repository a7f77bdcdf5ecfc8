import Foundation
import IOSiAPCore
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// The JWS forms of signed offers: what the signer makes checks, and claims a server could have got wrong,
/// hostile numbers among them, are refused with a reason, never trapped on.
extension PromotionalOfferSignerTests {
    static let now = Date(timeIntervalSince1970: 1_767_225_600)

    @Test func aJWSChecksForWhatWasSigned() throws {
        let nonce = UUID()
        let jws = try signer.signPromotionalOfferJWS(productID: "gold", offerID: "winback", transactionID: "7", issuerID: "team",
                                                     nonce: nonce, issuedAt: Self.now.addingTimeInterval(0.9))
        let claims = try signer.verifyJWS(jws, for: .promotionalOffer, at: Self.now)
        #expect(claims.productID == "gold" && claims.offerIdentifier == "winback" && claims.transactionID == "7")
        #expect(claims.nonce == nonce && claims.issuerID == "team" && claims.issuedAt == Self.now && claims.allowIntroductoryOffer == nil)
        let intro = try signer.signIntroductoryOfferEligibilityJWS(productID: "gold", allowIntroductoryOffer: true, transactionID: "7",
                                                                   issuerID: "team", issuedAt: Self.now)
        #expect(try signer.verifyJWS(intro, for: .introductoryOfferEligibility, at: Self.now).allowIntroductoryOffer == true)
        #expect(thrownCode { _ = try signer.verifyJWS(intro, for: .promotionalOffer, at: Self.now) } == .invalidSignature)
    }

    @Test(arguments: [Double.nan, .infinity, 1e300])
    func aDateNoJWSCanCarryIsRefusedWhenSigningNotTrappedOn(seconds: Double) {
        #expect(thrownCode {
            _ = try signer.signPromotionalOfferJWS(productID: "gold", offerID: "winback", issuerID: "team",
                                                   issuedAt: Date(timeIntervalSince1970: seconds))
        } == .invalidArgument)
    }

    /// A JWS signed with the test key over `claims` (JSON text as written) under `header`.
    func jws(claims: String, header: String = #"{"alg":"ES256","kid":"ABCD1234","typ":"JWT"}"#) throws -> String {
        let key = try PrivateKey(pkcs8: Array(try #require(Data(base64Encoded: Self.key))))
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        return input + "." + Base64URL.encode(try key.signES256(Array(input.utf8)))
    }

    @Test(arguments: [
        ("-1", "no date"), ("253402300800", "no date"), ("1e30", "not the expected JSON"),
        ("99999999999999999999999", "not the expected JSON"), ("1767225600.5", "not the expected JSON"), (#""1767225600""#, "not the expected JSON"),
        ("null", "no iat"),
    ])
    func anIATThatIsNoDateIsRefusedNotTrappedOn(iat: String, reason: String) throws {
        let claims = #"{"bid":"com.example.game","iss":"team","aud":"promotional-offer","iat":\#(iat),"#
            + #""nonce":"0b2f4c3e-2d1a-4b5c-9d8e-7f6a5b4c3d2e","productId":"gold","offerIdentifier":"winback"}"#
        #expect {
            _ = try signer.verifyJWS(try jws(claims: claims), for: .promotionalOffer, at: Self.now)
        } throws: { error in
            let error = error as? StoreError
            return error?.code == .invalidSignature && error?.message.contains(reason) == true
        }
    }

    @Test func aHeaderOtherThanES256WithThisKeyIsRefused() throws {
        let claims = #"{"bid":"com.example.game","iss":"team","aud":"promotional-offer","iat":1767225600,"#
            + #""nonce":"0b2f4c3e-2d1a-4b5c-9d8e-7f6a5b4c3d2e","productId":"gold","offerIdentifier":"winback"}"#
        #expect(try signer.verifyJWS(try jws(claims: claims), for: .promotionalOffer, at: Self.now).productID == "gold")
        for (header, reason) in [(#"{"alg":"none","kid":"ABCD1234"}"#, "alg 'none'"), (#"{"alg":"ES256","kid":"OTHER"}"#, "key 'OTHER'"),
                                 (#"{"alg":"ES256","kid":"ABCD1234","typ":"JOSE+JSON"}"#, "typ"), (#"{"alg":"ES256"}"#, "key ''")] {
            #expect {
                _ = try signer.verifyJWS(try jws(claims: claims, header: header), for: .promotionalOffer, at: Self.now)
            } throws: { error in
                (error as? StoreError)?.code == .invalidSignature && (error as? StoreError)?.message.contains(reason) == true
            }
        }
        // An uppercase nonce is the same UUID to UUID(uuidString:), but no Apple server writes one.
        let upperNonce = claims.replacingOccurrences(of: "0b2f4c3e-2d1a-4b5c-9d8e-7f6a5b4c3d2e", with: "0B2F4C3E-2D1A-4B5C-9D8E-7F6A5B4C3D2E")
        #expect {
            _ = try signer.verifyJWS(try jws(claims: upperNonce), for: .promotionalOffer, at: Self.now)
        } throws: { error in
            (error as? StoreError)?.code == .invalidSignature && (error as? StoreError)?.message.contains("lowercase UUID") == true
        }
        let noNonce = claims.replacingOccurrences(of: "0b2f4c3e-2d1a-4b5c-9d8e-7f6a5b4c3d2e", with: "twice")
        let noOffer = claims.replacingOccurrences(of: #","offerIdentifier":"winback""#, with: "")
        for (bad, reason) in [(noNonce, "nonce"), (noOffer, "offerIdentifier")] {
            #expect(thrownCode { _ = try signer.verifyJWS(try jws(claims: bad), for: .promotionalOffer, at: Self.now) } == .invalidSignature,
                    "\(reason)")
        }
        let introWithoutTransaction = #"{"bid":"com.example.game","iss":"team","aud":"introductory-offer-eligibility","iat":1767225600,"#
            + #""nonce":"0b2f4c3e-2d1a-4b5c-9d8e-7f6a5b4c3d2e","productId":"gold","allowIntroductoryOffer":true}"#
        #expect(thrownCode {
            _ = try signer.verifyJWS(try jws(claims: introWithoutTransaction), for: .introductoryOfferEligibility, at: Self.now)
        } == .invalidSignature)
    }
}
