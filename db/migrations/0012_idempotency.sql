-- Idempotency-Key claims of the REST API: the first answer to a creating POST, kept so a
-- retry with the same key replays it instead of creating again. The primary key makes the
-- claim atomic across replicas (INSERT … ON CONFLICT).

CREATE TABLE idempotency_keys (
    client_id    uuid NOT NULL REFERENCES client_applications (id) ON DELETE CASCADE,
    -- The Connect Token's id for a token holder, the nil UUID for the application's API
    -- keys: end users holding tokens of one application must not see each other's answers.
    caller       uuid NOT NULL,
    key          text NOT NULL,
    -- SHA-256 of method, path, query and body: the same key with another request is refused.
    fingerprint  bytea NOT NULL,
    -- A random id per claim, so a request whose stale claim was taken over cannot write
    -- its answer over the new claimant's.
    owner        uuid NOT NULL,
    claimed_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    -- Null while the first request runs.
    status       integer,
    content_type text,
    body         bytea,
    PRIMARY KEY (client_id, caller, key)
);
-- The periodic purge finds expired answers without reading the whole table.
CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at);
