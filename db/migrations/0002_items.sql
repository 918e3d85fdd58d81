-- Items, their executions, the outbox of events and the collected products.

ALTER TABLE items
    ADD COLUMN status                              text NOT NULL DEFAULT 'UPDATING',
    ADD COLUMN execution_status                    text NOT NULL DEFAULT 'CREATING',
    ADD COLUMN error                               jsonb,
    ADD COLUMN parameter                           jsonb,
    ADD COLUMN user_action                         jsonb,
    ADD COLUMN webhook_url                         text,
    ADD COLUMN client_user_id                      text,
    ADD COLUMN oauth_redirect_uri                  text,
    ADD COLUMN last_updated_at                     timestamptz,
    ADD COLUMN status_detail                       jsonb,
    ADD COLUMN next_auto_sync_at                   timestamptz,
    ADD COLUMN consecutive_failed_login_attempts   integer NOT NULL DEFAULT 0,
    ADD COLUMN consent_expires_at                  timestamptz,
    ADD COLUMN resources_collected_at              timestamptz,
    ADD COLUMN has_resources_pending_authorization boolean,
    ADD COLUMN products                            text[] NOT NULL DEFAULT '{}',
    -- Credentials sealed with AES-GCM under the master key, bound to the item id.
    ADD COLUMN credentials                         bytea,
    -- HMAC of the connector and the non-MFA credential values: finds duplicates without
    -- keeping anything readable.
    ADD COLUMN fingerprint                         text,
    -- Hash of the MFA value of the last execution (rule 4 of 4.3).
    ADD COLUMN last_mfa_hash                       text,
    ADD COLUMN consecutive_errors                  integer NOT NULL DEFAULT 0,
    ADD COLUMN auto_sync_failures                  integer NOT NULL DEFAULT 0,
    ADD COLUMN last_client_update_at               timestamptz,
    ADD COLUMN last_login_failure_at               timestamptz,
    ADD COLUMN execution_id                        uuid,
    ADD COLUMN executions                          integer NOT NULL DEFAULT 0,
    ADD COLUMN connect_token_id                    uuid;

CREATE INDEX items_fingerprint ON items (client_id, fingerprint);
CREATE INDEX items_client_user ON items (client_id, client_user_id, created_at DESC, id DESC);
CREATE INDEX items_connector ON items (client_id, connector_id, created_at DESC, id DESC);
CREATE INDEX items_next_auto_sync ON items (next_auto_sync_at) WHERE next_auto_sync_at IS NOT NULL;

-- Per-client switches and limits that a hosted subscription would decide.
ALTER TABLE client_applications
    ADD COLUMN items_v2_enabled          boolean NOT NULL DEFAULT false,
    ADD COLUMN item_updates_enabled      boolean NOT NULL DEFAULT true,
    ADD COLUMN api_item_creation_enabled boolean NOT NULL DEFAULT true,
    ADD COLUMN sandbox_updates_only      boolean NOT NULL DEFAULT false,
    ADD COLUMN item_limit                integer,
    ADD COLUMN min_update_interval_hours integer NOT NULL DEFAULT 0,
    -- RSA private key (PKCS#8) sealed under the master key, for encrypted parameters.
    ADD COLUMN rsa_key                   bytea;

-- One row per execution: the history health details and cooldowns are computed from.
CREATE TABLE executions (
    id           uuid PRIMARY KEY,
    item_id      uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    connector_id integer NOT NULL,
    number       integer NOT NULL,
    triggered_by text NOT NULL,
    status       text NOT NULL,
    steps        text[] NOT NULL DEFAULT '{}',
    -- The MFA answer waiting to be used by the running execution, sealed.
    mfa_answer   bytea,
    started_at   timestamptz NOT NULL DEFAULT now(),
    finished_at  timestamptz
);
CREATE INDEX executions_item ON executions (item_id, started_at DESC);
CREATE INDEX executions_connector_finished ON executions (connector_id, finished_at) WHERE finished_at IS NOT NULL;

-- Outbox: every event is written with the change that caused it; the webhook engine
-- delivers from here.
CREATE TABLE events (
    id          uuid PRIMARY KEY,
    client_id   uuid NOT NULL REFERENCES client_applications (id) ON DELETE CASCADE,
    event       text NOT NULL,
    item_id     uuid,
    -- A resource's own webhookUrl (item, connect token, payment request) gets its events.
    target_url  text,
    payload     jsonb NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_client ON events (client_id, created_at, id);
CREATE INDEX events_item ON events (item_id, created_at);

-- Collected products. Each row keeps the document the API serves, plus the columns its
-- filters and orderings need.
CREATE TABLE accounts (
    id         uuid PRIMARY KEY,
    item_id    uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    type       text NOT NULL,
    data       jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX accounts_item ON accounts (item_id, type);

CREATE TABLE transactions (
    id           uuid PRIMARY KEY,
    item_id      uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    account_id   uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    date         timestamptz NOT NULL,
    status       text NOT NULL,
    amount       numeric NOT NULL,
    bill_id      uuid,
    -- Category chosen by the client (PATCH); every later sync keeps it.
    user_category_id text REFERENCES categories (id),
    data         jsonb NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX transactions_account_date ON transactions (account_id, date, id);
CREATE INDEX transactions_account_created ON transactions (account_id, created_at);
CREATE INDEX transactions_item ON transactions (item_id);

-- Other products are read whole by id or by owner; a document per row is enough.
CREATE TABLE product_documents (
    id         uuid NOT NULL,
    kind       text NOT NULL,
    item_id    uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    owner_id   uuid,
    sort_key   text NOT NULL DEFAULT '',
    data       jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (kind, id)
);
CREATE INDEX product_documents_item ON product_documents (item_id, kind, sort_key);
CREATE INDEX product_documents_owner ON product_documents (owner_id, kind, sort_key);
