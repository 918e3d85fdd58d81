-- Sandbox control of data (POST/PATCH/DELETE /sandbox/items/{id}/transactions): the
-- changes a developer asked of a sandbox item's transactions. They stay (one row per
-- transaction, the latest wish): the sandbox generates the item's data anew at each
-- execution, so every execution lays them on top again; the first one after a change
-- collects it and fires its event, the later ones find nothing new.
CREATE TABLE sandbox_transaction_changes (
    item_id        uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    transaction_id uuid NOT NULL,
    account_id     uuid NOT NULL,
    -- ADD: change holds the whole transaction; CHANGE: the fields changed; REMOVE: nothing.
    operation      text NOT NULL CHECK (operation IN ('ADD', 'CHANGE', 'REMOVE')),
    change         jsonb NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (item_id, transaction_id)
);
