/// The local store's schema migrations, one per version; never edit a released entry, append a new one.
package enum LocalStoreStateMigrations {
    static var first: String { all[0] }

    package static let all = [
        """
        CREATE TABLE transactions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            original_id INTEGER NOT NULL,
            product_id TEXT NOT NULL,
            product_type INTEGER NOT NULL,
            quantity INTEGER NOT NULL,
            purchase_date REAL NOT NULL,
            original_purchase_date REAL NOT NULL,
            expiration_date REAL,
            revocation_date REAL,
            revocation_reason INTEGER,
            app_account_token TEXT,
            storefront TEXT NOT NULL,
            reason TEXT NOT NULL,
            subscription_group_id TEXT,
            offer_type INTEGER,
            finished INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE pending_purchases (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            product_id TEXT NOT NULL,
            quantity INTEGER NOT NULL,
            app_account_token TEXT,
            request_date REAL NOT NULL
        );
        CREATE TABLE settings (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        """,
        // 2: which Ask to Buy request a transaction approved, so that another process's decline is told
        // apart from its approval.
        """
        ALTER TABLE transactions ADD COLUMN pending_id INTEGER;
        """,
        // 3: the signed transaction and renewal info, made once when the store charges.
        """
        ALTER TABLE transactions ADD COLUMN signed_jws TEXT;
        ALTER TABLE transactions ADD COLUMN signed_renewal_info TEXT;
        """,
        // 4: subscriptions over time: auto-renew, the product the next renewal switches to (a downgrade),
        // whether its end was announced, and transactions replaced by an upgrade.
        """
        ALTER TABLE transactions ADD COLUMN auto_renew INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE transactions ADD COLUMN renew_product_id TEXT;
        ALTER TABLE transactions ADD COLUMN expiry_announced INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE transactions ADD COLUMN upgraded INTEGER NOT NULL DEFAULT 0;
        """,
        // 5: what restore and the subscription clock look for, without reading the whole history.
        """
        CREATE INDEX transactions_by_type ON transactions(product_type, product_id, revocation_date, upgraded, expiration_date);
        CREATE INDEX transactions_by_original ON transactions(original_id);
        CREATE INDEX transactions_unfinished ON transactions(finished) WHERE finished = 0;
        """,
        // 6: purchases started in the App Store (the transaction manager), waiting for the game to hear of them.
        """
        CREATE TABLE purchase_intents (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            product_id TEXT NOT NULL,
            created REAL NOT NULL
        );
        """,
        // 7: why a purchase waits: a parent's approval (Ask to Buy) or the user resolving an interruption.
        """
        ALTER TABLE pending_purchases ADD COLUMN kind TEXT NOT NULL DEFAULT 'askToBuy';
        """,
        // 8: a renewal whose payment failed: billing retry, and the grace period that keeps it active.
        """
        ALTER TABLE transactions ADD COLUMN billing_retry INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE transactions ADD COLUMN grace_expires REAL;
        """,
        // 9: promotional offers: the offer a transaction was charged with, the one its next renewal uses, the
        // one a waiting purchase redeems, and the nonces already redeemed (each is good once).
        """
        ALTER TABLE transactions ADD COLUMN offer_id TEXT;
        ALTER TABLE transactions ADD COLUMN renew_offer_id TEXT;
        ALTER TABLE pending_purchases ADD COLUMN offer_id TEXT;
        CREATE TABLE redeemed_offer_nonces (
            nonce TEXT PRIMARY KEY,
            redeemed REAL NOT NULL
        );
        """,
        // 10: why a subscription ended (the renewal info's expirationIntent).
        """
        ALTER TABLE transactions ADD COLUMN expiration_intent INTEGER;
        """,
        // 11: App Store messages (iosiap-store message) waiting for the game to show them, and when it did.
        """
        CREATE TABLE store_messages (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            reason INTEGER NOT NULL,
            product_id TEXT NOT NULL,
            offer_id TEXT,
            created REAL NOT NULL,
            displayed REAL
        );
        """,
        // 12: subscription renewal date extensions (App Store Server API): each subscription's, by the request
        // identifier that made it (a repeated request answers the first result; two a year at most), and the
        // requests to extend every active subscriber of a product, with their counts. The index on ends finds
        // the active subscriptions, whose ends another process may move, without reading the whole history; the
        // index on the modified date read the Server API's history a page at a time, until migration 14's revisions.
        """
        CREATE TABLE renewal_extensions (
            original_id INTEGER NOT NULL,
            request_identifier TEXT NOT NULL,
            transaction_id INTEGER NOT NULL,
            extended REAL NOT NULL,
            effective_date REAL NOT NULL,
            PRIMARY KEY (original_id, request_identifier)
        );
        CREATE TABLE mass_renewal_extensions (
            request_identifier TEXT PRIMARY KEY,
            product_id TEXT NOT NULL,
            completed REAL NOT NULL,
            succeeded INTEGER NOT NULL,
            failed INTEGER NOT NULL
        );
        CREATE INDEX transactions_by_expiration ON transactions(expiration_date) WHERE expiration_date IS NOT NULL;
        CREATE INDEX transactions_by_modified ON transactions(
            max(0, min(CAST(((coalesce(revocation_date, purchase_date) - 978307200.0) + 978307200.0) * 1000.0 AS INTEGER),
            253402300799999)), id);
        """,
        // 13: who owns a transaction: the user (PURCHASED) or a family member who shares it (FAMILY_SHARED).
        """
        ALTER TABLE transactions ADD COLUMN ownership_type TEXT NOT NULL DEFAULT 'PURCHASED';
        """,
        // 14: the history's revisions (the Server API's revision tokens): each transaction carries the number of the
        // last write that inserted it or changed what its signed payload says, one more than any number given before
        // (the highest held, found through the index, or the highest a deleted transaction held: a number is never
        // given twice), so a client that kept a revision learns of every later write, whatever its dates (a renewal
        // the clock writes late with a past purchase date, a refund dated earlier). The transactions already stored
        // are numbered in the order they were served before: by the modified date of migration 12 (the revocation
        // date, else the purchase date), then by id. The index reads a page in revision order; migration 12's index
        // on the modified date is no longer read. A write reads the highest number rather than keeping a counter:
        // one page less to write per commit.
        """
        ALTER TABLE transactions ADD COLUMN revision INTEGER;
        CREATE TEMP TABLE revision_order (id INTEGER PRIMARY KEY, revision INTEGER NOT NULL);
        INSERT INTO revision_order (id, revision) SELECT id, row_number() OVER (ORDER BY
            max(0, min(CAST(((coalesce(revocation_date, purchase_date) - 978307200.0) + 978307200.0) * 1000.0 AS INTEGER),
            253402300799999)), id) FROM transactions;
        UPDATE transactions SET revision = (SELECT revision FROM revision_order WHERE revision_order.id = transactions.id);
        DROP TABLE revision_order;
        CREATE TABLE deleted_revision (highest INTEGER NOT NULL);
        INSERT INTO deleted_revision (highest) VALUES (0);
        DROP INDEX transactions_by_modified;
        CREATE UNIQUE INDEX transactions_by_revision ON transactions(revision);
        CREATE TRIGGER transactions_revision_insert AFTER INSERT ON transactions BEGIN
            UPDATE transactions SET revision = 1 + max((SELECT highest FROM deleted_revision),
                coalesce((SELECT max(revision) FROM transactions), 0)) WHERE id = NEW.id;
        END;
        CREATE TRIGGER transactions_revision_delete AFTER DELETE ON transactions BEGIN
            UPDATE deleted_revision SET highest = OLD.revision WHERE highest < OLD.revision;
        END;
        CREATE TRIGGER transactions_revision_update AFTER UPDATE OF
            original_id, product_id, product_type, quantity, purchase_date, original_purchase_date,
            expiration_date, revocation_date, revocation_reason, app_account_token, storefront, reason,
            subscription_group_id, offer_type, offer_id, ownership_type, signed_jws
            ON transactions WHEN
            NEW.original_id IS NOT OLD.original_id OR NEW.product_id IS NOT OLD.product_id OR
            NEW.product_type IS NOT OLD.product_type OR NEW.quantity IS NOT OLD.quantity OR
            NEW.purchase_date IS NOT OLD.purchase_date OR
            NEW.original_purchase_date IS NOT OLD.original_purchase_date OR
            NEW.expiration_date IS NOT OLD.expiration_date OR
            NEW.revocation_date IS NOT OLD.revocation_date OR
            NEW.revocation_reason IS NOT OLD.revocation_reason OR
            NEW.app_account_token IS NOT OLD.app_account_token OR NEW.storefront IS NOT OLD.storefront OR
            NEW.reason IS NOT OLD.reason OR NEW.subscription_group_id IS NOT OLD.subscription_group_id OR
            NEW.offer_type IS NOT OLD.offer_type OR NEW.offer_id IS NOT OLD.offer_id OR
            NEW.ownership_type IS NOT OLD.ownership_type OR NEW.signed_jws IS NOT OLD.signed_jws BEGIN
            UPDATE transactions SET revision = 1 + max((SELECT highest FROM deleted_revision),
                coalesce((SELECT max(revision) FROM transactions), 0)) WHERE id = NEW.id;
        END;
        """,
        // 15: the refunded transactions and the announced ends, which a look for other processes' changes
        // (LocalStoreState.changes) reads after every commit of theirs: through these, it reads as many rows as
        // there are refunds and ends, not the whole history (12 ms a look at 10,000 transactions without them).
        """
        CREATE INDEX transactions_revoked ON transactions(id) WHERE revocation_date IS NOT NULL;
        CREATE INDEX transactions_expiry_announced ON transactions(id) WHERE expiry_announced = 1;
        """,
        // 16: the subscription offer a purchase started in the App Store redeems (StoreKit: PurchaseIntent.offer).
        """
        ALTER TABLE purchase_intents ADD COLUMN offer_type INTEGER;
        ALTER TABLE purchase_intents ADD COLUMN offer_id TEXT;
        """,
        // 17: the ends of subscriptions (an announced end, an upgrade's) made by a store no game listened to (the
        // transaction manager, while the game was closed or beside it), which the game's store tells it and clears:
        // the index holds only those, so the look at each launch and tick reads nothing when there is none.
        """
        ALTER TABLE transactions ADD COLUMN end_untold INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX transactions_end_untold ON transactions(id) WHERE end_untold = 1;
        """,
        // 18: the decision of the introductory offer eligibility JWS a waiting purchase carried (1 allow, 0 deny;
        // NULL: none, the App Store's rule decides when it is charged).
        """
        ALTER TABLE pending_purchases ADD COLUMN intro_offer_allowed INTEGER;
        """,
        // 19: a waiting purchase approved or resolved into a transaction it did not insert (the App Store answers a
        // purchase of something owned with the transaction that grants it), so that another process tells it as
        // that transaction, not as declined.
        """
        CREATE TABLE pending_outcomes (
            pending_id INTEGER PRIMARY KEY,
            transaction_id INTEGER NOT NULL
        );
        """,
    ]
}
