-- Foreign-key checks cost two index probes per inserted transaction, which halved the
-- ingestion rate of large histories. The sync engine and item deletion remove an item's
-- transactions explicitly instead, in the same transactions that remove their owners.
ALTER TABLE transactions DROP CONSTRAINT transactions_item_id_fkey;
ALTER TABLE transactions DROP CONSTRAINT transactions_account_id_fkey;

-- An item's transactions are reached through its accounts, which the (account_id, ...)
-- indexes serve; one index less to maintain per inserted row.
DROP INDEX transactions_item;
