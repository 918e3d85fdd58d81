-- Smart accounts: escrow-style accounts of an application, whose balance is the sum of a
-- double-entry ledger (every movement one debit and one credit of the same amount).
CREATE TABLE smart_accounts (
    id              uuid        PRIMARY KEY,
    client_id       uuid        NOT NULL REFERENCES client_applications (id),
    name            text        NOT NULL,
    tax_number      text        NOT NULL,
    email           text        NOT NULL,
    phone_number    text        NOT NULL,
    agency          text        NOT NULL,
    number          text        NOT NULL,
    verifying_digit text        NOT NULL,
    is_sandbox      boolean     NOT NULL,
    created_at      timestamptz NOT NULL
);
CREATE INDEX smart_accounts_list ON smart_accounts (client_id, created_at, id);
CREATE SEQUENCE smart_account_number_seq;

-- account is a smart account's id, or the name of a counterpart outside the service
-- ('payers': money that came in by payment). A movement's two rows share movement_id.
CREATE TABLE ledger_entries (
    id          bigserial     PRIMARY KEY,
    movement_id uuid          NOT NULL,
    account     text          NOT NULL,
    debit       numeric(14,2) NOT NULL DEFAULT 0 CHECK (debit >= 0),
    credit      numeric(14,2) NOT NULL DEFAULT 0 CHECK (credit >= 0),
    reference   text          NOT NULL,
    created_at  timestamptz   NOT NULL
);
CREATE INDEX ledger_entries_account ON ledger_entries (account);
CREATE UNIQUE INDEX ledger_entries_once ON ledger_entries (reference, account);

ALTER TABLE payment_requests ADD COLUMN smart_account_id uuid REFERENCES smart_accounts (id);
