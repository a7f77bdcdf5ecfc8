import CIOSiAP
import IOSiAPCore

/// Writes a struct the library fills in the caller's memory at the caller's declared size, as iosiap.h's
/// size rule says: every such struct begins with `size_t size`, set by the caller to its sizeof.
enum OutStruct {
    /// The size `out` declares; a NULL `out`, or a size below `minimumSize` (the first published layout),
    /// is refused.
    static func declaredSize<Value>(_ out: UnsafeMutablePointer<Value>?, minimumSize: Int,
                                    _ name: String) throws(StoreError) -> UInt {
        guard let out else { throw StoreError(.invalidArgument, "out is NULL") }
        let declared = UnsafeRawPointer(out).load(as: UInt.self)
        guard declared >= UInt(minimumSize) else {
            throw StoreError(.invalidArgument, "out->size is \(declared), below the \(minimumSize) bytes of the smallest "
                + "\(name) this library fills: initialise it with \(name.uppercased())_INIT")
        }
        return declared
    }

    /// Copies the first min(declared size, sizeof(Value)) bytes of `value` to `out` and sets its size to that
    /// count. Refused as `declaredSize` says, and then nothing is written.
    static func write<Value>(_ value: Value, to out: UnsafeMutablePointer<Value>?, minimumSize: Int,
                             _ name: String) throws(StoreError) {
        let declared = try declaredSize(out, minimumSize: minimumSize, name)
        let raw = UnsafeMutableRawPointer(out!)
        let count = Int(min(declared, UInt(MemoryLayout<Value>.size)))
        withUnsafeBytes(of: value) { raw.copyMemory(from: $0.baseAddress!, byteCount: count) }
        raw.storeBytes(of: UInt(count), as: UInt.self)
    }

    /// The end of `iosiap_offer`'s first published layout (0.1): its last field, display_price.
    static let offerMinimumSize = MemoryLayout<iosiap_offer>.offset(of: \.display_price)!
        + MemoryLayout<UnsafePointer<CChar>?>.size

    /// The end of `iosiap_offer_signature`'s first published layout (0.2): its last field, signature.
    static let offerSignatureMinimumSize = MemoryLayout<iosiap_offer_signature>.offset(of: \.signature)!
        + MemoryLayout.size(ofValue: iosiap_offer_signature().signature)
}
