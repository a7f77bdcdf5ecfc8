import CCurl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPVerification

/// Sends the outbox's notifications to the notification URL, on threads of its own with its own database
/// connection, so that the game's and the store worker's paths never wait for it: every `tick` it records what
/// changed (`NotificationRecorder`), leases the notifications due (a lease in SQLite: another process's sender
/// skips them) and POSTs each as `{"signedPayload": JWS}` with libcurl, on a thread per POST. A 2xx answer is
/// delivered; another answer (a redirect is not followed), or none within `timeout`, is tried again after the next
/// of `retryDelays` (Apple's 1, 12, 24, 48 and 72 hours, at the store's time rate), then given up. `timeout` is a
/// hard deadline for the whole POST (an endpoint trickling bytes never stretches it), well inside the lease, so a
/// POST ends before its lease could; the answer's body is counted, not kept, and past `maxBodyBytes` libcurl drops
/// the connection at once. At most `maxInFlight` POSTs at once and `maxPerSecond` started a second, per sender
/// (each process runs its own).
final class NotificationSender: @unchecked Sendable {
    /// Apple's schedule: after the first attempt, five retries, 1, 12, 24, 48 and 72 hours after the previous one
    /// (developer.apple.com/documentation/appstoreservernotifications/responding-to-app-store-server-notifications).
    static let appleRetryHours: [Double] = [1, 12, 24, 48, 72]

    /// Apple's schedule in real seconds at `rate`: an hour is a 24th of the rate's day.
    static func retryDelays(at rate: TimeRate) -> [TimeInterval] {
        let start = Date(timeIntervalSince1970: 0)
        let day = rate == .realTime ? 86_400 : rate.end(of: StoreSubscriptionPeriod(value: 1, unit: .day), from: start).timeIntervalSince(start)
        return appleRetryHours.map { $0 * day / 24 }
    }

    struct Limits {
        var retryDelays: @Sendable () -> [TimeInterval]
        var timeout: TimeInterval = 5
        var maxInFlight = 4
        var maxPerSecond = 10
        /// How much of an answer's body is read (and thrown away) before the sender hangs up.
        var maxBodyBytes = 16 * 1024
        /// How long a leased notification stays another sender's: longer than a POST can take.
        var lease: TimeInterval { timeout * 3 + 5 }
        /// A POST's: its answer is counted, not kept, and a redirect is the answer (UNSUCCESSFUL_HTTP_RESPONSE_CODE),
        /// as for Apple's sender.
        var curlOptions: CurlPost.Options {
            CurlPost.Options(timeout: .milliseconds(Int(timeout * 1000)), maxBodyBytes: maxBodyBytes, followsRedirects: false,
                             loopbackBypassesProxy: true)
        }
    }

    private let state: Locked<LocalStoreState>
    private let recorder: Locked<NotificationRecorder>
    private let limits: Limits
    private let now: @Sendable () -> Date
    private let owner = UUID().uuidString
    /// The POSTs under way, by notification id: a POST's thread takes its own out when it ends.
    private let inFlight = Locked<[Int64: Post]>([:])
    private let started = Locked<[Date]>([])
    private let lastLook = Locked<(dataVersion: Int64, at: Date)>((-1, .distantPast))
    /// Set by `stop()`. A POST records its attempt under this lock, so that none is written after `stop()`.
    private let stopped = Locked(false)
    private var watcher: PeriodicWatcher?

    init(directory: StateDirectory, environment: StoreEnvironment, signer: TransactionSigner, limits: Limits,
         now: @escaping @Sendable () -> Date, interval: Duration) throws(StoreError) {
        guard CurlPost.libcurlReady else { throw StoreError(.systemError, "libcurl could not be initialised") }
        state = Locked(try LocalStoreState(directory: directory, environment: environment))
        recorder = Locked(NotificationRecorder(signer: signer, environment: environment))
        self.limits = limits
        self.now = now
        watcher = PeriodicWatcher(name: "iosiap.notifications", interval: interval) { [weak self] in self?.tick() }
    }

