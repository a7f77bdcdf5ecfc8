// libFuzzer target: the verifier's decoding of what a JWS carries, reached on every input. FuzzJWS mutates
// whole base64url text, so a mutation seldom leaves a payload that still decodes, let alone one with a
// hostile number in a date; here the fuzzer's bytes are the DECODED JSON, which this target encodes and
// signs with a test chain the verifier trusts, so that every input gets past the signature and is read
// as a transaction, as renewal info, as an App Transaction and as a notification, and the chain is checked at
// the payload's own signedDate.
//
// Input (a fixed scheme, kept simple so that seeds stay readable text):
//   - `H` <header JSON> `\n` <payload JSON>: header and payload both fuzzed. The header is the bytes from the
//     second up to the first line feed (all of the rest when there is none; the payload is then empty).
//     When the header does not mention "x5c", the test chain's `"x5c":[leaf,intermediate,root]` is put
//     right after its first `{`, so that the chain step is reached.
//   - anything else: the whole input is the payload JSON, under the test chain's own header
//     ({"alg":"ES256","x5c":[…],"typ":"JWT"}), so every mutation is spent on the payload.
// Either way `base64url(header).base64url(payload)` is signed by the test chain's leaf key and given to
// `SignedDataVerifier.verifyTransaction`, `.verifyRenewalInfo`, `.verifyAppTransaction` and
// `.verifyNotification` (validation date: the payload's
// signedDate). The payload bytes are also decoded by the fast `PayloadDecoder` and by `JSONDecoder`: what
// the fast one reads, JSONDecoder must read the same. Any thrown StoreError is a verdict; a trap is a
// finding. Built by scripts/fuzz.sh; seeds in Tests/Fuzz/corpus/payload.
import Foundation
import FuzzDriver
import IOSiAPCore
import IOSiAPVerification

/// The bundle id and environment the verifier expects, and the seeds carry, so inputs reach every step.
private let bundleID = "com.iosiap.fuzz"

/// Made once, at start-up: valid from 2000 for a hundred years, so that the seeds' signed dates (2023 to
/// 2026) fall inside it and only hostile dates are refused at the chain step.
private let chain: SigningChain = try! SigningChain.create(name: "IOSiAP Fuzz", from: Date(timeIntervalSince1970: 946_684_800),
                                                           days: 36_500)

private let verifier: SignedDataVerifier = try! SignedDataVerifier(trustedRoots: [chain.root.der], bundleID: bundleID,
                                                                   environment: .sandbox, validationDate: .signedDate)

/// `"x5c":["…","…","…"]`, put into headers that lack one.
private let x5cMember: [UInt8] = Array(("\"x5c\":[" + chain.x5c.map { "\"" + Data($0).base64EncodedString() + "\"" }
    .joined(separator: ",") + "]").utf8)

/// The header CompactJWS.sign writes for the test chain, base64url-encoded once.
private let chainHeaderSegment: String = {
    let jws = try! chain.sign([])
    return String(jws[..<jws.firstIndex(of: ".")!])
}()

@main enum FuzzPayload {
    static func main() { FuzzDriver.run(fuzzPayload) }
}

/// libFuzzer's own `main`, linked in but not used, refers to this name.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt { fuzzPayload(input, size) }

private func fuzzPayload(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data = input, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let headerSegment: String
    let payload: [UInt8]
    if bytes[0] == UInt8(ascii: "H") {
        let rest = bytes[1...]
        let newline = rest.firstIndex(of: UInt8(ascii: "\n"))
        headerSegment = Base64URL.encode(withChain(Array(rest[..<(newline ?? rest.endIndex)])))
        payload = newline.map { Array(rest[($0 + 1)...]) } ?? []
    } else {
        headerSegment = chainHeaderSegment
        payload = bytes
    }
    let signingInput = headerSegment + "." + Base64URL.encode(payload)
    guard let signature = try? chain.leafKey.signES256(Array(signingInput.utf8)) else {
        preconditionFailure("the test chain cannot sign")
    }
    let jws = signingInput + "." + Base64URL.encode(signature)
    _ = try? verifier.verifyTransaction(jws)
    _ = try? verifier.verifyRenewalInfo(jws)
    _ = try? verifier.verifyAppTransaction(jws)
    _ = try? verifier.verifyNotification(jws)
    agree(SignedTransactionPayload.self, payload)
    agree(RenewalInfoPayload.self, payload)
    agree(AppTransactionPayload.self, payload)
    agree(NotificationPayload.self, payload)
    return 0
}

/// `header` with the test chain's x5c after its first `{`, unless it already names an x5c (or has no `{`).
private func withChain(_ header: [UInt8]) -> [UInt8] {
    let key = Array("\"x5c\"".utf8)
    let mentionsX5C = header.count >= key.count && (0...(header.count - key.count)).contains { start in
        header[start..<(start + key.count)].elementsEqual(key)
    }
    guard !mentionsX5C, let brace = header.firstIndex(of: UInt8(ascii: "{")) else { return header }
    let next = header[(brace + 1)...].first { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }
    let member = next == UInt8(ascii: "}") ? x5cMember : x5cMember + [UInt8(ascii: ",")]
    return Array(header[...brace]) + member + Array(header[(brace + 1)...])
}

/// The payload as a model: what the fast decoder accepts, JSONDecoder must accept and read the same (the
/// verifier takes the fast decoder's reading when there is one, so accepting what JSONDecoder refuses is
/// a different verdict too, as in FuzzJWS).
private func agree<Payload: Decodable & Equatable>(_ type: Payload.Type, _ bytes: [UInt8]) {
    guard let fast = try? PayloadDecoder.decode(type, from: bytes) else { return }
    let reference = try? JSONDecoder().decode(type, from: Data(bytes))
    precondition(fast == reference, "the fast decoder read \(fast), JSONDecoder \(String(describing: reference))")
}
