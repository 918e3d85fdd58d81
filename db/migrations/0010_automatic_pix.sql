-- Automatic PIX (Pix Automático): a recurring authorization on a request, and the payments
-- the receiver schedules under it.

ALTER TABLE payment_requests ADD COLUMN automatic_pix jsonb;

CREATE TABLE automatic_pix_payments (
    id            uuid PRIMARY KEY,
    request_id    uuid NOT NULL REFERENCES payment_requests (id),
    client_id     uuid NOT NULL REFERENCES client_applications (id) ON DELETE CASCADE,
    status        text NOT NULL,
    amount        numeric(14, 2) NOT NULL,
    description   text,
    date          date NOT NULL,
    -- The first payment, set at authorization, is never retried.
    is_first      boolean NOT NULL DEFAULT false,
    end_to_end_id text,
    error_detail  jsonb,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL
);
CREATE INDEX automatic_pix_payments_request ON automatic_pix_payments (request_id, date, id);