    /// Records and sends what is due. A failing read or write is tried again at the next tick.
    func tick() {
        guard !stopped.withLock({ $0 }), let url = try? state.withLock({ state throws(StoreError) in try state.notificationURL() }) else {
            return
        }
        recordChanges()
        let wallClock = Date()
        let budget = started.withLock { started in
            started.removeAll { wallClock.timeIntervalSince($0) >= 1 }
            return limits.maxPerSecond - started.count
        }
        let (sending, room) = inFlight.withLock { (Set($0.keys), min(budget, limits.maxInFlight - $0.count)) }
        guard room > 0, let due = try? state.withLock({ state throws(StoreError) in
            try state.claimNotifications(owner: owner, limit: room, now: wallClock, lease: limits.lease, excluding: sending)
        }) else { return }
        for (id, signedPayload) in due { post(id, signedPayload, to: url) }
    }

    /// Looks for changes when another connection wrote (SQLite's data_version) and once a second (time alone
    /// ends a grace period).
    private func recordChanges() {
        let wallClock = Date()
        guard let version = try? state.withLock({ state throws(StoreError) in
            try state.database.dataVersion()
        }) else { return }
        let last = lastLook.withLock { $0 }
        guard version != last.dataVersion || wallClock.timeIntervalSince(last.at) >= 1 else { return }
        let now = self.now()
        let recorded = state.withLock { state in
            recorder.withLock { recorder in (try? recorder.record(in: state, at: now)) != nil }
        }
        if recorded { lastLook.withLock { $0 = (version, wallClock) } }
    }

    private func post(_ id: Int64, _ signedPayload: String, to url: URL) {
        guard let body = try? JSONEncoder().encode(["signedPayload": signedPayload]),
              let curl = CurlPost(url: url, body: body, options: limits.curlOptions, stopped: stopped) else {
            // libcurl refused to set the POST up: a failed attempt, retried on Apple's schedule, not a silent retry
            // at every lease's end.
            record(id, attemptDate: Date(), result: "NO_RESPONSE")
            return
        }
        let post = Post(curl)
        guard stopped.withLock({ stopped in
            if !stopped { inFlight.withLock { $0[id] = post } }
            return !stopped
        }) else { return }
        started.withLock { $0.append(curl.attemptDate) }
        let thread: JoinableThread
        do {
            thread = try JoinableThread(trying: "iosiap.notifications.post") { [self] in end(id, post, code: curl.perform()) }
        } catch {
            // No thread to post from (the system's limit): a failed attempt, as when libcurl refuses to set it up.
            record(id, attemptDate: curl.attemptDate, result: "NO_RESPONSE")
            curl.close()
            inFlight.withLock { _ = $0.removeValue(forKey: id) }
            return
        }
        // The thread is joined by stop() or detached when its POST ends, by whichever takes it from the POST first.
        inFlight.withLock { inFlight -> JoinableThread? in
            guard inFlight[id] === post else { return thread }
            post.thread = thread
            return nil
        }?.detach()
    }

    /// Records how `post` ended (`code`: libcurl's result, nil when it did not end on its own) and lets it go.
    private func end(_ id: Int64, _ post: Post, code: CURLcode?) {
        // A POST cut short by stop is no attempt: the lease runs out and a later sender tries it.
        if let code {
            record(id, attemptDate: post.curl.attemptDate,
                   result: Self.result(post.curl.cutAtCap ? CURLE_OK : code, status: post.curl.status))
        }
        // Recorded first: freeing the handles may wait for a name lookup still under way.
        post.curl.close()
        inFlight.withLock { inFlight -> JoinableThread? in
            inFlight[id] = nil
            defer { post.thread = nil }
            return post.thread
        }?.detach()
    }

