// Starts libFuzzer on a target's callback: each fuzz target's @main calls `FuzzDriver.run`. (SwiftPM gives
// executables their own entry point, so libFuzzer's `main` is replaced by LLVMFuzzerRunDriver.)
#if canImport(Glibc)
import Glibc
#endif
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

public enum FuzzDriver {
    /// Runs libFuzzer with the process's arguments; never returns.
    public static func run(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
    }
}
