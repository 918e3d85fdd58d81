-- content_hash is a hash of the document the sync last wrote for the row (without its
-- timestamps): a later sync compares hashes instead of documents, and reads a stored row's
-- document only when its hash differs or is unknown (NULL: rows written before this column,
-- or whose document something other than a sync changed since: a chosen category, a rule).
ALTER TABLE transactions ADD COLUMN content_hash bigint;

-- When an item's transactions were last read from its institution, and with what (connector,
-- credentials fingerprint, products): the next sync asks only for what changed since then
-- (less an overlap), unless the key differs or the read is too old.
ALTER TABLE items ADD COLUMN transactions_read_at timestamptz, ADD COLUMN transactions_read_key text;
