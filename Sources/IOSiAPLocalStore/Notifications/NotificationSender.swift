import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import IOSiAPCore
import IOSiAPVerification

/// Sends the outbox's notifications to the notification URL, on a thread of its own with its own database
/// connection, so that the game's and the store worker's paths never wait for it: every `tick` it records what
/// changed (`NotificationRecorder`), leases the notifications due (a lease in SQLite: another process's sender
/// skips them) and POSTs each as `{"signedPayload": JWS}`. A 2xx answer is delivered; another answer, or none
/// within `timeout`, is tried again after the next of `retryDelays` (Apple's 1, 12, 24, 48 and 72 hours, at the
/// store's time rate), then given up. At most `maxInFlight` POSTs at once and `maxPerSecond` started a second.
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
        /// How long a leased notification stays another sender's: longer than a POST can take.
        var lease: TimeInterval { timeout * 3 + 5 }
    }

    private let state: Locked<LocalStoreState>
    private let recorder: Locked<NotificationRecorder>
    private let limits: Limits
    private let now: @Sendable () -> Date
    private let owner = UUID().uuidString
    private let session: URLSession
    /// The POSTs under way, by notification id.
    private let inFlight = Locked<[Int64: URLSessionDataTask]>([:])
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
        session = URLSession(configuration: configuration)
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
        let room = min(budget, limits.maxInFlight - inFlight.withLock { $0.count })
        guard room > 0, let due = try? state.withLock({ state throws(StoreError) in
            try state.claimNotifications(owner: owner, limit: room, now: wallClock, lease: limits.lease)
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
        let attemptDate = Date()
        let task = session.dataTask(with: request) { [weak self] _, response, error in
            guard let self else { return }
            inFlight.withLock { $0[id] = nil }
            // A POST cut short by close is no attempt: the lease runs out and a later sender tries it.
            if (error as? URLError)?.code == .cancelled || stopped.withLock({ $0 }) { return }
            let attempt = NotificationSendAttempt(attemptDate: Int64(Milliseconds(attemptDate).value),
                                                  sendAttemptResult: Self.result(response, error))
            let delays = limits.retryDelays()
            _ = try? state.withLock { state throws(StoreError) in
                try state.completeNotification(id, owner: owner, attempt: attempt, at: Date(), retryDelays: delays)
            }
        }
        started.withLock { $0.append(attemptDate) }
        inFlight.withLock { $0[id] = task }
        task.resume()
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

    /// Stops the thread and cancels the POSTs under way, waiting for them at most `bound`: their notifications
    /// stay due (their leases run out) for the next sender. Stopping twice does nothing.
    func stop(bound: Duration = .milliseconds(500)) {
        stopped.withLock { $0 = true }
        watcher?.stop()
        for task in inFlight.withLock({ $0.values }) { task.cancel() }
        let deadline = Date().addingTimeInterval(bound.timeInterval)
        while !inFlight.withLock({ $0.isEmpty }) && Date() < deadline { usleep(10_000) }
        session.invalidateAndCancel()
    }

    deinit {
        watcher?.stop()
    }
}
