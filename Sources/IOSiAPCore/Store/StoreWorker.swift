#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One unit of work the game asked for; the worker runs them one at a time, in order. (Verifying a
/// payment's transaction, and checking a transaction again, run beside them: see `runBesideJobs`.)
enum StoreJob: Sendable {
    case products(RequestID, [String])
    case payment(RequestID, PaymentRequest, StoreProduct)
    case restore(RequestID)
    case finish(UInt64)
    /// The game's handler of the `revoked` event of this transaction returned: the journal notes the refund told
    /// (see `StoreWorker.delivered`).
    case revocationAnnounced(UInt64)
    /// The App Store's sheets, which wait for the user: shown beside the job loop (see `showSheet`).
    case refundRequest(RequestID, transactionID: UInt64, UIContext?)
    case manageSubscriptions(RequestID, UIContext?)
}

/// The state the facade and its worker share.
struct SharedStoreState {
    var isOpen = true
    var nextRequestID: RequestID = 1
    /// Products from the latest products requests, by id: what a payment may name.
    var products: [String: StoreProduct] = [:]
}

/// Runs requests against the backend, off the game's thread, and turns results into journal writes and
/// then events, in that order: nothing is announced before it is durable.
///
/// Requests run one at a time, in order, on the job loop (`run`). What waits on a verification server
/// runs beside it (`runBesideJobs`), in two lanes of `verificationConcurrency` each: the requests' lane (a
/// payment's verification and delivery, a restore's transactions) and the background lane (launch redelivery, the
/// checks of transactions whose verification could not complete, entitlements reported at launch). A slow server
/// then holds up no request, and what the background lane waits on holds up no payment or restore.
final class StoreWorker: Sendable {
    let backend: any StoreBackend
    let journal: Journal
    let events: EventQueue
    let state: Locked<SharedStoreState>
    /// What this launch is doing with each transaction, shared with the grant ledger. Taken after `state`, never
    /// before it.
    let flights: Locked<TransactionFlights>
    let verifier: (any TransactionVerifier)?
    /// The grant ledger, for its refund rule: what a refund's take-back deducts.
    let ledger: GrantLedger
    private let retryPolicy: VerificationRetryPolicy
    /// Work queued to run beside the job loop, and its sink; the sink finishes when the job queue does
    /// (the store closed), so that queuing work afterwards does nothing.
    private let besideJobs: AsyncStream<(Lane, @Sendable () async -> Void)>
    private let besideJobsSink: AsyncStream<(Lane, @Sendable () async -> Void)>.Continuation
    /// The job queue, for the acknowledgements of delivered refunds.
    let jobsSink: AsyncStream<StoreJob>.Continuation
    /// Bound the work running beside the job loop, one per lane.
    private let requestLimiter = AsyncLimiter(limit: StoreWorker.verificationConcurrency)
    private let updateLimiter = AsyncLimiter(limit: StoreWorker.verificationConcurrency)
    private let backgroundLimiter = AsyncLimiter(limit: StoreWorker.verificationConcurrency)
    /// The store's updates waiting behind an earlier update of the same chain, by original transaction id: each
    /// chain's updates are handled in the order the store reported them, one at a time.
    private let updatesWaiting = Locked<[UInt64: [@Sendable () async -> Void]]>([:])

    /// Where work beside the job loop waits for its turn: a request the game waits on never queues behind checks it
    /// did not ask for.
    enum Lane: Sendable {
        /// A payment's verification and delivery, a restore's transactions.
        case requests
        /// The store's updates (renewals, approvals, refunds, expiries), each transaction's in order.
        case updates
        /// Launch redelivery and re-checks, retries, what the store reports at launch.
        case background
    }
    /// The tasks of their own that close cancels (retry timers, sheets open for the user), by number; `nil`
    /// once closed.
    private let ownTasks = Locked<(next: Int, running: [Int: Task<Void, Never>])?>((0, [:]))

    /// The store's clock (`PurchaseStore`'s): what "now" is to the entitlements.
    let now: @Sendable () -> Date

    /// How many transactions are verified (and delivered) at once beside the job loop, in each lane.
    static let verificationConcurrency = 4

    init(backend: any StoreBackend, journal: Journal, events: EventQueue, ledger: GrantLedger, flights: Locked<TransactionFlights>,
         verifier: (any TransactionVerifier)?, retryPolicy: VerificationRetryPolicy, jobs: AsyncStream<StoreJob>.Continuation,
         now: @escaping @Sendable () -> Date) {
        self.backend = backend
        self.now = now
        self.journal = journal
        self.events = events
        self.ledger = ledger
        self.flights = flights
        self.state = Locked(SharedStoreState())
        self.verifier = verifier
        self.retryPolicy = retryPolicy
        let (besideJobs, besideJobsSink) = AsyncStream<(Lane, @Sendable () async -> Void)>.makeStream()
        self.besideJobs = besideJobs
        self.besideJobsSink = besideJobsSink
        self.jobsSink = jobs
        // Closing finishes the job queue: the work beside it stops being taken then too, and the tasks of their
        // own are cancelled (what they would queue after close is not taken anyway).
        let ownTasks = self.ownTasks
        jobs.onTermination = { _ in
            besideJobsSink.finish()
            let running = ownTasks.withLock { tasks in
                defer { tasks = nil }
                return tasks?.running.values.map { $0 } ?? []
            }
            for task in running { task.cancel() }
        }
    }

