#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

extension StoreError {
    /// What went wrong in a file system call or a decoder, in a few words for a message: the system's text for
    /// the errno behind it ("No such file or directory"). Used in place of `localizedDescription`, whose text
    /// comes from classic Foundation (which would link ICU into libiosiap).
    package static func describe(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        if let cocoa = error as? CocoaError {
            if let posix = cocoa.underlying as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
            switch cocoa.code {
            case .fileNoSuchFile, .fileReadNoSuchFile: return String(cString: strerror(ENOENT))
            case .fileReadNoPermission, .fileWriteNoPermission: return String(cString: strerror(EACCES))
            case .fileWriteOutOfSpace: return String(cString: strerror(ENOSPC))
            case .fileWriteFileExists: return String(cString: strerror(EEXIST))
            case .fileReadCorruptFile: return "the file is not in a format that can be read"
            case .fileReadInapplicableStringEncoding: return "the file is not text in the expected encoding"
            default: return "file system error \(cocoa.code.rawValue)"
            }
        }
        if let decoding = error as? DecodingError {
            switch decoding {
            case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
                 .valueNotFound(_, let context):
                return context.debugDescription
            @unknown default: return "\(decoding)"
            }
        }
        return "\(error)"
    }
}
