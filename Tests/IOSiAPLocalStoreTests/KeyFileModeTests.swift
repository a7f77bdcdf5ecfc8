import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport
import Testing

/// The signing key in the state directory is readable by its owner only, whatever the umask.
@Suite(.serialized) struct KeyFileModeTests {
    let folder = TemporaryDirectory()

    func open() throws {
        _ = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state)
    }

    func mode(_ name: String) throws -> Int {
        let path = name.isEmpty ? folder.url.appendingPathComponent("signing").path
            : folder.url.appendingPathComponent("signing").appendingPathComponent(name).path
        return try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func aNewKeyFileIsCreatedOwnerOnly() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        try open()
        #expect(try mode("leaf-key.p8") == 0o600)
        #expect(try mode("root.der") == 0o644)
    }

    @Test func anExistingKeyFileWithWiderModeIsNarrowedAtOpen() throws {
        try open()
        let path = folder.url.appendingPathComponent("signing/leaf-key.p8").path
        #expect(chmod(path, 0o644) == 0)
        try open()
        #expect(try mode("leaf-key.p8") == 0o600)
    }

    /// Others who may write into `signing/` could put their own chain there, which the store would then sign
    /// with and a backend trusting `signing/root.der` would believe: the folder is writable by its owner only,
    /// whatever the umask, and one left writable by others is narrowed at open.
    @Test func theSigningFolderIsWritableByItsOwnerOnly() throws {
        let previous = umask(0)
        defer { umask(previous) }
        try open()
        #expect(try mode("") == 0o755)
        #expect(chmod(folder.url.appendingPathComponent("signing").path, 0o777) == 0)
        try open()
        #expect(try mode("") == 0o755)
    }
}
