-- Part R: a client application's category rules, and where a transaction's category came
-- from. Rules are matched on folded text (no case, no accents, single spaces) that Go
-- computes once, so Go and SQL compare the same strings.
CREATE TABLE category_rules (
    id               uuid PRIMARY KEY,
    client_id        uuid NOT NULL REFERENCES client_applications (id) ON DELETE CASCADE,
    description      text NOT NULL,
    folded           text NOT NULL,
    category_id      text NOT NULL REFERENCES categories (id),
    transaction_type text,
    account_type     text,
    match_type       text NOT NULL,
    -- 0 exact, 1 startsWith/endsWith, 2 contains: the precedence order, smaller wins.
    rank             smallint NOT NULL,
    -- Newer wins a tie; created_at can repeat within a transaction, seq cannot.
    seq              bigserial NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now()
);
-- A duplicate is the same folded description, match and narrowing (409).
CREATE UNIQUE INDEX category_rules_unique ON category_rules
    (client_id, folded, match_type, coalesce(transaction_type, ''), coalesce(account_type, ''));
-- GET /categories/rules pages a client's rules oldest first.
CREATE INDEX category_rules_client ON category_rules (client_id, seq);

-- The categorizer's (or institution's) category, kept so a deleted rule can give it back;
-- the rule that decided the category; and the folded description rules match.
ALTER TABLE transactions ADD COLUMN auto_category_id text, ADD COLUMN category_rule_id uuid, ADD COLUMN match_text text;
UPDATE transactions SET auto_category_id = data::jsonb->>'categoryId' WHERE user_category_id IS NULL;
UPDATE transactions SET match_text = trim(regexp_replace(upper(translate(data::jsonb->>'description',
    'áàâãäéêèíîóôõöúüçÁÀÂÃÉÊÍÓÔÕÚÜÇ', 'aaaaaeeeiioooouucAAAAEEIOOOUUC')), '\s+', ' ', 'g'));
UPDATE transactions SET data = (data::jsonb || jsonb_build_object('categoryOrigin',
    jsonb_build_object('type', CASE WHEN user_category_id IS NOT NULL THEN 'MANUAL' ELSE 'AUTOMATIC' END)))::text
    WHERE category_id IS NOT NULL;
-- No index on transactions for rules: recategorizing reaches an application's transactions
-- through its accounts (transactions_account_date), and ingest stays one index lighter.
