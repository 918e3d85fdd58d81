-- Custom sandbox users (docs/sandbox.md, "Custom sandbox users"): a client application's
-- own users of the sandbox connectors, each a JSON description checked by the sandbox
-- package when registered. The username is unique per application; applications do not
-- see each other's.
CREATE TABLE sandbox_users (
    id          uuid PRIMARY KEY,
    client_id   uuid NOT NULL REFERENCES client_applications (id) ON DELETE CASCADE,
    username    text NOT NULL,
    description jsonb NOT NULL CHECK (jsonb_typeof(description) = 'object'),
    created_at  timestamptz NOT NULL,
    updated_at  timestamptz NOT NULL,
    UNIQUE (client_id, username)
);