    func run(_ job: StoreJob) async {
        switch job {
        case .refundRequest, .manageSubscriptions:
            showSheet(job)
        case .products(let requestID, let ids):
            await requestProducts(requestID, ids)
        case .payment(let requestID, let request, let product):
            await pay(requestID, request, product)
        case .restore(let requestID):
            await restore(requestID)
        case .finish(let transactionID):
            // The journal already holds the finish mark; a failure here only means the store keeps the
            // transaction unfinished, and the next launch's sync finishes it again.
            try? await backend.finish(transactionID: transactionID)
        case .revocationAnnounced(let transactionID):
            // Failing (the take-back with it too), the refund stays to tell: told again at the next launch.
            // Written, then let go: a close meanwhile finds it still to note and writes it before it lets
            // the journal's directory go (writing twice is harmless: the second finds it told).
            guard flights.withLock({ $0.contains(.revocationToNote, transactionID) }) else { return }
            acknowledgeRefund(transactionID)
            flights.withLock { $0.remove(.revocationToNote, transactionID) }
        }
    }

    /// Runs the work queued beside the job loop until the store closes, `verificationConcurrency` items at
    /// a time in each lane, launch redelivery's among them. An item whose turn comes after close is dropped:
    /// what it would have delivered is still unfinished (in the journal or the store) and comes back at
    /// the next launch.
    func runBesideJobs() async {
        await withDiscardingTaskGroup { group in
            // Reading the launch lists may take a while (the store's list): payments' work runs meanwhile.
            group.addTask { await self.queueLaunchRedelivery() }
            for await (lane, work) in besideJobs {
                let limiter = switch lane {
                case .requests: requestLimiter
                case .updates: updateLimiter
                case .background: backgroundLimiter
                }
                group.addTask {
                    await limiter.run {
                        guard self.state.withLock({ $0.isOpen }) else { return }
                        await work()
                    }
                }
            }
        }
    }

    /// Queues the handling of an update to run beside the updates loop, after every update of the same chain `id`
    /// (a subscription's original id: its renewals, their refunds and ends keep the store's order) reported before
    /// it: a check that hangs holds up only its own chain's updates.
    func runUpdateBeside(of id: UInt64, _ work: @escaping @Sendable () async -> Void) {
        let startsChain = updatesWaiting.withLock { waiting in
            if waiting[id] != nil {
                waiting[id]!.append(work)
                return false
            }
            waiting[id] = []
            return true
        }
        guard startsChain else { return }
        let updatesWaiting = self.updatesWaiting
        runBeside(.updates) {
            var next: (@Sendable () async -> Void)? = work
            while let current = next {
                // After close the rest is dropped, as any work beside the jobs is: the store reports it again.
                if self.state.withLock({ $0.isOpen }) { await current() }
                next = updatesWaiting.withLock { waiting in
                    guard let queued = waiting[id], !queued.isEmpty else {
                        waiting[id] = nil
                        return nil
                    }
                    waiting[id] = Array(queued.dropFirst())
                    return queued.first
                }
            }
        }
    }

    /// Queues `work` to run beside the job loop in `lane`; after close, does nothing.
    func runBeside(_ lane: Lane, _ work: @escaping @Sendable () async -> Void) {
        besideJobsSink.yield((lane, work))
    }

    /// Launch redelivery and the other work beside the job loop, until the store closes: see
    /// `runBesideJobs`. The store's launch calls it beside the job loop.
    func redeliverUnfinished() async {
        await runBesideJobs()
    }

    /// Queues `check` beside the job loop after the retry policy's delay before attempt `attempt`: each
    /// transaction waits on a timer of its own. Closing ends the timers: nothing is queued after it.
    func retry(attempt: Int, _ check: @escaping @Sendable () async -> Void) {
        let sink = besideJobsSink
        let delay = retryPolicy.delay(before: attempt)
        runUntilClose {
            guard (try? await Task.sleep(for: delay)) != nil else { return }  // cancelled: closed
            sink.yield((.background, check))
        }
    }

    /// Runs `body` in a task of its own, which close cancels: for waits that must hold up neither the job loop,
    /// the work beside it, nor close (a retry timer, a sheet open for the user). After close, starts nothing.
    /// The task runs on the library's own thread (its executor preference), not on Swift's concurrency pool; whether
    /// a busy pool still delays the wake-up of a `Task.sleep` in it is not tested.
    func runUntilClose(_ body: @escaping @Sendable () async -> Void) {
        let tasks = ownTasks
        tasks.withLock { state in
            guard let number = state?.next else { return }  // closed
            state?.next += 1
            state?.running[number] = Task.detached(executorPreference: SerialThreadExecutor.libraryTasks) {
                await body()
                tasks.withLock { _ = $0?.running.removeValue(forKey: number) }
            }
        }
    }
}
