// libFuzzer target: the C ABI's string inputs. The input is split at NUL bytes into C strings that are
// passed, as a C caller would, to the request (payment options and offers too), product, ledger, offer
// signing and verify functions of one open store.
// Built by scripts/fuzz.sh.
import Foundation
import FuzzDriver
import CIOSiAP
import IOSiAPExports

/// The token of the store every input is fed to (a handle is an opaque token, safe to share).
nonisolated(unsafe) private let store: OpaquePointer? = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iosiap-fuzz-\(getpid())")
    let catalog = ProcessInfo.processInfo.environment["IOSIAP_FUZZ_CATALOG"] ?? "Examples/Products.storekit"
    var options = iosiap_local_store_options()
    options.version = 2
    var handle: OpaquePointer?
    return catalog.withCString { catalogPath in
        folder.path.withCString { statePath in
            options.catalog_path = catalogPath
            options.state_directory = statePath
            precondition(iosiap_store_open_local(&handle, &options, nil) == 0, "cannot open the fuzzing store")
            let ids = ["com.iosiap.example.coins_100", "com.iosiap.example.pro_upgrade", "com.iosiap.example.club_gold_monthly"]
            var pointers = ids.map { strdup($0).map { UnsafePointer($0) } }
            _ = iosiap_request_products(nil, handle, &pointers, UInt(pointers.count))
            for pointer in pointers { free(UnsafeMutablePointer(mutating: pointer)) }
            return handle
        }
    }
}()

@main enum FuzzCABI {
    static func main() { FuzzDriver.run(fuzzCABI) }
}

/// libFuzzer's own `main`, linked in but not used, refers to this name.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt { fuzzCABI(input, size) }

private func fuzzCABI(_ input: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data = input else { return 0 }
    // Each piece is copied into its own allocation, NUL-terminated, so that ASan sees any overread.
    var pieces: [UnsafeMutablePointer<CChar>] = []
    var start = 0
    for index in 0...size where index == size || data[index] == 0 {
        let piece = UnsafeMutablePointer<CChar>.allocate(capacity: index - start + 1)
        for offset in 0..<(index - start) { piece[offset] = CChar(bitPattern: data[start + offset]) }
        piece[index - start] = 0
        pieces.append(piece)
        start = index + 1
    }
    defer { for piece in pieces { piece.deallocate() } }
    var ids = pieces.map { Optional(UnsafePointer($0)) }
    let first = ids[0]
    _ = iosiap_request_products(nil, store, &ids, UInt(ids.count))
    _ = iosiap_request_payment(nil, store, first, CInt(size % 12), ids.count > 1 ? ids[1] : nil)
    // The same pieces as a payment's options, a promotional offer among them.
    func piece(_ index: Int) -> UnsafePointer<CChar>? { ids.count > index ? ids[index] : nil }
    var options = iosiap_payment_options()
    options.version = UInt32(IOSIAP_PAYMENT_OPTIONS_VERSION)
    options.quantity = CInt(size % 12)
    options.app_account_token = piece(1)
    options.offer_id = piece(2)
    options.offer_key_id = piece(3)
    options.offer_nonce = piece(4)
    options.offer_timestamp_ms = Int64(size) * 1_000_003
    options.offer_signature = piece(5)
    _ = iosiap_request_payment_with_options(nil, store, first, &options)
    // A win-back offer instead (a payment redeems one offer), and an offer code redeemed outside the game.
    options.offer_id = nil
    options.win_back_offer_id = piece(6) ?? piece(1)
    _ = iosiap_request_payment_with_options(nil, store, first, &options)
    _ = iosiap_local_redeem_offer_code(nil, store, first, piece(1))
    var signature = iosiap_offer_signature()
    signature.size = MemoryLayout<iosiap_offer_signature>.size
    _ = iosiap_local_sign_promotional_offer(&signature, store, first, piece(1), piece(2))
    var product: OpaquePointer?
    _ = iosiap_store_product(&product, store, first)
    var entitled: CInt = 0
    _ = iosiap_is_entitled(&entitled, store, first)
    var balance: Int64 = 0
    _ = iosiap_ledger_balance(&balance, store, first)
    // What the store knows about the user, for a fuzzed group id; Family Sharing for a fuzzed product and id.
    var status: UnsafeMutablePointer<iosiap_subscription_status_info>?
    _ = iosiap_subscription_status(&status, store, first)
    iosiap_subscription_status_free(status)
    var eligible: CInt = 0
    _ = iosiap_is_eligible_for_intro_offer(&eligible, store, first)
    var shared: UInt64 = 0
    if iosiap_local_buy_family_shared(&shared, store, first) == IOSIAP_OK.rawValue {
        _ = iosiap_local_stop_family_sharing(store, shared)
    }
    _ = iosiap_local_stop_family_sharing(store, UInt64(size))
    _ = iosiap_transaction_history(store, nil, nil)
    var payload: UnsafeMutablePointer<CChar>?
    _ = iosiap_verify_transaction(&payload, first, nil, 0, ids.count > 1 ? ids[1] : first, ids.count > 2 ? ids[2] : nil)
    iosiap_string_free(payload)
    _ = iosiap_poll(store, 0)
    return 0
}
