// libFuzzer target: the JWS parser and verifier, with a chain the verifier trusts, so that inputs that get
// past the parser reach the certificate and signature checks; and the fast payload decoder, which must read
// every input it accepts exactly as JSONDecoder does. Built by scripts/fuzz.sh.
import Foundation
import FuzzDriver
import IOSiAPCore
import IOSiAPVerification

private let verifier: SignedDataVerifier = {
    let chain = try! SigningChain.create()
    return try! SignedDataVerifier(trustedRoots: [chain.root.der, AppleRootCertificate.g3DER],
                                   bundleID: "com.iosiap.fuzz", environment: .sandbox)
}()

@main enum FuzzJWS {
    static func main() { FuzzDriver.run(fuzzJWS) }
}

/// libFuzzer's own `main`, linked in but not used, refers to this name.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt { fuzzJWS(input, size) }

private func fuzzJWS(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data = input else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? verifier.verifyTransaction(text)
    _ = try? verifier.verifyRenewalInfo(text)
    _ = try? verifier.verifyNotification(text)
    _ = try? SignedDataVerifier.decodeUnverified(text, as: SignedTransactionPayload.self)
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    agree(SignedTransactionPayload.self, bytes)
    agree(RenewalInfoPayload.self, bytes)
    agree(NotificationPayload.self, bytes)
    return 0
}

/// The input as a payload: what the fast decoder accepts, JSONDecoder reads the same.
private func agree<Payload: Decodable & Equatable>(_ type: Payload.Type, _ bytes: [UInt8]) {
    guard let fast = try? PayloadDecoder.decode(type, from: bytes) else { return }
    let reference = try? JSONDecoder().decode(type, from: Data(bytes))
    precondition(fast == reference, "the fast decoder read \(fast), JSONDecoder \(String(describing: reference))")
}
