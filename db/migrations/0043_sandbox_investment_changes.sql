-- Sandbox control of investments (POST /sandbox/items/{id}/investments, PATCH and DELETE
-- .../investments/{investmentId}) and of their transactions (POST
-- .../investments/{investmentId}/transactions, PATCH and DELETE .../transactions/{transactionId}):
-- like sandbox_bill_changes, one row per investment or investment transaction holding the
-- latest wish, laid by every execution on what the sandbox generates. transaction_id is
-- null for a change of the investment itself; target_id is the one changed (the
-- investment's or the transaction's id), so both kinds share one history.
CREATE TABLE sandbox_investment_changes (
    item_id              uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    target_id            uuid NOT NULL,
    investment_id        uuid NOT NULL,
    transaction_id       uuid CHECK (transaction_id IS NULL OR transaction_id = target_id),
    -- ADD: change holds the whole record; CHANGE: the fields changed; REMOVE: nothing.
    operation            text NOT NULL CHECK (operation IN ('ADD', 'CHANGE', 'REMOVE')),
    change               jsonb NOT NULL,
    created_at           timestamptz NOT NULL DEFAULT now(),
    applied_execution_id uuid,
    applied_at           timestamptz,
    -- A new id at every save: an execution marks only the rows it read.
    revision             uuid NOT NULL,
    PRIMARY KEY (item_id, target_id)
);

-- Transaction changes get the bills' history: applied_execution_id and applied_at are the
-- first execution that collected the change since it was asked for (created_at), null
-- while pending. Rows saved before these columns wait for the next execution's mark (that
-- one collects them too; which earlier one did first is not known).
ALTER TABLE sandbox_transaction_changes
    ADD COLUMN applied_execution_id uuid,
    ADD COLUMN applied_at timestamptz,
    ADD COLUMN revision uuid;
UPDATE sandbox_transaction_changes SET revision = gen_random_uuid();
ALTER TABLE sandbox_transaction_changes ALTER COLUMN revision SET NOT NULL;
