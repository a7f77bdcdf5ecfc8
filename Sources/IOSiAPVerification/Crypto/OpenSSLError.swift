import CCrypto
import IOSiAPCore

/// Turns OpenSSL's error queue into a `StoreError`, emptying the queue.
enum OpenSSLError {
    static func make(_ code: StoreErrorCode, _ what: String) -> StoreError {
        var reasons: [String] = []
        while case let error = ERR_get_error(), error != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(error, &buffer, buffer.count)
            reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return StoreError(code, reasons.isEmpty ? what : "\(what): \(reasons.joined(separator: "; "))")
    }

    /// Drops errors a failed check left behind, so that they do not show up in a later message.
    static func clear() {
        ERR_clear_error()
    }
}
