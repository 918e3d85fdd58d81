-- The ledger becomes the one record of money: every entry is one side of a movement
-- (a debit or a credit, never both), every movement sums to zero, and nothing written is
-- ever changed or removed. The database holds these rules itself, so no code path (nor a
-- hand-run statement) can post half a movement or rewrite history.
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_one_side CHECK ((debit > 0) <> (credit > 0));
ALTER TABLE ledger_entries ADD COLUMN kind text NOT NULL DEFAULT 'payment';
CREATE INDEX ledger_entries_movement ON ledger_entries (movement_id);

CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'ledger entries are append-only' USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER ledger_entries_no_update BEFORE UPDATE OR DELETE ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only();
CREATE TRIGGER ledger_entries_no_truncate BEFORE TRUNCATE ON ledger_entries
    FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_append_only();

-- Checked at commit, so a movement's two rows may be written by one statement or two.
CREATE FUNCTION ledger_movement_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT sum(credit - debit) FROM ledger_entries WHERE movement_id = NEW.movement_id) <> 0 THEN
        RAISE EXCEPTION 'ledger movement % does not balance', NEW.movement_id USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON ledger_entries
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_movement_balanced();

-- Where a request's money came from when it was paid out of a smart account (a bulk
-- payment): its refund goes back there.
ALTER TABLE payment_requests ADD COLUMN source_smart_account_id uuid REFERENCES smart_accounts (id);
UPDATE payment_requests p SET source_smart_account_id = b.smart_account_id
    FROM bulk_payment_requests r JOIN bulk_payments b ON b.id = r.bulk_payment_id
    WHERE r.payment_request_id = p.id AND r.active AND b.status IN ('PAYMENT_IN_PROGRESS', 'COMPLETED');
-- The refund under way: its id names its ledger movements.
ALTER TABLE payment_requests ADD COLUMN refund_pending_id uuid;
-- What the payer consented to, copied when the payer starts paying (or the request enters a
-- bulk payment): the recipient as it was then. Answers and the payment use it, not the
-- recipient's current record, which the application may edit.
ALTER TABLE payment_requests ADD COLUMN consented_recipient jsonb;
-- Each attempt keeps the terms it was consented under: amount, recipient, schedule.
ALTER TABLE payment_intents ADD COLUMN terms jsonb;
-- A pre-authorization's recipients as the payer saw and approved them; its payments go to
-- these copies.
ALTER TABLE smart_transfer_preauthorizations ADD COLUMN recipients jsonb;
ALTER TABLE smart_transfer_payments ADD COLUMN recipient jsonb;
