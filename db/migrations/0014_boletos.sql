-- Boletos: the connections an application issues through (one per item) and the boletos
-- issued, with their digits, state and what was paid. Money is numeric.
CREATE TABLE boleto_connections (
    id           uuid        PRIMARY KEY,
    client_id    uuid        NOT NULL REFERENCES client_applications (id),
    item_id      uuid        NOT NULL,
    connector_id integer     NOT NULL,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL,
    UNIQUE (client_id, item_id)
);
CREATE INDEX boleto_connections_list ON boleto_connections (client_id, created_at, id);

CREATE SEQUENCE boleto_nosso_numero_seq;

CREATE TABLE boletos (
    id             uuid          PRIMARY KEY,
    client_id      uuid          NOT NULL REFERENCES client_applications (id),
    connection_id  uuid          NOT NULL REFERENCES boleto_connections (id),
    seu_numero     text          NOT NULL,
    amount         numeric(14,2) NOT NULL CHECK (amount > 0),
    due_date       date          NOT NULL,
    status         text          NOT NULL,
    nosso_numero   text          NOT NULL UNIQUE,
    barcode        text          NOT NULL,
    digitable_line text          NOT NULL,
    pix_qr         text,
    payer          jsonb         NOT NULL,
    fine           jsonb,
    interest       jsonb,
    amount_paid    numeric(14,2),
    payment_origin text,
    paid_at        timestamptz,
    created_at     timestamptz   NOT NULL,
    updated_at     timestamptz   NOT NULL,
    UNIQUE (connection_id, seu_numero)
);
CREATE INDEX boletos_list ON boletos (client_id, created_at, id);
CREATE INDEX boletos_connection ON boletos (connection_id, created_at, id);
CREATE INDEX boletos_due ON boletos (client_id, due_date);
-- The daily lifecycle job reads the boletos that can still move.
CREATE INDEX boletos_unsettled ON boletos (due_date) WHERE status IN ('OPEN', 'OVERDUE');
