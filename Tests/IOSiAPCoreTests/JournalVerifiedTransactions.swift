@testable import IOSiAPCore

extension Journal {
    /// The decodable rows whose verdict lets them entitle, oldest id first: what the journal tests check of verdicts.
    func verifiedTransactions() throws -> [StoreTransaction] {
        try transactionsWithVerdicts().readable.filter { JournalRecord.entitles($0.verdict) }.map(\.transaction)
    }
}
