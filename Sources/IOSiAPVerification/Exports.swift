// The crypto-free part of verification (JWS parsing, the payloads, server verification) is IOSiAPSignedData,
// which iOS, tvOS and visionOS build too; this module adds what needs OpenSSL (Linux and macOS only).
// Re-exported, so that `import IOSiAPVerification` gives both.
@_exported import IOSiAPSignedData
