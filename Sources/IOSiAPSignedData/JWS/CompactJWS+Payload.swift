#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

extension CompactJWS {
    /// Decodes a JWS's payload without verifying anything: for looking at data, or for binding a transaction
    /// to a JWS a server has vouched for; never for granting on its own.
    package static func decodeUnverified<Payload: Decodable>(_ jws: String, as type: Payload.Type) throws(StoreError) -> Payload {
        try CompactJWS(jws).decodedPayload()
    }

    /// The payload as `Payload`: the fast decoder first; what it does not read exactly as `JSONDecoder` does,
    /// `JSONDecoder`. `verificationInvalidFormat`, naming the field at fault where it can, when neither reads it.
    package func decodedPayload<Payload: Decodable>() throws(StoreError) -> Payload {
        if let decoded = try? PayloadDecoder.decode(Payload.self, from: payload) { return decoded }
        do {
            return try Self.decoder.decode(Payload.self, from: Data(payload))
        } catch {
            throw StoreError(.verificationInvalidFormat, Self.describe(error, Payload.self, payload))
        }
    }

    /// Shared: decoding leaves it unchanged, and a new one per call is an allocation per verification.
    private static let decoder = JSONDecoder()

    /// Why the payload was refused, naming the field at fault (a number out of range, a value of the wrong
    /// type) where the decoder says which, or where removing one number lets the payload decode.
    private static func describe<Payload: Decodable>(_ error: any Error, _ type: Payload.Type, _ bytes: [UInt8]) -> String {
        let context: DecodingError.Context? = switch error as? DecodingError {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
             .keyNotFound(_, let context): context
        default: nil
        }
        if let context, !context.codingPath.isEmpty {
            let field = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return "the JWS payload's field '\(field)' is invalid: \(context.debugDescription)"
        }
        // Only for payloads of an App Store's size: the search decodes again, before the signature is checked.
        guard bytes.count <= RefusedFieldFinder.maximumPayloadLength else { return "the JWS payload is not the expected JSON" }
        let field = RefusedFieldFinder.field(in: bytes) { candidate in
            (try? decoder.decode(Payload.self, from: Data(candidate))) != nil
        }
        guard let field else { return "the JWS payload is not the expected JSON" }
        return "the JWS payload's field '\(field)' is invalid: a number out of its range"
    }
}
