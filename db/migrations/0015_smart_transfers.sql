-- Smart transfers: a payer pre-authorizes recurring transfers to chosen recipients, within
-- limits, once; the application then pays without the payer's interaction.
CREATE TABLE smart_transfer_preauthorizations (
    id                          uuid          PRIMARY KEY,
    client_id                   uuid          NOT NULL REFERENCES client_applications (id),
    connector_id                integer       NOT NULL,
    status                      text          NOT NULL,
    payer_cpf                   text          NOT NULL,
    payer_cnpj                  text,
    payer_name                  text,
    recipient_ids               uuid[]        NOT NULL,
    limit_transaction           numeric(14,2),
    limit_daily                 numeric(14,2),
    limit_weekly                numeric(14,2),
    limit_monthly               numeric(14,2),
    limit_yearly                numeric(14,2),
    limit_total                 numeric(14,2),
    client_preauthorization_id  text,
    callback_success            text,
    callback_error              text,
    error_detail                jsonb,
    created_at                  timestamptz   NOT NULL,
    updated_at                  timestamptz   NOT NULL
);
CREATE INDEX smart_transfer_preauthorizations_list ON smart_transfer_preauthorizations (client_id, created_at, id);

CREATE TABLE smart_transfer_payments (
    id                  uuid          PRIMARY KEY,
    client_id           uuid          NOT NULL REFERENCES client_applications (id),
    preauthorization_id uuid          NOT NULL REFERENCES smart_transfer_preauthorizations (id),
    recipient_id        uuid          NOT NULL,
    amount              numeric(14,2) NOT NULL CHECK (amount > 0),
    description         text,
    client_payment_id   text,
    status              text          NOT NULL,
    error_detail        jsonb,
    created_at          timestamptz   NOT NULL,
    updated_at          timestamptz   NOT NULL
);
-- The limits sum a pre-authorization's payments since the start of a period.
CREATE INDEX smart_transfer_payments_periods ON smart_transfer_payments (preauthorization_id, created_at);
CREATE INDEX smart_transfer_payments_list ON smart_transfer_payments (client_id, created_at, id);
