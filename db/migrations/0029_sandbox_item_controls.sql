-- Sandbox control of items (POST /sandbox/items/{id}/...): what a control action asked of
-- an item's later executions, and which action caused or shaped each execution, so the
-- item's history says so.

-- One row per sandbox item a control action touched. next_outcome is the outcome the next
-- execution ends in (taken by that execution when it starts); login_reset_credentials is a
-- hash of the sealed credentials when the login was reset: an execution that still runs on
-- them ends in LOGIN_ERROR, and an update that sends credentials seals them anew.
CREATE TABLE sandbox_item_controls (
    item_id                 uuid PRIMARY KEY REFERENCES items (id) ON DELETE CASCADE,
    next_outcome            jsonb,
    login_reset_credentials bytea,
    updated_at              timestamptz NOT NULL DEFAULT now()
);

-- control: the control action that caused the execution (reset-login, status, sync) or
-- shaped its end (next-execution); forced_outcome: the outcome it was told to end in.
ALTER TABLE executions ADD COLUMN control text;
ALTER TABLE executions ADD COLUMN forced_outcome jsonb;
