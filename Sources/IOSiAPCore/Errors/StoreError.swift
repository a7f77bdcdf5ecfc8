/// An error from any IOSiAP layer: a stable code and a message that names what went wrong.
///
/// The C ABI returns `code.rawValue` as the status and makes `message` the last error's text.
public struct StoreError: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// The stable code (the C status).
    public let code: StoreErrorCode
    /// A human-readable message with the details of this failure.
    public let message: String

    /// Creates an error; without a message the code's summary is used.
    public init(_ code: StoreErrorCode, _ message: String? = nil) {
        self.code = code
        self.message = message ?? code.summary
    }

    public var description: String { "\(message) [\(code.rawValue)]" }
}
