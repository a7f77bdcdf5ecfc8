import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IOSiAPCore
import IOSiAPVerification

/// Sends the outbox's notifications to the notification URL, on a thread of its own with its own database
/// connection, so that the game's and the store worker's paths never wait for it: every `tick` it records what
/// changed (`NotificationRecorder`), leases the notifications due (a lease in SQLite: another process's sender
/// skips them) and POSTs each as `{"signedPayload": JWS}`. A 2xx answer is delivered; another answer (a redirect
/// is not followed), or none within `timeout`, is tried again after the next of `retryDelays` (Apple's 1, 12, 24,
/// 48 and 72 hours, at the store's time rate), then given up. `timeout` is a hard deadline the sender keeps itself
/// (an endpoint trickling bytes never trips an idle timeout), well inside the lease, so a POST ends before its
/// lease could; the answer's body is counted, not kept, and past `maxBodyBytes` the POST ends. At most
/// `maxInFlight` POSTs at once and `maxPerSecond` started a second, per sender (each process runs its own).
final class NotificationSender: @unchecked Sendable {
    /// Apple's schedule: after the first attempt, five retries, 1, 12, 24, 48 and 72 hours after the previous one
    /// (developer.apple.com/documentation/appstoreservernotifications/responding-to-app-store-server-notifications).
    static let appleRetryHours: [Double] = [1, 12, 24, 48, 72]

    /// Apple's schedule in real seconds at `rate`: an hour is a 24th of the rate's day.
    static func retryDelays(at rate: TimeRate) -> [TimeInterval] {
        let start = Date(timeIntervalSince1970: 0)
        let day = rate == .realTime ? 86_400 : rate.end(of: SubscriptionPeriod(value: 1, unit: .day), from: start).timeIntervalSince(start)
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
    }

    private let state: Locked<LocalStoreState>
    private let recorder: Locked<NotificationRecorder>
    private let limits: Limits
    private let now: @Sendable () -> Date
    private let owner = UUID().uuidString
    private let session: URLSession
    /// A POST under way: its task, when it started, the answer's head once it came and how much body was read.
    private struct Post {
        let task: URLSessionDataTask
        let attemptDate: Date
        /// Ends the POST at its deadline.
        let deadline: DispatchSourceTimer
        var response: HTTPURLResponse?
        var bodyBytes = 0
    }
    /// The POSTs under way, by notification id: a POST leaves it once, when it ends (answer, deadline or close).
    private let inFlight = Locked<[Int64: Post]>([:])
    private let started = Locked<[Date]>([])
    private let lastLook = Locked<(dataVersion: Int64, at: Date)>((-1, .distantPast))
    private let stopped = Locked(false)
    private var watcher: PeriodicWatcher?

    init(directory: StateDirectory, environment: StoreEnvironment, signer: TransactionSigner, limits: Limits,
         now: @escaping @Sendable () -> Date, interval: Duration) throws(StoreError) {
        state = Locked(try LocalStoreState(directory: directory, environment: environment))
        recorder = Locked(NotificationRecorder(signer: signer, environment: environment))
        self.limits = limits
        self.now = now
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = limits.timeout
        configuration.timeoutIntervalForResource = limits.timeout
        let delegate = PostDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        delegate.sender = self
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
            try state.database.query("PRAGMA data_version").first?.first?.integer ?? 0
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
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: limits.timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try? JSONEncoder().encode(["signedPayload": signedPayload])
        let task = session.dataTask(with: request)
        let attemptDate = Date()
        let deadline = DispatchSource.makeTimerSource(queue: .global())
        deadline.schedule(deadline: .now() + limits.timeout)
        deadline.setEventHandler { [weak self] in self?.end(task, as: "TIMED_OUT") }
        started.withLock { $0.append(attemptDate) }
        inFlight.withLock { $0[id] = Post(task: task, attemptDate: attemptDate, deadline: deadline) }
        deadline.resume()
        task.resume()
    }

