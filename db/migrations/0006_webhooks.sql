-- Webhook subscriptions, and the deliveries the outbox of events fans out to.

CREATE TABLE webhooks (
    id          uuid PRIMARY KEY,
    client_id   uuid NOT NULL REFERENCES client_applications (id) ON DELETE CASCADE,
    url         text NOT NULL,
    event       text NOT NULL,
    headers     jsonb NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    disabled_at timestamptz
);
-- Fan-out looks up a client's enabled webhooks for one event name (or all).
CREATE UNIQUE INDEX webhooks_client_url_event ON webhooks (client_id, url, event);
CREATE INDEX webhooks_client_event ON webhooks (client_id, event) WHERE disabled_at IS NULL;

-- The signing secret of each application's deliveries (Standard Webhooks), sealed under the
-- master key; the previous one keeps signing for a while after a rotation.
ALTER TABLE client_applications
    ADD COLUMN webhook_secret          bytea,
    ADD COLUMN webhook_secret_previous bytea,
    ADD COLUMN webhook_secret_rotated_at timestamptz;

-- One delivery per (event, URL): written in the transaction that wrote the event, with the
-- job that sends it.
CREATE TABLE webhook_deliveries (
    id            uuid PRIMARY KEY,
    event_id      uuid NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    client_id     uuid NOT NULL REFERENCES client_applications (id) ON DELETE CASCADE,
    -- Null for a resource's own webhookUrl (item, connect token, payment request).
    webhook_id    uuid REFERENCES webhooks (id) ON DELETE SET NULL,
    url           text NOT NULL,
    headers       jsonb NOT NULL DEFAULT '{}',
    -- PENDING, DELIVERED, FAILED (retries exhausted or a status that is never retried).
    status        text NOT NULL DEFAULT 'PENDING',
    attempts      integer NOT NULL DEFAULT 0,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    delivered_at  timestamptz
);
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_client ON webhook_deliveries (client_id, created_at DESC, id DESC);

-- Every attempt, for the API's delivery log.
CREATE TABLE webhook_attempts (
    id           uuid PRIMARY KEY,
    delivery_id  uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt      integer NOT NULL,
    attempted_at timestamptz NOT NULL,
    url          text NOT NULL,
    status_code  integer,
    latency_ms   integer NOT NULL,
    error        text,
    response     text
);
CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, attempted_at);
