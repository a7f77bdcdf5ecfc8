// libcurl's POST, for the local store's notifications (Linux, macOS) and server verifications on Linux.
#if canImport(CCurl)
import CCurl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// One JSON POST, with libcurl: a multi handle driving one transfer (rather than curl_easy_perform) so that `wake()`
/// can end its wait at once (curl_multi_wakeup) when its owner stops it. `timeout` is a hard deadline for the whole
/// POST (an endpoint trickling bytes never stretches it). At most `maxBodyBytes` of the answer are read, and the
/// first `keptBodyBytes` of them kept; past the cap, or once stopped, the callbacks abort the transfer and libcurl
/// drops the connection, so an endless answer costs a few socket buffers, not a stream read until the endpoint stops.
///
/// `@unchecked Sendable`: the handles are used by the thread that runs `perform` and, through `wake` and `close`,
/// under the `closed` lock; the answer's bytes are read only after `perform` has returned.
package final class CurlPost: @unchecked Sendable {
    /// curl_global_init, once per process before any handle: a static's initializer runs once, thread-safely
    /// (and libcurl's own is thread-safe where it has CURL_VERSION_THREADSAFE, 7.84 on).
    package static let libcurlReady = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

    package struct Options: Sendable {
        package var timeout: Duration
        package var maxBodyBytes: Int
        package var keptBodyBytes: Int
        /// Whether a redirect is followed (at most 5, never from https to http), as URLSession does; otherwise a 3xx
        /// is the answer.
        package var followsRedirects: Bool
        /// Whether this machine's own addresses are reached without the environment's proxy (`http_proxy`, ...),
        /// which is then for other hosts; otherwise libcurl follows the environment, `no_proxy` included.
        package var loopbackBypassesProxy: Bool

        package init(timeout: Duration, maxBodyBytes: Int, keptBodyBytes: Int = 0, followsRedirects: Bool,
                     loopbackBypassesProxy: Bool) {
            self.timeout = timeout
            self.maxBodyBytes = maxBodyBytes
            self.keptBodyBytes = min(keptBodyBytes, maxBodyBytes)
            self.followsRedirects = followsRedirects
            self.loopbackBypassesProxy = loopbackBypassesProxy
        }

        /// `timeout` in whole milliseconds for libcurl: at least 1 (0 would be no deadline), saturating.
        var timeoutMilliseconds: Int {
            let milliseconds = (timeout / .milliseconds(1)).rounded(.up)
            return milliseconds >= Double(Int32.max) ? Int(Int32.max) : max(1, Int(milliseconds))
        }
    }

    /// What the POST says it is (`User-Agent`): some firewalls refuse a request without one.
    package static let userAgent = "IOSiAP (libcurl)"

    package let attemptDate = Date()
    private let multi: UnsafeMutableRawPointer
    private let easy: UnsafeMutableRawPointer
    private let headers: UnsafeMutablePointer<curl_slist>?
    private let options: Options
    private let stopped: Locked<Bool>
    /// Whether `close()` has begun: `wake()` touches the handles only before, under this lock, and `close()` frees
    /// them outside it (freeing may wait for a name lookup, which must not hold up a `wake()` from the game's thread).
    private let closed = Locked(false)
    /// Only on the POST's thread (libcurl calls back on the thread that drives the transfer).
    private var bodyBytes = 0
    /// The answer's first `keptBodyBytes` bytes; read once `perform` has returned.
    package private(set) var body: [UInt8] = []
    /// Whether the answer was longer than `maxBodyBytes` and cut there.
    package private(set) var cutAtCap = false

    /// A POST of the JSON `body` to `url`, stopped when `stopped` becomes true; nil when libcurl cannot set it up.
    package init?(url: URL, body: Data, options: Options, stopped: Locked<Bool>) {
        guard Self.libcurlReady, let multi = curl_multi_init() else { return nil }
        guard let easy = curl_easy_init() else { curl_multi_cleanup(multi); return nil }
        self.multi = multi
        self.easy = easy
        // No "Expect: 100-continue": the body goes with the request, without a wait for the endpoint's go-ahead.
        headers = curl_slist_append(curl_slist_append(nil, "Content-Type: application/json"), "Expect:")
        self.options = options
        self.stopped = stopped
        let context = Unmanaged.passUnretained(self).toOpaque()
        var set = [
            iosiap_curl_set_string(easy, CURLOPT_URL, url.absoluteString),
            iosiap_curl_allow_http_only(easy),
            iosiap_curl_set_string(easy, CURLOPT_USERAGENT, Self.userAgent),
            iosiap_curl_set_long(easy, CURLOPT_FOLLOWLOCATION, options.followsRedirects ? 1 : 0),
            // Threads of our own: libcurl must not use signals for its timeouts.
            iosiap_curl_set_long(easy, CURLOPT_NOSIGNAL, 1),
            iosiap_curl_quick_exit(easy),
            iosiap_curl_set_long(easy, CURLOPT_TIMEOUT_MS, options.timeoutMilliseconds),
            iosiap_curl_set_headers(easy, headers),
            iosiap_curl_set_long(easy, CURLOPT_POSTFIELDSIZE, body.count),
            body.withUnsafeBytes { iosiap_curl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) },
            iosiap_curl_set_write_function(easy) { bytes, size, count, context in
                Unmanaged<CurlPost>.fromOpaque(context!).takeUnretainedValue().take(bytes, size * count) ? size * count : 0
            },
            iosiap_curl_set_pointer(easy, CURLOPT_WRITEDATA, context),
            iosiap_curl_set_long(easy, CURLOPT_NOPROGRESS, 0),
            iosiap_curl_set_xferinfo_function(easy) { context, _, _, _, _ in
                Unmanaged<CurlPost>.fromOpaque(context!).takeUnretainedValue().stopped.withLock { $0 } ? 1 : 0
            },
            iosiap_curl_set_pointer(easy, CURLOPT_XFERINFODATA, context),
        ]
        if options.loopbackBypassesProxy { set.append(iosiap_curl_set_string(easy, CURLOPT_NOPROXY, "localhost,127.0.0.1,::1")) }
        if options.followsRedirects {
            set.append(iosiap_curl_set_long(easy, CURLOPT_MAXREDIRS, 5))
            // A request sent over https (the body: a signed transaction, a shared secret) is never sent on in clear text.
            set.append(iosiap_curl_allow_redirects(easy, url.scheme?.lowercased() == "https" ? 1 : 0))
        }
        guard set.allSatisfy({ $0 == CURLE_OK }), curl_multi_add_handle(multi, easy) == CURLM_OK else {
            close()
            return nil
        }
    }

    /// Body bytes came: counted, and kept up to `keptBodyBytes`. False past `maxBodyBytes` or once stopped: the
    /// callback then answers 0, not the chunk's size, and libcurl aborts (CURLE_WRITE_ERROR). Past the cap a chunk is
    /// never empty.
    private func take(_ bytes: UnsafeMutablePointer<CChar>?, _ count: Int) -> Bool {
        bodyBytes += count
        cutAtCap = bodyBytes > options.maxBodyBytes
        if !cutAtCap, let bytes, body.count < options.keptBodyBytes {
            let kept = min(count, options.keptBodyBytes - body.count)
            bytes.withMemoryRebound(to: UInt8.self, capacity: kept) { body.append(contentsOf: UnsafeBufferPointer(start: $0, count: kept)) }
        }
        return !cutAtCap && !stopped.withLock { $0 }
    }

    /// Runs the transfer to its end (answer, deadline, body cap or error) and returns libcurl's result; nil when
    /// it was stopped first (or libcurl failed to drive it).
    package func perform() -> CURLcode? {
        var running: Int32 = 1
        while running > 0, !stopped.withLock({ $0 }) {
            guard curl_multi_perform(multi, &running) == CURLM_OK else { return nil }
            if running > 0 { _ = curl_multi_poll(multi, nil, 0, 1000, nil) }
        }
        guard running == 0 else { return nil }
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            if message.pointee.msg == CURLMSG_DONE { return message.pointee.data.result }
        }
        return nil
    }

    /// The answer's HTTP status, 0 if none came.
    package var status: Int {
        var code = 0
        return iosiap_curl_response_code(easy, &code) == CURLE_OK ? code : 0
    }

    /// Ends the transfer's wait for the network, so that it sees it was stopped. Any thread; it never waits for
    /// the network itself.
    package func wake() {
        closed.withLock { closed in if !closed { _ = curl_multi_wakeup(multi) } }
    }

    /// Frees libcurl's handles (dropping the connection), once: on the thread that ran `perform`, or after it.
    package func close() {
        guard closed.withLock({ closed in
            defer { closed = true }
            return !closed
        }) else { return }
        curl_multi_remove_handle(multi, easy)
        curl_easy_cleanup(easy)
        curl_multi_cleanup(multi)
        curl_slist_free_all(headers)
    }

    deinit { close() }
}
#endif