    /// Ends `task`'s POST the first time it is called for it (the answer, the deadline, the end of the body
    /// read, close): cancels the task and records the attempt as `result`, or as `Self.result` of what came.
    private func end(_ task: URLSessionTask, as result: String? = nil, error: Error? = nil) {
        guard let (id, post) = inFlight.withLock({ inFlight -> (Int64, Post)? in
            guard let (id, post) = inFlight.first(where: { $0.value.task === task }) else { return nil }
            inFlight[id] = nil
            return (id, post)
        }) else { return }
        post.deadline.cancel()
        // Not suspended first: FoundationNetworking's suspend of a task whose transfer is ending crashed the process
        // (in _NativeProtocol.stopLoading). Its cancel may leave an endless body reading on, into no buffer of ours,
        // until the endpoint stops.
        task.cancel()
        // A POST cut short by close is no attempt: the lease runs out and a later sender tries it.
        if (result == nil && (error as? URLError)?.code == .cancelled) || stopped.withLock({ $0 }) { return }
        let attempt = NotificationSendAttempt(attemptDate: Int64(Milliseconds(post.attemptDate).value),
                                              sendAttemptResult: result ?? Self.result(post.response ?? task.response, error))
        let delays = limits.retryDelays()
        _ = try? state.withLock { state throws(StoreError) in
            try state.completeNotification(id, owner: owner, attempt: attempt, at: Date(), retryDelays: delays)
        }
    }

    /// The answer's head came: kept for the result, which waits for the end of the body (or `maxBodyBytes` of it).
    fileprivate func received(_ response: URLResponse, for task: URLSessionTask) {
        inFlight.withLock { inFlight in
            guard let id = inFlight.first(where: { $0.value.task === task })?.key else { return }
            inFlight[id]?.response = response as? HTTPURLResponse
        }
    }

    /// Body bytes came: counted, not kept; past `maxBodyBytes` the POST ends with the answer's status.
    fileprivate func received(bytes: Int, for task: URLSessionTask) {
        let over = inFlight.withLock { inFlight in
            guard let id = inFlight.first(where: { $0.value.task === task })?.key else { return false }
            inFlight[id]?.bodyBytes += bytes
            return (inFlight[id]?.bodyBytes ?? 0) > limits.maxBodyBytes
        }
        if over { end(task) }
    }

    fileprivate func completed(_ task: URLSessionTask, error: Error?) {
        end(task, error: error)
    }

    /// Apple's sendAttemptResult for how a POST went: SUCCESS for 200 to 206 (Apple's success range).
    static func result(_ response: URLResponse?, _ error: Error?) -> String {
        if let error {
            switch (error as? URLError)?.code {
            case .timedOut?: return "TIMED_OUT"
            case .secureConnectionFailed?, .serverCertificateUntrusted?, .serverCertificateHasBadDate?,
                 .serverCertificateNotYetValid?, .serverCertificateHasUnknownRoot?: return "TLS_ISSUE"
            case .httpTooManyRedirects?, .redirectToNonExistentLocation?: return "CIRCULAR_REDIRECT"
            case .networkConnectionLost?: return "PREMATURE_CLOSE"
            default: return "NO_RESPONSE"
            }
        }
        guard let http = response as? HTTPURLResponse else { return "INVALID_RESPONSE" }
        return (200...206).contains(http.statusCode) ? "SUCCESS" : "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
    }

    /// Stops the thread and ends the POSTs under way at once, without waiting on the network or on the session's
    /// callbacks: their notifications stay due (their leases run out) for the next sender. Stopping twice does
    /// nothing.
    func stop() {
        stopped.withLock { $0 = true }
        watcher?.stop()
        for post in inFlight.withLock({ $0.values }) { end(post.task) }
        session.invalidateAndCancel()
    }

    deinit {
        watcher?.stop()
        session.invalidateAndCancel()
    }
}

/// The session's delegate: hands the sender what comes for its POSTs, keeps no body, and follows no
/// redirect (the 3xx is the answer, as for Apple's sender a non-2xx answer is a failed attempt). It holds the
/// sender weakly (the session holds it until invalidated); `sender` is set once, before any task starts.
private final class PostDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    weak var sender: NotificationSender?

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        sender?.received(response, for: dataTask)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        sender?.received(bytes: data.count, for: dataTask)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        sender?.completed(task, error: error)
    }
}
