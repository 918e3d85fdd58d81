-- Fault injection rules of a client application (docs/sandbox.md, "Control: fault
-- injection"): the list as PUT /sandbox/faults replaced it last, one row per application,
-- read by every replica. No row: no faults.
CREATE TABLE sandbox_faults (
    client_id  uuid PRIMARY KEY REFERENCES client_applications (id) ON DELETE CASCADE,
    rules      jsonb NOT NULL CHECK (jsonb_typeof(rules) = 'array'),
    updated_at timestamptz NOT NULL
);
