-- Foundation: client applications, their connect tokens, the connector catalogue and the
-- category tree.

CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- unaccent() is only STABLE (it reads a dictionary); this wrapper pins the dictionary so it
-- can be used in indexes and compared consistently.
CREATE FUNCTION ponte_fold(text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;

CREATE TABLE client_applications (
    id          uuid PRIMARY KEY,
    name        text NOT NULL CHECK (name <> ''),
    secret_hash text NOT NULL,
    enabled     boolean NOT NULL DEFAULT true,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- A connect token's row holds what its JWT does not: the options applied to items created
-- with it, and the item it is bound to (given at issue, or the first it creates).
CREATE TABLE connect_tokens (
    id         uuid PRIMARY KEY,
    client_id  uuid NOT NULL REFERENCES client_applications (id) ON DELETE CASCADE,
    item_id    uuid,
    options    jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
);
CREATE INDEX connect_tokens_client_id ON connect_tokens (client_id);
CREATE INDEX connect_tokens_expires_at ON connect_tokens (expires_at);

CREATE TABLE connectors (
    id                          integer PRIMARY KEY,
    name                        text NOT NULL,
    institution_url             text NOT NULL,
    image_url                   text NOT NULL,
    primary_color               text NOT NULL,
    type                        text NOT NULL,
    country                     text NOT NULL,
    credentials                 jsonb NOT NULL,
    has_mfa                     boolean NOT NULL,
    products                    text[] NOT NULL,
    product_coverage            text[],
    oauth                       boolean NOT NULL,
    oauth_url                   text,
    reset_password_url          text,
    health                      jsonb NOT NULL,
    is_open_finance             boolean NOT NULL,
    is_sandbox                  boolean NOT NULL,
    supports_payment_initiation boolean NOT NULL,
    supports_scheduled_payments boolean NOT NULL,
    supports_smart_transfers    boolean NOT NULL,
    supports_boleto_management  boolean NOT NULL,
    supports_automatic_pix      boolean NOT NULL,
    created_at                  timestamptz NOT NULL DEFAULT now(),
    updated_at                  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE categories (
    id                     text PRIMARY KEY,
    description            text NOT NULL,
    description_translated text NOT NULL,
    parent_id              text REFERENCES categories (id)
);
CREATE INDEX categories_parent_id ON categories (parent_id);

-- Items are filled in by the synchronization engine; connect tokens already refer to them.
CREATE TABLE items (
    id           uuid PRIMARY KEY,
    client_id    uuid NOT NULL REFERENCES client_applications (id) ON DELETE CASCADE,
    connector_id integer NOT NULL REFERENCES connectors (id),
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX items_client_id ON items (client_id, created_at DESC, id DESC);