    /// Records an attempt of the notification `id` leased, unless the sender stopped (under the lock `stop()`
    /// takes: nothing is written after it).
    private func record(_ id: Int64, attemptDate: Date, result: String) {
        // Asked outside the lock (it reads the store's settings).
        let delays = stopped.withLock({ $0 }) ? [] : limits.retryDelays()
        stopped.withLock { stopped in
            guard !stopped else { return }
            let attempt = NotificationSendAttempt(attemptDate: Int64(Milliseconds(attemptDate).value), sendAttemptResult: result)
            _ = try? state.withLock { state throws(StoreError) in
                try state.completeNotification(id, owner: owner, attempt: attempt, at: Date(), retryDelays: delays)
            }
        }
    }

    /// Apple's sendAttemptResult for how a POST ended: libcurl's result `code` (CURLE_OK also for a body cut at
    /// the cap: the answer is its status) and the answer's HTTP `status` (0 when none came). SUCCESS for 200 to
    /// 206 (Apple's success range).
    static func result(_ code: CURLcode, status: Int) -> String {
        switch code {
        case CURLE_OK:
            guard status > 0 else { return "INVALID_RESPONSE" }
            return (200...206).contains(status) ? "SUCCESS" : "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
        case CURLE_OPERATION_TIMEDOUT: return "TIMED_OUT"
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED,
             CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED:
            return "TLS_ISSUE"
        // The endpoint hung up: before answering, mid-answer, or while the request was sent.
        case CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR: return "PREMATURE_CLOSE"
        // Not HTTP (an HTTP/0.9 answer is UNSUPPORTED_PROTOCOL: the URL's scheme was checked before), or bad HTTP.
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_HTTP2_STREAM,
             CURLE_BAD_CONTENT_ENCODING:
            return "INVALID_RESPONSE"
        default: return "NO_RESPONSE"  // no name, no connection, ...
        }
    }

    /// Stops the thread and ends the POSTs under way at once, without waiting on the network: each is woken and
    /// drops its connection, and its notification stays due (its lease runs out) for the next sender. Waits at
    /// most a second for their threads (nothing is left for them but to free libcurl's handles), so that none
    /// is in libcurl or OpenSSL when a process exits right after. Stopping twice does nothing. It blocks the
    /// calling thread: `requestStop()` then `join(timeout:)` split it.
    @available(*, noasync, message: "waits for threads; call requestStop() instead")
    func stop() {
        requestStop()
        join(timeout: .seconds(60))
    }

    /// Has the thread look now (record what changed, send what is due) and returns once a look that started after
    /// the call has ended: a POST it started runs on, on its own thread.
    func tickNow() async {
        await watcher?.runNow()
    }

    /// `stop()` without the wait: nothing is recorded after it, and the POSTs under way are woken; their threads
    /// and the tick in progress end on their own.
    func requestStop() {
        guard let posts = stopped.withLock({ stopped -> [Post]? in
            guard !stopped else { return nil }
            stopped = true
            return inFlight.withLock { Array($0.values) }
        }) else { return }
        for post in posts { post.curl.wake() }
        watcher?.requestStop()
    }

    /// Waits, after `requestStop()`, until the thread and the POSTs' threads have ended: at most `timeout` for the
    /// tick in progress, a second for each POST. Says whether all have.
    @available(*, noasync, message: "blocks a thread of the concurrency pool")
    @discardableResult
    func join(timeout: Duration) -> Bool {
        // Once the tick in progress is over, no POST is being started: every thread is in `inFlight`'s POSTs, also
        // one a tick gave its POST after the wake-up (that POST sees `stopped` at its first look).
        var ended = watcher?.join(timeout: timeout) ?? true
        let threads = inFlight.withLock { inFlight in
            inFlight.values.compactMap { post -> JoinableThread? in
                defer { post.thread = nil }
                return post.thread
            }
        }
        for thread in threads where !thread.join(timeout: .seconds(1)) { ended = false }
        return ended
    }

    deinit {
        watcher?.requestStop()
    }
}

/// A POST under way and its thread. `@unchecked Sendable`: `thread` is guarded by the sender's `inFlight` lock (who
/// takes it joins or detaches it).
private final class Post: @unchecked Sendable {
    let curl: CurlPost
    var thread: JoinableThread?

    init(_ curl: CurlPost) { self.curl = curl }
}
