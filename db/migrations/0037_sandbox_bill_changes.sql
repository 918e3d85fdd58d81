-- Sandbox control of bills (POST /sandbox/items/{id}/bills, PATCH and DELETE
-- /sandbox/items/{id}/bills/{billId}): like sandbox_transaction_changes, one row per bill
-- holding the latest wish, laid by every execution on the bills the sandbox generates.
-- created_at is when the control action was taken; applied_execution_id the first
-- execution that collected it since and applied_at when (null: still pending), so the
-- item's history says which execution carried which data action.
CREATE TABLE sandbox_bill_changes (
    item_id              uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    bill_id              uuid NOT NULL,
    account_id           uuid NOT NULL,
    -- ADD: change holds the whole bill; CHANGE: the fields changed; REMOVE: nothing.
    operation            text NOT NULL CHECK (operation IN ('ADD', 'CHANGE', 'REMOVE')),
    change               jsonb NOT NULL,
    created_at           timestamptz NOT NULL DEFAULT now(),
    applied_execution_id uuid,
    applied_at           timestamptz,
    -- A new id at every save: an execution marks only the rows it read, not one saved
    -- again while it ran.
    revision             uuid NOT NULL,
    PRIMARY KEY (item_id, bill_id)
);
