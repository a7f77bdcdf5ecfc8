import IOSiAPTestSupport
import Testing

extension Trait where Self == ConditionTrait {
    /// For a test that reads `../shared/fixtures`: skipped, saying why, on a clone of the repository alone, which
    /// lacks it; run where it exists (CI, the project's own checkouts). See `Fixtures`.
    static var needsSharedFixtures: Self {
        .enabled(if: Fixtures.sharedAvailable, Comment(rawValue: Fixtures.sharedMissingReason))
    }
}
