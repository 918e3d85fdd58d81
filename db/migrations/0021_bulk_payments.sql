-- Bulk payments: several payment requests paid from one smart account in one authorization.
CREATE TABLE bulk_payments (
    id               uuid          PRIMARY KEY,
    client_id        uuid          NOT NULL REFERENCES client_applications (id),
    smart_account_id uuid          NOT NULL REFERENCES smart_accounts (id),
    status           text          NOT NULL,
    total_amount     numeric(14,2) NOT NULL,
    callback_success text,
    callback_error   text,
    callback_pending text,
    error_detail     jsonb,
    created_at       timestamptz   NOT NULL,
    updated_at       timestamptz   NOT NULL
);
CREATE INDEX bulk_payments_list ON bulk_payments (client_id, created_at, id);

-- A request belongs to at most one bulk payment that is not over (ERROR frees it).
CREATE TABLE bulk_payment_requests (
    bulk_payment_id    uuid    NOT NULL REFERENCES bulk_payments (id) ON DELETE CASCADE,
    payment_request_id uuid    NOT NULL REFERENCES payment_requests (id),
    position           integer NOT NULL,
    active             boolean NOT NULL DEFAULT true,
    PRIMARY KEY (bulk_payment_id, payment_request_id)
);
CREATE UNIQUE INDEX bulk_payment_requests_active ON bulk_payment_requests (payment_request_id) WHERE active;
