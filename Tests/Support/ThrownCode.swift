import IOSiAPCore

/// The code of the `StoreError` that `body` throws, or `nil` when it throws none: for tests that check
/// the code a caller sees, whatever the message's details.
public func thrownCode(_ body: () throws -> Void) -> StoreErrorCode? {
    do {
        try body()
        return nil
    } catch {
        return (error as? StoreError)?.code
    }
}
