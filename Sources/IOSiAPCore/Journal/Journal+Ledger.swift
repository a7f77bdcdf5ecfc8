/// The grant ledger's part of the journal: a grant row per transaction and currency balances, written in
/// the same SQLite transaction as the finish mark, so that a crash leaves a purchase either granted and
/// finished or neither.
extension Journal {
    /// Records `transaction`, grants it and marks it finished (and told: the game hears `granted`), all or nothing.
    /// Returns `false`, granting nothing, when the transaction was finished before or its record holds a refund.
    /// A grant that cannot be made (a quantity outside 1...10, a balance that would pass `Int64.max`)
    /// throws and changes nothing.
    package func grantAndFinish(_ transaction: StoreTransaction, _ grant: Grant) throws(StoreError) -> Bool {
        let payload = try encode(transaction)
        let amount = try grant.amount(for: transaction)
        return try write { database throws(StoreError) in
            try database.transaction { () throws(StoreError) in
                let written = try Self.upsert(transaction, payload: payload, finished: false, in: database)
                guard written.found != .knownFinished, written.record.copy?.isRevoked != true else { return false }
                let id = SQLiteValue.integer(Int64(bitPattern: transaction.id))
                var granted = written.record
                granted.finished = true
                granted.told = true
                try granted.write(over: written.record, id: id, in: database)
                var currency: SQLiteValue = .null
                var entitlement: SQLiteValue = .null
                switch grant {
                case .currency(let name, _): currency = .text(name)
                case .entitlement(let name): entitlement = .text(name)
                }
                if case .text(let name) = currency, amount > 0 {
                    let balance = try database.query("SELECT amount FROM balances WHERE currency = ?", [.text(name)])
                        .first?.first?.integer ?? 0
                    guard balance <= Int64.max - amount else {
                        throw StoreError(.invalidArgument, "granting \(amount) \(name) for transaction \(transaction.id) "
                            + "would take the balance of \(balance) past \(Int64.max)")
                    }
                }
                try database.query("""
                    INSERT OR IGNORE INTO grants (transaction_id, product_id, currency, amount, entitlement)
                    VALUES (?, ?, ?, ?, ?)
                    """, [id, .text(transaction.productID), currency, .integer(amount), entitlement])
                if database.changes == 1, case .text(let name) = currency, amount > 0 {
                    try database.query("""
                        INSERT INTO balances (currency, amount) VALUES (?, ?)
                        ON CONFLICT(currency) DO UPDATE SET amount = amount + excluded.amount
                        """, [.text(name), .integer(amount)])
                }
                return true
            }
        }
    }

    /// The balance of `currency`; 0 for a currency never granted.
    package func balance(of currency: String) throws(StoreError) -> Int64 {
        try database.withLock { database throws(StoreError) in
            try database.query("SELECT amount FROM balances WHERE currency = ?", [.text(currency)]).first?.first?.integer ?? 0
        }
    }

    /// Takes `amount` from the balance of `currency`, or fails and changes nothing.
    package func spend(_ amount: Int64, of currency: String) throws(StoreError) {
        try write { database throws(StoreError) in
            try database.query("UPDATE balances SET amount = amount - ? WHERE currency = ? AND amount >= ?",
                               [.integer(amount), .text(currency), .integer(amount)])
            guard database.changes == 1 else {
                let balance = try database.query("SELECT amount FROM balances WHERE currency = ?", [.text(currency)])
                    .first?.first?.integer ?? 0
                throw StoreError(.insufficientBalance, "cannot spend \(amount) \(currency): the balance is \(balance)")
            }
        }
    }

    /// Takes back what was granted for a refunded transaction `id`, once, inside the caller's SQLite transaction
    /// (the one that records the refund, or notes it told): marks its grant revoked, and with `deductingCurrency`
    /// takes its currency back, as far as the balance allows (a balance never goes below zero). The journal's grant
    /// row says what was granted, so this holds also in a launch where the game registered no grant (yet).
    static func takeBackGrant(of id: SQLiteValue, deductingCurrency: Bool, in database: SQLiteDatabase) throws(StoreError) {
        guard let row = try database.query("SELECT currency, amount FROM grants WHERE transaction_id = ? AND revoked = 0", [id]).first
        else { return }
        try database.query("UPDATE grants SET revoked = 1 WHERE transaction_id = ?", [id])
        guard deductingCurrency, case .text(let currency) = row[0], let amount = row[1].integer, amount > 0 else { return }
        let balance = try database.query("SELECT amount FROM balances WHERE currency = ?", [.text(currency)])
            .first?.first?.integer ?? 0
        try database.query("UPDATE balances SET amount = amount - ? WHERE currency = ?", [.integer(min(balance, amount)), .text(currency)])
    }
}
