#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPVerification

/// App Store Server Notifications V2 of a local store: the notification URL (kept in the state directory), the
/// outbox every process on the state directory records into, and the sender that empties it.
final class LocalStoreNotifications: Sendable {
    let directory: StateDirectory
    let environment: StoreEnvironment
    let signer: TransactionSigner
    /// The store's own connection (the controls'), for what is read or written once: the URL, a TEST, the records.
    let state: Locked<LocalStoreState>
    let now: @Sendable () -> Date
    let sender = Locked<NotificationSender?>(nil)
    /// Senders stopped, until `joinStoppedSenders` waits for their threads.
    private let stoppedSenders = Locked<[@Sendable () -> NotificationSender?]>([])
    /// The looks `recordNotifications` makes on `state`: it keeps the history it read, so a look reads what changed.
    let recorder: Locked<NotificationRecorder>

    init(directory: StateDirectory, environment: StoreEnvironment, signer: TransactionSigner, state: Locked<LocalStoreState>,
         now: @escaping @Sendable () -> Date) throws(StoreError) {
        try state.withLock { state throws(StoreError) in try state.prepareNotificationTables() }
        self.directory = directory
        self.environment = environment
        self.signer = signer
        self.state = state
        self.now = now
        recorder = Locked(NotificationRecorder(signer: signer, environment: environment))
    }

    /// Stops this process's sender without waiting for its threads (see `joinStoppedSenders`).
    func stopSender() {
        guard let stopped = sender.withLock({ sender in
            let running = sender
            sender = nil
            return running
        }) else { return }
        stopped.requestStop()
        // Weakly: a sender with no POST under way is let go at once, and its threads end on their own.
        stoppedSenders.withLock { $0.append({ [weak stopped] in stopped }) }
    }

    /// Waits until the threads of the senders stopped so far have ended (each: `NotificationSender.join`); says
    /// whether they have. For a caller on a thread of its own, so that none is in libcurl when a process exits.
    @available(*, noasync, message: "blocks a thread of the concurrency pool")
    func joinStoppedSenders(timeout: Duration) -> Bool {
        let stopped = stoppedSenders.withLock { senders in
            defer { senders = [] }
            return senders.compactMap { $0() }
        }
        return stopped.reduce(true) { ended, sender in sender.join(timeout: timeout) && ended }
    }
}

extension LocalStore {
    /// Where App Store Server Notifications V2 go, if anywhere: the state directory's setting, shared by every
    /// process on it (`iosiap-store notifications`). C: `iosiap_local_set_notification_url`.
    public func notificationURL() throws(StoreError) -> URL? {
        try notifications.state.withLock { state throws(StoreError) in try state.notificationURL() }
    }

    /// Sets the notification URL (http or https), or clears it with nil. From then on every change the App Store
    /// would notify about is recorded, signed, in the state directory's outbox, and sent by the running game's or
    /// `iosiap-store serve`'s sender; what happened before the URL was set is not notified. Changing or clearing
    /// it gives up what is still pending (a notification belongs to the endpoint it was recorded for). A bad URL
    /// (see `checkedNotificationURL`) is an `invalidArgument` error and changes nothing.
    public func setNotificationURL(_ text: String?) throws(StoreError) {
        let url = try text.map { text throws(StoreError) in try Self.checkedNotificationURL(text) }
        let now = notifications.now()
        try notifications.state.withLock { state throws(StoreError) in
            try state.database.transaction { () throws(StoreError) in
                let baseline = url == nil ? [:] : NotificationRecorder.baseline(of: try state.allTransactions(), at: now)
                try state.setNotificationURL(url, baseline: baseline)
            }
        }
    }

