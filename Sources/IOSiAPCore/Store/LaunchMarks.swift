/// What this launch has done with each transaction, so that each of these happens once per launch however
/// many paths (a payment, launch redelivery, the store's updates, a restore) meet on the same transaction.
struct LaunchMarks {
    /// One thing done, or being done, with a transaction.
    struct Mark: OptionSet {
        let rawValue: UInt8

        /// Queued as `purchased`.
        static let delivered = Mark(rawValue: 1 << 0)
        /// Being verified and delivered by its payment, which tells it: a delivery of the same charge from
        /// elsewhere (launch redelivery finding it unfinished in the store) stays quiet.
        static let deliveredByPayment = Mark(rawValue: 1 << 1)
        /// A refund being verified: the same refund reported twice (at launch, by the store's updates and its
        /// unfinished list) is checked and told once.
        static let revocationInFlight = Mark(rawValue: 1 << 2)
        /// Queued as `revoked`: the launch's re-telling of refunds still to tell and the store's report of a
        /// new one can meet.
        static let revocationTold = Mark(rawValue: 1 << 3)
        /// A refund whose handler returned, not yet noted told in the journal.
        static let revocationToNote = Mark(rawValue: 1 << 4)
        /// Its journal row was told as `journalRowUnreadable`.
        static let unreadableRowReported = Mark(rawValue: 1 << 5)
    }

    private var marks: [UInt64: Mark] = [:]

    /// Marks `id`; says whether it was not marked so before.
    mutating func insert(_ mark: Mark, _ id: UInt64) -> Bool {
        let before = marks[id, default: []]
        marks[id] = before.union(mark)
        return !before.contains(mark)
    }

    mutating func remove(_ mark: Mark, _ id: UInt64) {
        guard var current = marks[id] else { return }
        current.remove(mark)
        marks[id] = current.isEmpty ? nil : current
    }

    func contains(_ mark: Mark, _ id: UInt64) -> Bool {
        marks[id]?.contains(mark) ?? false
    }

    /// The transactions marked `mark`.
    func ids(_ mark: Mark) -> [UInt64] {
        marks.compactMap { $0.value.contains(mark) ? $0.key : nil }
    }
}
