#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(CCurl) && !canImport(Darwin)
import CCurl
#elseif canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IOSiAPCore

/// How a JSON POST ended: the server's answer, or why none came (no connection, the deadline, an answer too long).
package enum PostAnswer: Sendable, Equatable {
    case answered(status: Int, body: [UInt8])
    case noAnswer(String)
}

/// Posts JSON for the server verifier: with libcurl on Linux (where URLSession would link classic Foundation and ICU
/// into libiosiap), where `timeout` bounds the whole POST, at most `maxAnswerBytes` of an answer are read, and a
/// cancelled task's POST ends at once, with no answer; with URLSession on Apple platforms, where `timeout` is
/// URLSession's (the longest wait for the next bytes) and a longer answer is refused once read.
package struct JSONPoster: Sendable {
    package static let maxAnswerBytes = 1024 * 1024

    /// The name of the thread each POST runs on (libcurl's calls block it).
    private let threadName: String

    package init(threadName: String = "iosiap.verify") {
        self.threadName = threadName
    }

    package func post(_ body: Data, to url: URL, timeout: Duration) async -> PostAnswer {
        #if canImport(CCurl) && !canImport(Darwin)
        let stopped = Locked(false)
        let options = CurlPost.Options(timeout: timeout, maxBodyBytes: Self.maxAnswerBytes, keptBodyBytes: Self.maxAnswerBytes,
                                       followsRedirects: true, loopbackBypassesProxy: false)
        guard let post = CurlPost(url: url, body: body, options: options, stopped: stopped) else {
            return .noAnswer("libcurl could not set the POST up")
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                do throws(StoreError) {
                    try JoinableThread(trying: threadName) {
                        continuation.resume(returning: Self.answer(of: post))
                        // After the answer: freeing the handles may wait for a name lookup still under way.
                        post.close()
                    }.detach()
                } catch {
                    // No thread to post from (the system's limit): an attempt without an answer, tried again later.
                    post.close()
                    continuation.resume(returning: .noAnswer(error.message))
                }
            }
        } onCancel: {
            stopped.withLock { $0 = true }
            post.wake()
        }
        #else
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.timeoutInterval = timeout.timeInterval
        request.httpBody = body
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            guard let http = response as? HTTPURLResponse else { return .noAnswer("no HTTP answer") }
            if data.count > Self.maxAnswerBytes { return .noAnswer("the answer is longer than \(Self.maxAnswerBytes) bytes") }
            return .answered(status: http.statusCode, body: Array(data))
        } catch {
            return .noAnswer(error.localizedDescription)
        }
        #endif
    }

    #if canImport(CCurl) && !canImport(Darwin)
    /// How `post` ended, once `perform` has run on the calling thread.
    private static func answer(of post: CurlPost) -> PostAnswer {
        guard let code = post.perform() else { return .noAnswer("cancelled") }
        if post.cutAtCap { return .noAnswer("the answer is longer than \(maxAnswerBytes) bytes") }
        guard code == CURLE_OK else { return .noAnswer(String(cString: curl_easy_strerror(code))) }
        return .answered(status: post.status, body: post.body)
    }
    #endif
}
