-- Each connector belongs to an institution provider (the sandbox, statement files, …) that
-- cmd/ponte wires in; statement-file connectors say which format they read.
ALTER TABLE connectors ADD COLUMN provider text NOT NULL DEFAULT 'sandbox';
ALTER TABLE connectors ADD COLUMN statement_format text;

-- What an execution waiting for a user action ends with when the action never comes (the
-- institution says so at login), and the statement file an upload execution reads.
ALTER TABLE executions ADD COLUMN action_timeout text;
ALTER TABLE executions ADD COLUMN upload_id uuid;
CREATE INDEX executions_upload ON executions (upload_id) WHERE upload_id IS NOT NULL;

-- A statement file uploaded to an item, kept until the execution it starts has read it:
-- the content is dropped then, the record of the upload stays.
CREATE TABLE statement_uploads (
    id         uuid PRIMARY KEY,
    item_id    uuid NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    name       text NOT NULL,
    size       bigint NOT NULL CHECK (size >= 0),
    sha256     bytea NOT NULL,
    content    bytea,
    created_at timestamptz NOT NULL
);
CREATE INDEX statement_uploads_item ON statement_uploads (item_id, created_at);

-- What an application configured for one connector (a CSV statement mapping).
CREATE TABLE connector_settings (
    client_id    uuid NOT NULL REFERENCES client_applications (id) ON DELETE CASCADE,
    connector_id integer NOT NULL REFERENCES connectors (id),
    settings     jsonb NOT NULL,
    updated_at   timestamptz NOT NULL,
    PRIMARY KEY (client_id, connector_id)
);

-- When an account's balance held, as its institution said (a statement file's date): an
-- upload of an earlier period does not move the balance back.
ALTER TABLE accounts ADD COLUMN balance_at timestamptz;