    /// `text` as a notification URL: http or https, with a host, a port (if any) in 1...65535, no user or
    /// password (they would be kept and listed in the clear), at most 2048 bytes. The error echoes at most the
    /// first 100 characters, and nothing of a text with an @ (credentials).
    static func checkedNotificationURL(_ text: String) throws(StoreError) -> URL {
        guard text.utf8.count <= 2048, let parsed = URLComponents(string: text), let url = parsed.url,
              ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), !(parsed.host ?? "").isEmpty else {
            let shown = text.contains("@") ? "the text" : text.count > 100 ? "'\(text.prefix(100))...'" : "'\(text)'"
            throw StoreError(.invalidArgument, "\(shown) is not an http or https URL of at most 2048 bytes")
        }
        guard parsed.user == nil, parsed.password == nil else {
            throw StoreError(.invalidArgument, "a notification URL must not carry a user or password")
        }
        guard (1...65_535).contains(parsed.port ?? 1) else {
            throw StoreError(.invalidArgument, "a notification URL's port must be in 1...65535")
        }
        return url
    }

    /// Starts sending the outbox to the notification URL from this process, on a thread of its own (a game's
    /// store starts it when the game opens; `iosiap-store serve` too): see `NotificationSender`. It does nothing
    /// while no URL is set, and `close()` stops it without waiting for a POST in progress.
    /// - Parameters:
    ///   - retryDelays: the pauses before each retry; by default Apple's schedule (1, 12, 24, 48, 72 hours after
    ///     the previous attempt) at the store's time rate (an hour is a 24th of the rate's day).
    ///   - timeout: how long a POST may take before it counts as TIMED_OUT.
    public func startNotificationSender(retryDelays: [TimeInterval]? = nil, timeout: TimeInterval = 5,
                                        interval: Duration = LocalStore.externalChangeInterval) throws(StoreError) {
        guard timeout > 0, timeout <= 60, (retryDelays ?? []).allSatisfy({ $0 >= 0 }) else {
            throw StoreError(.invalidArgument, "the notification timeout must be in (0, 60] s and retry delays >= 0")
        }
        let delays: @Sendable () -> [TimeInterval] = { [weak self] in
            retryDelays ?? NotificationSender.retryDelays(at: (try? self?.currentSettings())?.timeRate ?? .realTime)
        }
        let notifications = self.notifications
        try notifications.sender.withLock { sender throws(StoreError) in
            guard sender == nil else { return }
            sender = try NotificationSender(directory: notifications.directory, environment: notifications.environment,
                                            signer: notifications.signer, limits: .init(retryDelays: delays, timeout: timeout),
                                            now: notifications.now, interval: interval)
        }
    }

    /// Has this process's sender look now, and returns once a look that started after the call has ended (the POSTs
    /// it started run on): the sign, for tests, that what was due then has been claimed. At once without a sender.
    package func lookForNotificationsNow() async {
        await notifications.sender.withLock { $0 }?.tickNow()
    }

    /// Stops this process's sender (`close()` does too); what it had not sent stays in the outbox. It does not wait
    /// for a POST under way to free libcurl's handles: `waitUntilStopped` does.
    public func stopNotificationSender() {
        notifications.stopSender()
    }

    /// Records now, in the outbox, the notifications for what changed since the last look by any process (a
    /// sender does it four times a second); how many. Nothing without a URL.
    @discardableResult
    public func recordNotifications() throws(StoreError) -> Int {
        let now = notifications.now()
        return try notifications.state.withLock { state throws(StoreError) in
            try notifications.recorder.withLock { recorder throws(StoreError) in try recorder.record(in: state, at: now) }
        }
    }

    /// Records a TEST notification (Request a Test Notification); its uuid and signed date. Fails with
    /// `wrongState` when no notification URL is set.
    public func requestTestNotification() throws(StoreError) -> (notificationUUID: String, signedDate: Int64) {
        let payload = NotificationPayload("TEST", nil, about: nil, bundleID: bundleID, environment: environment, at: notifications.now())
        let signed = try notifications.signer.chain.sign(json: payload)
        try notifications.state.withLock { state throws(StoreError) in
            guard try state.notificationURL() != nil else { throw StoreError(.wrongState, "no notification URL is set") }
            try state.insertNotification(payload, signed: signed, about: nil, due: Date())
        }
        return (payload.recordedUUID, payload.recordedSignedDate)
    }

    /// Every notification recorded on the state directory, oldest first, with its send attempts (the Server
    /// API's Get Notification History and Get Test Notification Status read them).
    public func notificationRecords() throws(StoreError) -> [ServerNotificationRecord] {
        try notifications.state.withLock { state throws(StoreError) in try state.notificationRecords() }
    }
}
