-- A client's category choices for transactions, kept as feedback for the categorizer.
CREATE TABLE category_feedback (
    id                  uuid PRIMARY KEY,
    client_id           uuid NOT NULL REFERENCES client_applications (id) ON DELETE CASCADE,
    transaction_id      uuid NOT NULL,
    description         text NOT NULL,
    previous_category_id text,
    category_id         text NOT NULL REFERENCES categories (id),
    created_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX category_feedback_client ON category_feedback (client_id, created_at DESC, id DESC);
