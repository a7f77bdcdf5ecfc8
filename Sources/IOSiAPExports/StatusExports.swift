import CIOSiAP
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import IOSiAPCore

/// This library's version, in the form of `IOSIAP_VERSION_NUMBER` (a test checks they agree).
let libraryVersionNumber: CInt = 500

@c(iosiap_version)
public func iosiap_version() -> CInt {
    libraryVersionNumber
}

@c(iosiap_status_text)
public func iosiap_status_text(_ status: CInt) -> UnsafePointer<CChar>? {
    StatusTexts.text(for: status)
}

@c(iosiap_last_error_message)
public func iosiap_last_error_message() -> UnsafePointer<CChar>? {
    LastError.message
}

/// The static texts of `iosiap_status_text`, made once and never freed.
///
/// `@unchecked Sendable`: built once, then only read.
struct StatusTexts: @unchecked Sendable {
    private let byStatus: [Int32: UnsafePointer<CChar>]
    private let unknown: UnsafePointer<CChar>

    private static let shared: StatusTexts = {
        var texts = [IOSIAP_OK.rawValue: UnsafePointer(strdup("ok")!)]
        for code in StoreErrorCode.allCases { texts[code.rawValue] = UnsafePointer(strdup(code.summary)!) }
        return StatusTexts(byStatus: texts, unknown: UnsafePointer(strdup("unknown status code")!))
    }()

    static func text(for status: Int32) -> UnsafePointer<CChar> {
        shared.byStatus[status] ?? shared.unknown
    }
}
