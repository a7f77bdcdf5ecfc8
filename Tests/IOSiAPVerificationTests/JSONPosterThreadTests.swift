import Foundation
import IOSiAPCore
import IOSiAPSignedData
import Testing

/// A verification POST that cannot get a thread (the system's limit) ends without an answer, which the server
/// verifier tries again later, instead of stopping the game.
@Suite struct JSONPosterThreadTests {
    @Test func aPostWithoutAThreadEndsWithoutAnAnswer() async throws {
        JoinableThread.refusedStarts.withLock { $0["test.refused.post"] = 1 }
        let poster = JSONPoster(threadName: "test.refused.post")
        // Nothing listens on port 9 of loopback: had the POST run, it would have failed differently.
        let answer = await poster.post(Data("{}".utf8), to: try #require(URL(string: "http://127.0.0.1:9/verify")), timeout: .seconds(5))
        guard case .noAnswer(let problem) = answer else {
            Issue.record("answered: \(answer)")
            return
        }
        #expect(problem.hasPrefix("cannot start a thread (test.refused.post): "), "\(problem)")
    }
}
