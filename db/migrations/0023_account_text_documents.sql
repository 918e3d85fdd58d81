-- Account documents as transactions' (0007, 0008): each row keeps the whole document the API
-- serves, its dates included, as text. GET /accounts is among the most frequent reads, and
-- it spent, per account, a jsonb-to-text conversion in PostgreSQL and, in Go, a compaction,
-- a walk for the two dates and their formatting. What queries order by has its own column.
-- Rows written before this keep jsonb's spacing until the item's next sync writes them
-- again (ReplaceAccounts writes compact JSON, without moving updatedAt for that alone).
ALTER TABLE accounts ADD COLUMN subtype text;
UPDATE accounts SET subtype = COALESCE(data->>'subtype', ''),
    data = data || jsonb_build_object(
        'createdAt', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'updatedAt', to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
ALTER TABLE accounts ALTER COLUMN subtype SET NOT NULL;
ALTER TABLE accounts ALTER COLUMN data TYPE text USING data::text;
