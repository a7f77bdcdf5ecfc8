import CIOSiAP
import IOSiAPCore
@testable import IOSiAPExports
import Testing

/// Out-structs are written at the caller's declared size: never a byte past it.
@Suite struct OutStructTests {
    static let canary: UInt8 = 0xA5

    /// An iosiap_offer written into a canary-filled buffer whose first word says `declared`.
    func write(declared: Int, minimumSize: Int) -> (status: StoreError?, bytes: [UInt8]) {
        var bytes = [UInt8](repeating: Self.canary, count: MemoryLayout<iosiap_offer>.size + 32)
        let offer = iosiap_offer(size: MemoryLayout<iosiap_offer>.size, id: nil, payment_mode: 1, period_value: 2,
                                 period_unit: 3, period_count: 4, price: nil, display_price: nil)
        var status: StoreError?
        bytes.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: UInt(declared), as: UInt.self)
            do throws(StoreError) {
                try OutStruct.write(offer, to: raw.baseAddress!.assumingMemoryBound(to: iosiap_offer.self),
                                    minimumSize: minimumSize, "iosiap_offer")
            } catch {
                status = error
            }
        }
        return (status, bytes)
    }

    func declaredSize(_ bytes: [UInt8]) -> Int {
        Int(bytes.withUnsafeBytes { $0.load(as: UInt.self) })
    }

    @Test func aSmallerCallerGetsItsSizeAndNotAByteMore() {
        let small = MemoryLayout<iosiap_offer>.offset(of: \.period_unit)!
        let (status, bytes) = write(declared: small, minimumSize: 8)
        #expect(status == nil)
        #expect(declaredSize(bytes) == small)
        #expect(bytes[small...].allSatisfy { $0 == Self.canary })
        #expect(bytes[MemoryLayout<iosiap_offer>.offset(of: \.payment_mode)!] == 1)
    }

    @Test func aSizeBelowTheFirstLayoutIsRefusedAndNothingIsWritten() {
        let (status, bytes) = write(declared: 16, minimumSize: OutStruct.offerMinimumSize)
        #expect(status?.code == .invalidArgument && status?.message.contains("IOSIAP_OFFER_INIT") == true)
        #expect(declaredSize(bytes) == 16 && bytes[8...].allSatisfy { $0 == Self.canary })
    }

    @Test func aLargerCallerGetsThisLibrarysStructAndItsSize() {
        let (status, bytes) = write(declared: MemoryLayout<iosiap_offer>.size + 16, minimumSize: OutStruct.offerMinimumSize)
        #expect(status == nil && declaredSize(bytes) == MemoryLayout<iosiap_offer>.size)
        #expect(bytes[MemoryLayout<iosiap_offer>.size...].allSatisfy { $0 == Self.canary })
    }

    @Test func theFirstLayoutsAreTheWholeStructsToday() {
        #expect(OutStruct.offerMinimumSize == MemoryLayout<iosiap_offer>.size)
        #expect(OutStruct.offerSignatureMinimumSize == MemoryLayout<iosiap_offer_signature>.size)
    }
}
